"""Retiring workspaces: list, archive, restore and purge, with context and recall checked at each step."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers.compact_helpers import fsck, git, traces
from helpers.repo_helpers import plain_settings, porcelain

from memrepo.cli.main import main
from memrepo.engine.errors import MemrepoError, RefError, SyncError
from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore

FACT = "Deploys go out on Thursdays GHOSTMARK"


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=True)


def _setup(store: MemoryStore, tmp_path: Path) -> Path:
    """A workspace whose folder existed and is now gone, and a live one."""
    gone = tmp_path / "ghost-project"
    gone.mkdir()
    store.remember(Candidate(text=FACT, scope="workspace", workspace=str(gone), by="user"))
    gone.rmdir()
    live = tmp_path / "live-project"
    live.mkdir()
    store.remember(Candidate(text="Live uses pnpm LIVEMARK", scope="workspace", workspace=str(live), by="user"))
    store.remember(Candidate(text="Name is Sam", kind="identity", by="user"))
    return gone


def _seen(store: MemoryStore, gone: Path) -> dict[str, bool]:
    return {
        "recall": any("GHOSTMARK" in h.text for h in store.recall("deploys thursdays")),
        "scoped recall": any("GHOSTMARK" in h.text for h in store.recall("deploys thursdays", workspace=str(gone))),
        "context": "GHOSTMARK" in store.context(str(gone)).text,
        "index link": "[[workspaces/ghost-project]]" in (store.root / "MEMORY.md").read_text(),
    }


def test_list_shows_path_and_whether_it_exists(store: MemoryStore, tmp_path: Path) -> None:
    gone = _setup(store, tmp_path)
    infos = {i.file: i for i in store.all_workspaces()}
    assert infos["workspaces/ghost-project.md"].path == str(gone)
    assert infos["workspaces/ghost-project.md"].exists is False
    assert infos["workspaces/live-project.md"].exists is True
    result = run("--repo", str(store.root), "workspaces")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert any("workspaces/ghost-project.md" in ln and str(gone) in ln and "(gone)" in ln for ln in lines)
    assert any("workspaces/live-project.md" in ln and "(exists)" in ln for ln in lines)


def test_archive_then_restore_round_trip(store: MemoryStore, tmp_path: Path) -> None:
    gone = _setup(store, tmp_path)
    assert _seen(store, gone) == {"recall": True, "scoped recall": True, "context": True, "index link": True}
    commits = len(store.log())

    result = store.archive_workspace(str(gone))
    assert result.action == Action.ARCHIVED and result.path == "archived/workspaces/ghost-project.md"
    assert len(store.log()) == commits + 1
    _info, changed = store.git.commit_changes(result.commit)
    assert set(changed) == {"workspaces/ghost-project.md", "archived/workspaces/ghost-project.md", "MEMORY.md"}
    assert _seen(store, gone) == {"recall": False, "scoped recall": False, "context": False, "index link": False}
    assert not (store.root / "workspaces/ghost-project.md").exists()
    assert FACT in (store.root / "archived/workspaces/ghost-project.md").read_text()
    assert porcelain(store.root) == ""
    archived = [i for i in store.all_workspaces() if i.archived]
    assert [i.file for i in archived] == ["archived/workspaces/ghost-project.md"]
    assert "LIVEMARK" in store.context(str(tmp_path / "live-project")).text  # others untouched

    result = store.restore_workspace("ghost-project")
    assert result.action == Action.RESTORED and result.path == "workspaces/ghost-project.md"
    assert len(store.log()) == commits + 2
    assert _seen(store, gone) == {"recall": True, "scoped recall": True, "context": True, "index link": True}
    assert not (store.root / "archived/workspaces/ghost-project.md").exists()
    assert porcelain(store.root) == ""
    # A new write to the restored workspace lands in the restored file, not a second one.
    store.remember(Candidate(text="Uses make", scope="workspace", workspace=str(gone), by="user"))
    assert sorted(p.name for p in (store.root / "workspaces").iterdir()) == ["ghost-project.md", "live-project.md"]


def test_archive_refuses_a_live_workspace_unless_forced(store: MemoryStore, tmp_path: Path) -> None:
    _setup(store, tmp_path)
    head = store.head()
    with pytest.raises(MemrepoError, match="still exists"):
        store.archive_workspace(str(tmp_path / "live-project"))
    assert store.head() == head
    result = run("--repo", str(store.root), "workspaces", "archive", "live-project")
    assert result.exit_code == 1 and "still exists" in result.stderr and "--force" in result.stderr
    result = run("--repo", str(store.root), "workspaces", "archive", "live-project", "--force")
    assert result.exit_code == 0, result.output
    assert "LIVEMARK" not in store.context(str(tmp_path / "live-project")).text


def test_unknown_workspace_is_a_clear_error(store: MemoryStore, tmp_path: Path) -> None:
    _setup(store, tmp_path)
    with pytest.raises(RefError, match="no workspace file"):
        store.archive_workspace("nobody")
    with pytest.raises(RefError, match="archived/workspaces/"):
        store.restore_workspace("ghost-project")  # not archived
    result = run("--repo", str(store.root), "workspaces", "restore", "nobody")
    assert result.exit_code == 1 and result.stderr.startswith("memrepo: no workspace file")


def test_purge_asks_then_deletes_and_compacts_leaving_no_trace(store: MemoryStore, tmp_path: Path) -> None:
    gone = _setup(store, tmp_path)
    store.archive_workspace(str(gone))
    repo = ["--repo", str(store.root)]
    head = store.head()
    result = run(*repo, "workspaces", "purge", "ghost-project", input="n\n")
    assert result.exit_code == 1 and "not purged; nothing changed" in result.stderr
    assert store.head() == head and traces(store.root, "GHOSTMARK")  # control: the text is still in .git

    result = run(*repo, "workspaces", "purge", "ghost-project", input="y\n")
    assert result.exit_code == 0, result.output
    assert "purged archived/workspaces/ghost-project.md" in result.stdout
    store = MemoryStore.open(store.root, plain_settings())
    assert traces(store.root, "GHOSTMARK") == []
    assert not (store.root / "archived").exists()
    assert _seen(store, gone) == {"recall": False, "scoped recall": False, "context": False, "index link": False}
    assert "LIVEMARK" in store.context(str(tmp_path / "live-project")).text
    assert git(store.root, "rev-list", "--all").split() == [store.head()]
    fsck(store.root)


def test_purge_an_active_workspace_with_yes(store: MemoryStore, tmp_path: Path) -> None:
    gone = _setup(store, tmp_path)
    result = run("--repo", str(store.root), "workspaces", "purge", str(gone), "--yes")
    assert result.exit_code == 0, result.output
    store = MemoryStore.open(store.root, plain_settings())
    assert _seen(store, gone) == {"recall": False, "scoped recall": False, "context": False, "index link": False}
    assert traces(store.root, "GHOSTMARK") == []


def test_purge_with_a_sync_remote_needs_replace_remote(store: MemoryStore, tmp_path: Path) -> None:
    from memrepo.engine.sync.sync import set_remote

    gone = _setup(store, tmp_path)
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    set_remote(store.root, str(remote), confirmed_private=True)
    head = store.head()
    with pytest.raises(SyncError, match="replace"):
        store.purge_workspace(str(gone))
    assert store.head() == head and (store.root / "workspaces/ghost-project.md").exists()
    result = run("--repo", str(store.root), "workspaces", "purge", str(gone), "--yes")
    assert result.exit_code == 1 and "--replace-remote" in result.stderr
    assert (store.root / "workspaces/ghost-project.md").exists()


async def test_async_archive_restore_and_purge(repo_path: Path, tmp_path: Path) -> None:
    from memrepo.engine.repo.repo import MemoryRepo

    gone = tmp_path / "ghost-project"
    async with await MemoryRepo.open(repo_path, plain_settings()) as repo:
        gone.mkdir()
        await repo.remember(Candidate(text=FACT, scope="workspace", workspace=str(gone), by="user"))
        gone.rmdir()
        assert (await repo.archive_workspace(str(gone))).action == Action.ARCHIVED
        assert [w.archived for w in await repo.all_workspaces()] == [True]
        assert "GHOSTMARK" not in (await repo.context(str(gone))).text
        assert (await repo.restore_workspace(str(gone))).action == Action.RESTORED
        assert "GHOSTMARK" in (await repo.context(str(gone))).text
        assert (await repo.purge_workspace(str(gone))).action == Action.PURGED
        assert not await repo.recall("deploys thursdays")
        assert await repo.all_workspaces() == []
    assert traces(repo_path, "GHOSTMARK") == []


# -- a purged workspace's checkpoint buffer (QA: its conversation survived the purge) --


def _say(n: int, text: str) -> list[dict]:
    return [{"id": f"u{n}", "role": "user", "text": text}, {"id": f"a{n}", "role": "assistant", "text": "Noted."}]


def test_purge_deletes_the_workspace_checkpoint_buffer_and_a_forced_checkpoint_cannot_bring_it_back(
    store: MemoryStore, tmp_path: Path
) -> None:
    from memrepo.engine.checkpoints.checkpoint import Checkpointer
    from memrepo.engine.checkpoints.flow import run_checkpoint
    from memrepo.engine.config import Settings

    gone = _setup(store, tmp_path)
    said = _say(1, "Remember that the staging password rotates weekly BUFFERMARK.")
    result, claim = Checkpointer(store.state_dir).submit("s1", str(gone), said, "turn")
    assert claim is None and result.accepted == 2
    assert traces(store.root, "BUFFERMARK")  # buffered under .git/memrepo/checkpoints/
    store.purge_workspace("ghost-project")
    assert traces(store.root, "BUFFERMARK") == [] and traces(store.root, "GHOSTMARK") == []
    # the harness sends the same transcript again, with a force
    after = run_checkpoint(store, Checkpointer(store.state_dir), Settings(), "s1", str(gone), said, "force")
    assert after.status != "distilled" and after.accepted == 0
    assert not (store.root / "workspaces" / "ghost-project.md").exists()
    assert traces(store.root, "BUFFERMARK") == []
    # a new conversation there afterwards is remembered as usual
    new = run_checkpoint(
        store,
        Checkpointer(store.state_dir),
        Settings(),
        "s2",
        str(gone),
        _say(2, "Remember that the new build uses Bazel FRESHMARK."),
        "force",
    )
    assert new.status == "distilled", new


def test_a_distillation_claimed_before_the_purge_writes_nothing(store: MemoryStore, tmp_path: Path) -> None:
    from memrepo.engine.checkpoints.checkpoint import Checkpointer
    from memrepo.engine.checkpoints.flow import finish_claim
    from memrepo.engine.config import Settings

    gone = _setup(store, tmp_path)
    cp = Checkpointer(store.state_dir)
    _result, claim = cp.submit("s1", str(gone), _say(1, "Remember that the queue runs at night QUEUEMARK."), "force")
    assert claim is not None
    store.purge_workspace("ghost-project")
    done = finish_claim(store, cp, Settings(), claim)
    assert done.status == "forgotten" and not done.written
    assert not (store.root / "workspaces" / "ghost-project.md").exists()
    assert traces(store.root, "QUEUEMARK") == []


def test_compaction_drops_the_buffer_of_a_workspace_whose_file_was_deleted(store: MemoryStore, tmp_path: Path) -> None:
    from memrepo.engine.checkpoints.checkpoint import Checkpointer

    gone = _setup(store, tmp_path)
    fresh = tmp_path / "fresh-project"
    fresh.mkdir()
    cp = Checkpointer(store.state_dir)
    cp.submit("s1", str(gone), _say(1, "Remember that ORPHANMARK is the old codename."), "turn")
    cp.submit("s2", str(fresh), _say(1, "Remember that KEEPMARK is the new codename."), "turn")
    (store.root / "workspaces" / "ghost-project.md").unlink()
    store.commit_hand_edits()
    store.compact()
    assert traces(store.root, "ORPHANMARK") == []
    assert traces(store.root, "KEEPMARK")  # a workspace not yet written to keeps its buffer


def test_restore_merges_into_the_file_new_writes_made_after_a_forced_archive(
    store: MemoryStore, tmp_path: Path
) -> None:
    _setup(store, tmp_path)
    live = str(tmp_path / "live-project")
    store.remember(Candidate(text="Builds with make SHAREDMARK", scope="workspace", workspace=live, by="user"))
    store.archive_workspace(live, force=True)
    # the agent still works there: its next writes make a new active file
    store.remember(Candidate(text="Tests run with pytest NEWMARK", scope="workspace", workspace=live, by="agent"))
    store.remember(Candidate(text="Builds with make SHAREDMARK", scope="workspace", workspace=live, by="agent"))
    active = next(i for i in store.all_workspaces() if not i.archived and i.path == live)
    commits = len(store.log())
    result = run("--repo", str(store.root), "workspaces", "restore", "live-project")
    assert result.exit_code == 0, result.output
    assert "1 added, 1 already there" in result.stdout  # LIVEMARK added, SHAREDMARK there
    assert len(store.log()) == commits + 1
    assert not (store.root / "archived").exists()
    text = (store.root / active.file).read_text()
    assert text.count("SHAREDMARK") == 1 and "NEWMARK" in text and "LIVEMARK" in text
    assert text.count("workspace: ws-") == 1  # one header entry
    merged = store.read_file(active.file)
    livemark = next(e for e in merged.entries if "LIVEMARK" in e.text)
    assert livemark.by == "user"  # metadata kept
    ctx = store.context(live).text
    assert "LIVEMARK" in ctx and "NEWMARK" in ctx
    assert [i.file for i in store.all_workspaces() if i.path == live] == [active.file]
    assert porcelain(store.root) == ""
