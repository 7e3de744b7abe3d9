"""Sync through a real git remote: a bare repo on local disk and two clones
playing two machines. Real libgit2 transport, no mocks."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings, porcelain

from memrepo.engine.errors import RefError, SyncConflict, SyncError, UnreachableRemote
from memrepo.engine.format import entries as fmt
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod
from memrepo.engine.sync.conflicts import conflicts_in, resolve_conflict


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    path = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    return path


@pytest.fixture
def machines(tmp_path: Path, remote: Path) -> tuple[MemoryStore, MemoryStore]:
    """Machine A creates the memory repo and pushes it; machine B clones it."""
    a = MemoryStore.open(tmp_path / "a", plain_settings())
    sync_mod.set_remote(a.root, str(remote), confirmed_private=True)
    assert sync_mod.sync(a).action == "pushed"
    subprocess.run(["git", "clone", "-q", str(remote), str(tmp_path / "b")], check=True)
    b = MemoryStore.open(tmp_path / "b", plain_settings())
    sync_mod.set_remote(b.root, str(remote), confirmed_private=True)
    return a, b


def remember(store: MemoryStore, text: str, kind: str = "preference") -> None:
    store.remember(Candidate(text=text, kind=kind, by="user", origin="cli"))


def me(store: MemoryStore) -> list[str]:
    return [e.text for e in store.read_file("me.md").entries]


def no_markers(root: Path) -> None:
    for path in root.rglob("*"):
        if ".git" in path.parts or not path.is_file():
            continue
        data = path.read_bytes()
        assert b"<<<<<<<" not in data and b">>>>>>>" not in data and b"\n=======\n" not in data, path


def remote_head(remote: Path) -> str:
    return git(remote, "rev-parse", "refs/heads/main").strip()


def is_ancestor(remote: Path, old: str, new: str) -> bool:
    return subprocess.run(["git", "merge-base", "--is-ancestor", old, new], cwd=remote).returncode == 0


def hand_edit(store: MemoryStore, path: str, old: bytes, new: bytes) -> None:
    full = store.root / path
    data = full.read_bytes()
    assert old in data
    full.write_bytes(data.replace(old, new))
    store.commit_hand_edits()


def test_both_append_different_entries_and_sync_in_turns(machines, remote: Path) -> None:
    a, b = machines
    heads = [remote_head(remote)]
    remember(a, "I drink green tea")
    remember(b, "I live in Oslo", kind="identity")
    assert sync_mod.sync(a).action == "pushed"
    heads.append(remote_head(remote))
    result = sync_mod.sync(b)
    assert result.action == "merged" and result.received == 1 and result.conflicts == []
    heads.append(remote_head(remote))
    assert sync_mod.sync(a).action == "fast_forwarded"
    assert me(a) == me(b) == ["I live in Oslo", "I drink green tea"]
    for store in (a, b):
        no_markers(store.root)
        assert porcelain(store.root) == ""
    # Never a force push: every head the remote had is an ancestor of its head now.
    assert all(is_ancestor(remote, old, remote_head(remote)) for old in heads)
    state = sync_mod.sync_state(a.root)
    assert (state.ahead, state.behind, state.last_error) == (0, 0, None)
    assert state.last_sync is not None


def test_an_entry_deleted_on_one_machine_and_untouched_on_the_other_is_gone_on_both(machines) -> None:
    a, b = machines
    remember(a, "I use vim")
    remember(a, "I like long walks")
    sync_mod.sync(a)
    sync_mod.sync(b)
    a.forget("repo:me.md#L5", expect="I use vim")
    remember(b, "I speak Norwegian")
    sync_mod.sync(a)
    sync_mod.sync(b)
    sync_mod.sync(a)
    assert me(a) == me(b) == ["I like long walks", "I speak Norwegian"]


def test_both_edit_the_same_entry_both_versions_kept_and_resolvable(machines) -> None:
    a, b = machines
    remember(a, "My editor is vim")
    sync_mod.sync(a)
    sync_mod.sync(b)
    hand_edit(a, "me.md", b"My editor is vim", b"My editor is neovim")
    hand_edit(b, "me.md", b"My editor is vim", b"My editor is helix")
    sync_mod.sync(a)
    result = sync_mod.sync(b)
    assert result.action == "merged" and len(result.conflicts) == 1
    sync_mod.sync(a)
    for store in (a, b):
        no_markers(store.root)
        entries = [e for e in store.read_file("me.md").entries if "conflict" in e.meta]
        assert [e.text for e in entries] == ["My editor is helix", "My editor is neovim"]
        assert entries[0].meta["conflict"] == entries[1].meta["conflict"]
    found = conflicts_in(b.root)
    assert len(found) == 1 and found[0].path == "me.md" and len(found[0].versions) == 2
    res = resolve_conflict(b, "me.md", found[0].id, "second")
    assert res.commit is not None
    assert me(b) == ["My editor is neovim"]
    assert "conflict" not in b.read_file("me.md").text
    assert conflicts_in(b.root) == []
    with pytest.raises(RefError):
        resolve_conflict(b, "me.md", found[0].id, "first")
    sync_mod.sync(b)
    sync_mod.sync(a)
    assert me(a) == ["My editor is neovim"]


def test_resolve_keep_both_drops_only_the_keys(machines) -> None:
    a, b = machines
    remember(a, "Deploys go out on Friday")
    sync_mod.sync(a)
    sync_mod.sync(b)
    hand_edit(a, "me.md", b"on Friday", b"on Thursday")
    hand_edit(b, "me.md", b"on Friday", b"on Monday")
    sync_mod.sync(a)
    sync_mod.sync(b)
    (conflict,) = conflicts_in(b.root)
    resolve_conflict(b, "me.md", conflict.id, "both")
    assert me(b) == ["Deploys go out on Monday", "Deploys go out on Thursday"]
    assert conflicts_in(b.root) == []


def test_offline_machine_catches_up_on_50_commits_in_one_sync(machines, remote: Path, tmp_path: Path) -> None:
    a, b = machines
    for n in range(50):
        remember(a, f"Fact number {n} about the project", kind="fact")
    away = tmp_path / "remote-away.git"
    remote.rename(away)  # B is offline
    remember(b, "Written while offline")
    with pytest.raises(UnreachableRemote):
        sync_mod.sync(b)
    state = sync_mod.sync_state(b.root)
    assert state.ahead == 1 and state.last_error and "does not exist" in state.last_error
    assert (b.root / "me.md").read_text().count("Written while offline") == 1
    away.rename(remote)
    sync_mod.sync(a)
    result = sync_mod.sync(b)
    assert result.action == "merged" and result.received == 50
    assert len(me(b)) == 51 and me(b)[0] == "Written while offline"  # ours first
    state = sync_mod.sync_state(b.root)
    assert (state.ahead, state.behind, state.last_error) == (0, 0, None)


def test_a_push_racing_another_push_retries_and_converges(machines, remote: Path) -> None:
    a, b = machines
    remember(b, "B wrote this")
    raced = []

    def other_machine_pushes_first() -> None:
        if not raced:
            raced.append(True)
            remember(a, "A wrote this meanwhile")
            sync_mod.sync(a)

    old = remote_head(remote)
    result = sync_mod.sync(b, before_push=other_machine_pushes_first)
    assert result.retries == 1
    assert is_ancestor(remote, old, remote_head(remote))
    sync_mod.sync(a)
    assert me(a) == me(b)
    assert sorted(me(a)) == ["A wrote this meanwhile", "B wrote this"]
    assert remote_head(remote) == git(a.root, "rev-parse", "HEAD").strip() == git(b.root, "rev-parse", "HEAD").strip()


def test_a_non_markdown_conflict_stops_sync_with_main_unchanged(machines) -> None:
    a, b = machines
    (a.root / "schema.sql").write_text("create table t (id int);\n")
    a.commit_hand_edits()
    sync_mod.sync(a)
    sync_mod.sync(b)
    hand_edit(a, "schema.sql", b"id int", b"id bigint")
    hand_edit(b, "schema.sql", b"id int", b"id text")
    sync_mod.sync(a)
    before = git(b.root, "rev-parse", "HEAD").strip()
    with pytest.raises(SyncConflict, match=r"schema\.sql.*main is unchanged"):
        sync_mod.sync(b)
    assert git(b.root, "rev-parse", "HEAD").strip() == before
    assert (b.root / "schema.sql").read_text() == "create table t (id text);\n"
    assert porcelain(b.root) == ""
    assert "schema.sql" in (sync_mod.sync_state(b.root).last_error or "")


def test_non_markdown_files_changed_apart_merge_with_git(machines) -> None:
    a, b = machines
    (a.root / "notes.sql").write_text("one\ntwo\nthree\nfour\nfive\n")
    a.commit_hand_edits()
    sync_mod.sync(a)
    sync_mod.sync(b)
    hand_edit(a, "notes.sql", b"one\n", b"ONE\n")
    hand_edit(b, "notes.sql", b"five\n", b"FIVE\n")
    sync_mod.sync(a)
    sync_mod.sync(b)
    assert (b.root / "notes.sql").read_text() == "ONE\ntwo\nthree\nfour\nFIVE\n"


def test_a_machine_started_apart_merges_unrelated_histories(tmp_path: Path, remote: Path) -> None:
    a = MemoryStore.open(tmp_path / "a", plain_settings())
    remember(a, "From A")
    sync_mod.set_remote(a.root, str(remote), confirmed_private=True)
    sync_mod.sync(a)
    b = MemoryStore.open(tmp_path / "b", plain_settings())  # its own "Create memory repo" commit
    remember(b, "From B")
    sync_mod.set_remote(b.root, str(remote), confirmed_private=True)
    assert sync_mod.sync(b).action == "merged"
    sync_mod.sync(a)
    assert me(a) == me(b) == ["From B", "From A"]
    index = fmt.extract_links((b.root / "MEMORY.md").read_text())
    assert index == ["me", "lessons"]


def test_remote_needs_confirmation_and_a_known_scheme(store: MemoryStore, remote: Path) -> None:
    with pytest.raises(SyncError, match="private"):
        sync_mod.set_remote(store.root, str(remote), confirmed_private=False)
    assert sync_mod.remote_url(store.root) is None
    with pytest.raises(SyncError, match="no remote"):
        sync_mod.sync(store)
    with pytest.raises(SyncError, match="scheme"):
        sync_mod.set_remote(store.root, "ftp://example.invalid/x", confirmed_private=True)
    # A remote added with plain git was never confirmed private: sync refuses it.
    git(store.root, "remote", "add", "origin", str(remote))
    with pytest.raises(SyncError, match="confirmed private"):
        sync_mod.sync(store)
    assert git(remote, "for-each-ref").strip() == ""
    sync_mod.set_remote(store.root, str(remote), confirmed_private=True)
    assert sync_mod.remote_url(store.root) == str(remote.resolve())
    assert sync_mod.remove_remote(store.root) is True
    assert sync_mod.remote_url(store.root) is None
    assert sync_mod.sync_state(store.root).remote is None


def test_replace_remote_history_refuses_without_confirmation_then_forces(machines, remote: Path) -> None:
    a, _b = machines
    remember(a, "Kept after compaction")
    sync_mod.sync(a)
    old = remote_head(remote)
    # Rewrite local history (what compaction does): one root commit with the same tree.
    tree = git(a.root, "rev-parse", "HEAD^{tree}").strip()
    new = git(a.root, "-c", "user.name=t", "-c", "user.email=t@t", "commit-tree", tree, "-m", "Compacted").strip()
    git(a.root, "update-ref", "refs/heads/main", new)
    with pytest.raises(SyncError, match="without confirmation"):
        sync_mod.replace_remote_history(a, confirmed=False)
    assert remote_head(remote) == old
    # Normal sync never forces: it merges the old history back in instead.
    result = sync_mod.replace_remote_history(a, confirmed=True)
    assert result.head == new == remote_head(remote)
    assert not is_ancestor(remote, old, remote_head(remote))


def test_compaction_with_a_remote_refuses_until_confirmed_then_replaces_its_history(machines, remote: Path) -> None:
    a, b = machines
    remember(a, "Secret plan zx-forget-me goes here")
    remember(a, "Kept through compaction")
    sync_mod.sync(a)
    old = remote_head(remote)
    ref = next(e.ref for e in a.read_file("me.md").entries if "zx-forget-me" in e.text)
    a.forget(ref)
    before = git(a.root, "rev-parse", "HEAD").strip()
    with pytest.raises(SyncError, match="keeps the old history"):
        a.compact()
    assert git(a.root, "rev-parse", "HEAD").strip() == before  # refused: nothing changed
    assert a.compact_preview().remote == str(remote)

    result = a.compact(replace_remote=True)
    assert result.remote_replaced and result.remote_error is None
    assert remote_head(remote) == result.commit == git(a.root, "rev-parse", "HEAD").strip()
    assert not is_ancestor(remote, old, remote_head(remote))
    assert "zx-forget-me" not in git(remote, "log", "--all", "-p")
    # the other machine still syncs: the compacted history is the remote's now
    sync_mod.sync(b)
    assert "Kept through compaction" in me(b)
    assert all("zx-forget-me" not in t for t in me(b))


def test_sync_health_row(machines, remote: Path) -> None:
    from datetime import UTC, datetime

    from memrepo.engine.repo.health import HealthStatus, sync_row

    a, _b = machines
    row = sync_row(a.root, datetime.now(UTC))
    assert row.status is HealthStatus.OK and "up to date" in row.reason
    remember(a, "Not pushed yet")
    row = sync_row(a.root, datetime.now(UTC))
    assert row.status is HealthStatus.WARN and row.reason.startswith("1 commit not pushed") and row.fix_key == "s"
    sync_mod.remove_remote(a.root)
    assert sync_row(a.root, datetime.now(UTC)).reason.startswith("no remote")
