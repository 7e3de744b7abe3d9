"""A remote compacted on another machine (``compact --replace-remote``) is adopted by the
next ordinary sync elsewhere: the old history is never merged or pushed back, and the
forgotten text leaves every machine. Real bare remote and two clones, real libgit2 transport."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.errors import HandEditQuestion
from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod

SECRET = "My locker number is 4711-forgotten-marker"  # not secret-shaped: a PIN is now redacted on write


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    path = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    return path


@pytest.fixture
def machines(tmp_path: Path, remote: Path) -> tuple[MemoryStore, MemoryStore]:
    """A writes the secret and pushes; B clones it (so B holds the secret in its history)."""
    a = MemoryStore.open(tmp_path / "a", plain_settings())
    sync_mod.set_remote(a.root, str(remote), confirmed_private=True)
    remember(a, "I drink green tea")
    remember(a, SECRET)
    sync_mod.sync(a)
    subprocess.run(["git", "clone", "-q", str(remote), str(tmp_path / "b")], check=True)
    b = MemoryStore.open(tmp_path / "b", plain_settings())
    sync_mod.set_remote(b.root, str(remote), confirmed_private=True)
    return a, b


def remember(store: MemoryStore, text: str) -> None:
    store.remember(Candidate(text=text, kind="preference", by="user", origin="cli"))


def me(store: MemoryStore) -> list[str]:
    return [e.text for e in store.read_file("me.md").entries]


def forget_and_compact(a: MemoryStore) -> None:
    ref = next(e.ref for e in a.read_file("me.md").entries if e.text == SECRET)
    a.forget(ref, compact=True, replace_remote=True)


def all_objects(repo: Path) -> str:
    """The content of every object in the repo's database, reachable or not."""
    out = subprocess.run(
        ["git", "cat-file", "--batch-all-objects", "--batch"], cwd=repo, capture_output=True, check=True
    ).stdout
    return out.decode("utf-8", "replace")


def work_tree_text(root: Path) -> str:
    return "".join(
        p.read_text("utf-8", "replace")
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.relative_to(root).parts
    )


def test_a_machine_that_missed_the_forget_adopts_the_compacted_remote(machines, remote: Path) -> None:
    a, b = machines
    forget_and_compact(a)
    compact_root = git(remote, "rev-parse", "refs/heads/main").strip()
    remember(b, "I moved to Bergen")  # made on B before its sync; B never saw the forget
    result = sync_mod.sync(b)
    assert result.action == "adopted"
    assert result.notice and "compacted on another machine: adopted its history" in result.notice
    assert "I moved to Bergen" in me(b) and SECRET not in me(b)
    assert SECRET not in work_tree_text(b.root)
    # One new commit whose only parent is the remote's compacted head: the old history never came back.
    head = git(remote, "rev-parse", "refs/heads/main").strip()
    assert head == b.head()
    assert git(remote, "rev-list", "--parents", "-n", "1", head).split() == [head, compact_root]
    assert git(remote, "rev-list", "--count", "main").strip() == "2"
    for repo in (remote, b.root):
        assert "forgotten-marker" not in git(repo, "log", "--all", "-p")
    assert "forgotten-marker" not in all_objects(b.root)  # B's .git no longer holds the text either
    assert subprocess.run(["git", "fsck", "--full"], cwd=b.root, capture_output=True).returncode == 0
    # A takes B's entry with an ordinary fast-forward.
    assert sync_mod.sync(a).action == "fast_forwarded"
    assert me(a) == me(b) and "I moved to Bergen" in me(a)
    assert sync_mod.sync(b).action == "up_to_date"


@pytest.mark.parametrize("tracking_ref_gone", [False, True])
def test_without_local_changes_main_simply_moves_to_the_remote(machines, remote: Path, tracking_ref_gone: bool) -> None:
    a, b = machines
    sync_mod.sync(b)  # records the remote head in sync.json
    forget_and_compact(a)
    if tracking_ref_gone:  # the base then comes from .git/memrepo/sync.json
        git(b.root, "update-ref", "-d", "refs/remotes/origin/main")
    result = sync_mod.sync(b)
    assert result.action == "adopted" and result.sent == 0
    assert b.head() == git(remote, "rev-parse", "refs/heads/main").strip() == a.head()
    assert me(b) == ["I drink green tea"]
    assert "forgotten-marker" not in all_objects(b.root)
    assert sync_mod.sync_state(b.root).ahead == 0


def test_a_fetch_that_already_moved_the_tracking_ref_still_finds_the_old_base(machines, remote: Path) -> None:
    """A plain ``git fetch`` (or a sync that failed after its fetch) moved origin/main to the
    compacted head: the base then comes from the last successful sync, so the forgotten entry
    is not taken for one of this machine's own changes."""
    a, b = machines
    sync_mod.sync(b)
    forget_and_compact(a)
    remember(b, "I moved to Bergen")
    git(b.root, "fetch", "-q", "origin", "+refs/heads/main:refs/remotes/origin/main")
    result = sync_mod.sync(b)
    assert result.action == "adopted"
    assert "I moved to Bergen" in me(b) and SECRET not in me(b)
    assert "forgotten-marker" not in git(remote, "log", "--all", "-p")
    assert "forgotten-marker" not in all_objects(b.root)


def test_a_stale_save_after_adopting_brings_back_nothing_silently(machines) -> None:
    """The closing note's "left alone": B's editor read me.md before the sync; saving it after B adopted A's
    compaction brought the forgotten line back with no question, since the history the guard reads is gone."""
    a, b = machines
    me_b = b.root / "me.md"
    read = me_b.read_text()  # the editor's copy, from before the sync
    assert SECRET in read
    forget_and_compact(a)
    assert sync_mod.sync(b).action == "adopted"
    assert SECRET not in me_b.read_text()
    tmp = me_b.with_name(".me.md.editor-tmp")  # the editor saves its copy: a temp file renamed over it
    tmp.write_text(read + "- Typed in the editor [by: user]\n")
    os.replace(tmp, me_b)
    os.utime(me_b, (time.time() - 1, time.time() - 1))
    status = b.status()
    assert status.state is RepoState.HAND_EDITED
    (q,) = status.questions
    assert q.path == "me.md" and len(q.revived) == 1 and SECRET in q.revived[0]
    head = b.head()
    with pytest.raises(HandEditQuestion, match="brings back 1 entry"):
        remember(b, "I cycle to work")
    assert b.head() == head and SECRET not in git(b.root, "show", "HEAD:me.md")
