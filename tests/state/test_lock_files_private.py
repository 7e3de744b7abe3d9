"""Lock files under ``.git/memrepo/`` are owner only (0600), like every other state file (docs/architecture.md §4).

A lock file holds no text, yet a 0644 file in a 0700 folder is the one exception a reader of
``ls -l .git/memrepo`` has to reason about. filelock's ``mode`` makes them 0600 when made (filelock
sets it on creation only), and one an older memrepo left 0644 is tightened when memrepo takes it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from helpers.repo_helpers import plain_settings

from memrepo.engine.checkpoints.buffers import Buffers
from memrepo.engine.files.lock import DreamLock, state_dir
from memrepo.engine.models import Candidate
from memrepo.engine.read.readcount import note_read
from memrepo.engine.repo.store import MemoryStore

LOCKS = ("write.lock", "dream.lock", "reads.lock", "checkpoints.lock")


def _take_every_lock(store: MemoryStore) -> None:
    store.remember(Candidate(text="Prefers pnpm for JavaScript projects", by="user"))  # write.lock
    git_dir = store.root / ".git"
    note_read(git_dir, "context")  # reads.lock
    dream = DreamLock(git_dir)
    dream.acquire()
    dream.release()
    Buffers(state_dir(git_dir)).forget_session("s1")  # checkpoints.lock


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_every_lock_file_is_made_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)  # the usual umask, which made them 0644
    try:
        store = MemoryStore.open(tmp_path / "memory", plain_settings())
        _take_every_lock(store)
    finally:
        os.umask(old)
    folder = store.root / ".git" / "memrepo"
    assert {name: oct(_mode(folder / name)) for name in LOCKS} == dict.fromkeys(LOCKS, oct(0o600))


def test_a_lock_file_an_older_memrepo_left_0644_is_tightened_when_taken(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    folder = state_dir(store.root / ".git")
    for name in LOCKS:
        (folder / name).touch()
        os.chmod(folder / name, 0o644)
    _take_every_lock(MemoryStore.open(store.root, plain_settings()))  # a new process's store: a new write lock
    assert {name: oct(_mode(folder / name)) for name in LOCKS} == dict.fromkeys(LOCKS, oct(0o600))
