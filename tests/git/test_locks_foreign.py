"""A young git lock file nobody holds blocks a write even when it is touched while memrepo looks (round 17).

The MCP kept-write test (tests/mcp/test_mcp_polish.py) flaked with "added" for "kept:": its young
``index.lock``, touched every half second, changed between :func:`confirmed_unheld`'s two looks
through ``/proc`` (0.15 s each on a loaded machine) and was taken for a held lock. In-process here.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memrepo.engine.errors import BlockedError
from memrepo.engine.files import lockholder
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


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
