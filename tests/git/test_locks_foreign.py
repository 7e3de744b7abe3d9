"""A git lock file memrepo did not make is never removed before git's own staleness rule says so (round 17).

The MCP kept-write test (tests/mcp/test_mcp_polish.py) flaked with "added" for "kept:": its young
``index.lock``, touched every half second, changed between :func:`confirmed_unheld`'s two looks
through ``/proc`` (0.15 s each on a loaded machine) and was taken for a held lock; a dead pid in
``write.holder`` made the killed-writer shortcut remove it as memrepo's own. Both are in-process here.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from memrepo.engine.errors import BlockedError
from memrepo.engine.files import lock as locks
from memrepo.engine.files import lockholder
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

DEAD_PID = 2**22 + 17
"""Above Linux's largest pid_max: no process has it."""


def _touched_at_every_look(monkeypatch: pytest.MonkeyPatch, lock: Path) -> list[int]:
    """Make each look through /proc for ``lock``'s holder also touch it (a second later each time)."""
    real = lockholder.lock_holder
    looks: list[int] = []

    def touching(path: Path) -> tuple[int, str] | None:
        if Path(path) == lock and lock.exists():
            later = lock.stat().st_mtime_ns + 1_000_000_000
            os.utime(lock, ns=(later, later))
            looks.append(later)
        return real(path)

    monkeypatch.setattr(lockholder, "lock_holder", touching)
    return looks


def test_a_lock_touched_between_the_two_looks_is_still_unheld(store: MemoryStore, monkeypatch) -> None:
    lock = store.git.git_dir / "index.lock"
    lock.write_text("")
    looks = _touched_at_every_look(monkeypatch, lock)
    assert lockholder.confirmed_unheld(lock)  # before: False, the mtime differed between the looks
    assert len(looks) == 2


def test_a_young_index_lock_touched_while_a_write_looks_keeps_the_write(store: MemoryStore, monkeypatch) -> None:
    lock = store.git.git_dir / "index.lock"
    lock.write_text("")
    _touched_at_every_look(monkeypatch, lock)
    head = store.head()
    with pytest.raises(BlockedError, match=r"the git index is locked") as raised:
        store.remember(Candidate(text="Deploys go out on Tuesdays", by="user"))
    assert raised.value.kept  # before: the write was made beside the lock ("added")
    assert lock.exists() and store.head() == head


def test_a_dead_writers_record_does_not_make_a_young_index_lock_memrepos(store: MemoryStore) -> None:
    # A memrepo writer died holding the write lock; then some other git left index.lock (young, unheld).
    holder = store.git.git_dir / "memrepo" / "write.holder"
    holder.write_text(json.dumps({"pid": DEAD_PID, "purpose": "remember", "at": time.time() - 5}))
    lock = store.git.git_dir / "index.lock"
    lock.write_text("")
    assert locks.killed_writer_at(store.git.git_dir) is not None
    head = store.head()
    with pytest.raises(BlockedError, match=r"the git index is locked") as raised:
        store.remember(Candidate(text="Deploys go out on Tuesdays", by="user"))
    assert raised.value.kept
    assert lock.exists() and store.head() == head  # before: removed as the dead writer's, the write "added"
    old = time.time() - 2 * locks.STALE_LOCK_S  # once stale by git's rule it goes, record or not
    os.utime(lock, (old, old))
    store.remember(Candidate(text="The user prefers short answers", by="user"))
    assert not lock.exists()
    assert "Deploys go out on Tuesdays" in (store.root / "me.md").read_text(encoding="utf-8")


def test_a_dead_writers_ref_lock_still_goes_at_once(store: MemoryStore) -> None:
    # Unchanged: git holds a ref lock open until it renames it, so an unheld one after a killed writer is its own.
    holder = store.git.git_dir / "memrepo" / "write.holder"
    holder.write_text(json.dumps({"pid": DEAD_PID, "purpose": "remember", "at": time.time() - 5}))
    lock = store.git.git_dir / "refs" / "heads" / "main.lock"
    lock.write_text("")
    store.remember(Candidate(text="The user prefers short answers", by="user"))
    assert not lock.exists()
