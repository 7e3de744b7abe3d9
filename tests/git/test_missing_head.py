"""HEAD's branch at a commit missing from .git/objects (breaker5 B5-14; engine/git/mergestate.py,
engine/git/commit.py, docs/architecture.md §3).

``git gc --prune=now`` beside a write deleted the objects of the commit memrepo was making, and the branch
moved to a commit that no longer existed: every command then said "internal error ... please report it".
Now status, Health and every write say it in one line that names the missing commit, the last whole
commit of the branch's reflog and the exact ``git update-ref`` that repairs it; writes are kept; after
the repair the lost write's text, still in the file, is committed as a hand edit. A prune that deletes
the objects of memrepo's own commit right after the branch moved is repaired by writing them again.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.mcp_helpers import ROOT
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.errors import BlockedError
from memrepo.engine.git import commit as gitcommit
from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.health import HealthStatus, check
from memrepo.engine.repo.store import MemoryStore


def memrepo(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real CLI in a subprocess, without the write server."""
    env = dict(os.environ, MEMREPO_WRITE_SERVER="0", PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(root), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def loose(root: Path, oid: str) -> Path:
    return root / ".git" / "objects" / oid[:2] / oid[2:]


@pytest.fixture
def broken(tmp_path: Path) -> tuple[MemoryStore, str, str]:
    """A repo whose last write's commit a prune deleted: (store, the missing commit, the last good one)."""
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    assert store.remember(Candidate(text="Deploys go out on Tuesdays", kind="fact")).commit
    good = git(store.root, "rev-parse", "HEAD").strip()
    lost = store.remember(Candidate(text="The staging box is called gerenuk", kind="fact")).commit
    assert lost is not None
    loose(store.root, lost).unlink()  # the prune's work on the commit made meanwhile
    store.close()
    return MemoryStore.open(store.root, plain_settings(), create=False), lost, good


def test_status_health_and_a_write_name_the_missing_commit_and_the_repair(broken: tuple) -> None:
    store, lost, good = broken
    status = store.status()
    assert status.state is RepoState.BLOCKED
    reason = status.reason or ""
    assert reason.startswith("HEAD points at a missing commit: refs/heads/main is at " + lost[:7])
    assert f"the last good commit in its reflog is {good[:7]}" in reason
    assert f"`git update-ref refs/heads/main {good}`" in reason
    (row,) = [r for r in check(store) if r.name == "work tree"]
    assert row.status is HealthStatus.FAIL and lost[:7] in row.reason
    with pytest.raises(BlockedError, match="missing commit") as refused:
        store.remember(Candidate(text="Backups run at midnight", kind="fact"))
    assert refused.value.kept and [c.text for c in store.pending()] == ["Backups run at midnight"]


def test_the_cli_says_it_in_one_line_and_the_named_repair_loses_nothing(broken: tuple) -> None:
    store, lost, good = broken
    root = store.root
    for args in (("status",), ("remember", "Backups run at midnight"), ("health",)):
        done = memrepo(root, *args)
        assert "internal error" not in done.stdout + done.stderr, (args, done.stderr)
    status = memrepo(root, "status")
    assert status.returncode == 3 and status.stdout.startswith("blocked: HEAD points at a missing commit")
    assert "1 write(s) kept while blocked, applied once the block is gone" in status.stdout
    health = memrepo(root, "health")
    assert any(
        line.startswith("FAIL") and "work tree" in line and lost[:7] in line for line in health.stdout.splitlines()
    )
    # The repair the message names, with real git.
    git(root, "update-ref", "refs/heads/main", good)
    after = memrepo(root, "status")
    assert after.returncode == 3 and after.stdout.startswith("hand_edited"), after.stdout
    assert memrepo(root, "commit-hand-edits").returncode == 0
    head = git(root, "show", "HEAD:me.md")
    assert "gerenuk" in head and "Backups run at midnight" in head  # the lost write and the kept one
    assert memrepo(root, "status").stdout == "clean\n"
    assert git(root, "fsck", "--no-dangling", "--no-reflogs").strip() == ""


def test_a_prune_right_after_the_branch_moved_is_repaired_by_writing_the_objects_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    assert store.remember(Candidate(text="Deploys go out on Tuesdays", kind="fact")).commit
    real = gitcommit.on_disk
    pruned: list[str] = []

    def prune_then_look(repo, git_dir, commit, paths):  # type: ignore[no-untyped-def]
        if not pruned:  # `git prune --expire=now` deletes the new commit's loose objects once, as the branch moves
            new = repo[commit]
            for oid in (str(commit), str(new.tree_id), str(new.tree["me.md"].id)):
                loose(store.root, oid).unlink(missing_ok=True)
                pruned.append(oid)
        return real(repo, git_dir, commit, paths)

    monkeypatch.setattr(gitcommit, "on_disk", prune_then_look)
    result = store.remember(Candidate(text="The staging box is called gerenuk", kind="fact"))
    assert pruned and result.commit == pruned[0]
    assert all(loose(store.root, oid).is_file() for oid in pruned)
    assert git(store.root, "fsck", "--no-dangling").strip() == ""
    assert "gerenuk" in git(store.root, "show", "HEAD:me.md")
    assert store.status().state is RepoState.CLEAN
