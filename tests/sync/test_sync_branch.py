"""Sync follows the repo's branch, whatever its name (issue 15 item 5).

A memory repo made by hand with stock git is on ``master``. Before, sync fetched and pushed
``main`` only: it printed "up to date", Health said OK, ``remote show`` counted 0 to push, and
neither machine ever got the other's commits.
"""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.errors import SyncError
from memrepo.engine.models import Candidate
from memrepo.engine.repo.health import HealthStatus, sync_row
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod


def stock_git_repo(path: Path, branch: str = "master") -> Path:
    """A memory repo made the way the format's skill says, with stock git (no memrepo)."""
    subprocess.run(["git", "init", "-q", "-b", branch, str(path)], check=True)
    (path / "MEMORY.md").write_text("# Memory\n\n## Index\n- [[me]]\n", encoding="utf-8")
    (path / "me.md").write_text("# About me\n\n- Likes tea [by: user]\n", encoding="utf-8")
    git(path, "add", "-A")
    git(path, "-c", "user.name=Me", "-c", "user.email=me@example.com", "commit", "-q", "-m", "Start")
    return path


def texts(store: MemoryStore) -> list[str]:
    return [e.text for e in store.read_file("me.md").entries]


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    path = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "master", str(path)], check=True)
    return path


def test_two_machines_on_master_sync_both_ways(tmp_path: Path, remote: Path) -> None:
    a = MemoryStore.open(stock_git_repo(tmp_path / "a"), plain_settings())
    sync_mod.set_remote(a.root, str(remote), confirmed_private=True)
    first = sync_mod.sync(a)
    assert first.action == "pushed"  # before: "up to date", and the remote stayed empty
    assert git(remote, "rev-parse", "refs/heads/master").strip() == git(a.root, "rev-parse", "HEAD").strip()

    subprocess.run(["git", "clone", "-q", str(remote), str(tmp_path / "b")], check=True)
    b = MemoryStore.open(tmp_path / "b", plain_settings())
    assert git(b.root, "symbolic-ref", "--short", "HEAD").strip() == "master"
    sync_mod.set_remote(b.root, str(remote), confirmed_private=True)

    a.remember(Candidate(text="Lives in Oslo", kind="identity", by="user", origin="cli"))
    b.remember(Candidate(text="Prefers short answers", kind="preference", by="user", origin="cli"))
    assert sync_mod.sync_state(a.root).ahead == 1  # before: 0 to push
    assert sync_mod.sync(a).action == "pushed"
    assert sync_mod.sync(b).action == "merged"
    assert sync_mod.sync(a).action == "fast_forwarded"
    for store in (a, b):
        assert {"Lives in Oslo", "Prefers short answers", "Likes tea"} <= set(texts(store)), texts(store)
        state = sync_mod.sync_state(store.root)
        assert state.ahead == 0 and state.behind == 0 and state.problem is None
        assert sync_row(store.root, datetime.now(UTC)).status is HealthStatus.OK
        assert git(store.root, "symbolic-ref", "--short", "HEAD").strip() == "master"
    assert not git(remote, "for-each-ref", "refs/heads/main").strip()  # nothing pushed to another branch


def test_a_remote_with_no_branch_to_join_fails_loudly_and_health_says_fail(tmp_path: Path) -> None:
    """Several remote branches, none this repo's, and a remote HEAD naming none: nothing to join safely.

    (A remote with one branch of another name is joined: tests/sync/test_sync_join_branch.py.)
    """
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    other = MemoryStore.open(tmp_path / "other", plain_settings())  # memrepo's own repo: main
    sync_mod.set_remote(other.root, str(remote), confirmed_private=True)
    assert sync_mod.sync(other).action == "pushed"
    git(other.root, "push", "-q", "origin", "main:refs/heads/spare")
    git(remote, "symbolic-ref", "HEAD", "refs/heads/gone")

    mine = MemoryStore.open(stock_git_repo(tmp_path / "mine"), plain_settings())
    sync_mod.set_remote(mine.root, str(remote), confirmed_private=True)
    with pytest.raises(SyncError) as info:
        sync_mod.sync(mine)
    message = str(info.value)
    assert "branch master" in message and "only main, spare" in message
    row = sync_row(mine.root, datetime.now(UTC))
    assert row.status is HealthStatus.FAIL and "only main, spare" in row.reason
    assert not git(remote, "for-each-ref", "refs/heads/master").strip()  # nothing pushed behind the others' backs
    # once the repo follows the remote's branch the problem is gone from Health
    git(mine.root, "branch", "-m", "master", "main")
    assert sync_mod.sync_state(mine.root).problem is None


def test_compaction_keeps_the_branch_and_sync_still_meets_the_remote(tmp_path: Path, remote: Path) -> None:
    """Before: compacting a repo on master moved it to a new branch main (and sync lost the remote's branch)."""
    a = MemoryStore.open(stock_git_repo(tmp_path / "a"), plain_settings())
    sync_mod.set_remote(a.root, str(remote), confirmed_private=True)
    assert sync_mod.sync(a).action == "pushed"
    ref = next(e.ref for e in a.read_file("me.md").entries if e.text == "Likes tea")
    a.forget(ref)
    a.compact(replace_remote=True)
    assert git(a.root, "symbolic-ref", "--short", "HEAD").strip() == "master"
    assert git(a.root, "for-each-ref", "--format=%(refname)", "refs/heads").split() == ["refs/heads/master"]
    assert git(remote, "rev-parse", "refs/heads/master").strip() == git(a.root, "rev-parse", "HEAD").strip()
