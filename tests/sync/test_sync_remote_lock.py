"""A push killed while it held a local-path remote's ref lock blocks no later sync (docs/architecture.md §3, §5).

A push to a remote on a local path (libgit2's local transport) takes ``refs/heads/main.lock`` in the
remote itself. Killed then, it left the lock, and every later sync failed "the remote kept moving: the
push was rejected 6 times" (tests/git/test_sigkill_anywhere.py saw it twice under load), a false reason
and a dead end. The kill here is a real SIGKILL of a forked process, landed where libgit2 holds the lock:
its push is replaced by one that takes the lock as libgit2 does (``O_EXCL``, the new id) and is killed.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pygit2
import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.errors import BusyError
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    path = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    return path


def _synced_store(tmp_path: Path, remote: Path) -> MemoryStore:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    sync_mod.set_remote(store.root, str(remote), confirmed_private=True)
    assert sync_mod.sync(store).action == "pushed"
    store.remember(Candidate(text="a fact written before the killed push", kind="preference", by="user"))
    return store


def _take_lock(remote: Path, commit: str) -> Path:
    """Take the remote's branch lock as libgit2 does: created exclusively, holding the new id."""
    lock = remote / "refs" / "heads" / "main.lock"
    handle = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    os.write(handle, f"{commit}\n".encode())
    return lock


def _sync_killed_holding_the_remote_lock(root: Path, remote: Path) -> None:
    pid = os.fork()
    if pid == 0:  # the child: sync, and die by SIGKILL inside the push
        try:

            def push(self: pygit2.Remote, specs: list[str], callbacks: object = None, **kwargs: object) -> None:
                _take_lock(remote, git(root, "rev-parse", "HEAD").strip())
                os.kill(os.getpid(), signal.SIGKILL)

            pygit2.Remote.push = push  # type: ignore[method-assign]
            sync_mod.sync(MemoryStore.open(root, plain_settings()))
        finally:
            os._exit(3)  # never reached: the kill lands first
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def test_the_next_sync_clears_the_lock_a_killed_push_left_in_the_remote(tmp_path: Path, remote: Path) -> None:
    store = _synced_store(tmp_path, remote)
    _sync_killed_holding_the_remote_lock(store.root, remote)
    assert (remote / "refs" / "heads" / "main.lock").exists()
    assert (store.root / ".git" / "memrepo" / "sync.holder").exists(), "the killed push's record stays"

    result = sync_mod.sync(store)

    assert result.action == "pushed"
    assert not (remote / "refs" / "heads" / "main.lock").exists()
    assert git(remote, "rev-parse", "main").strip() == git(store.root, "rev-parse", "HEAD").strip()
    assert "before the killed push" in git(remote, "show", "main:me.md")


def test_a_lock_no_killed_push_of_ours_took_is_left_and_named(tmp_path: Path, remote: Path) -> None:
    """Another machine's push holds it, or was killed there: not ours to remove; the sync says which file, not
    that the remote kept moving, and loses nothing (the commits wait for the next sync)."""
    store = _synced_store(tmp_path, remote)
    lock = _take_lock(remote, "0" * 40)
    head = git(store.root, "rev-parse", "HEAD").strip()

    with pytest.raises(BusyError, match=r"branch stayed locked .*refs/heads/main\.lock") as raised:
        sync_mod.sync(store)

    assert "kept moving" not in str(raised.value)
    assert lock.exists()
    assert git(store.root, "rev-parse", "HEAD").strip() == head
    lock.unlink()  # the person deletes it, as the message says
    assert sync_mod.sync(store).action == "pushed"
    assert git(remote, "rev-parse", "main").strip() == head
