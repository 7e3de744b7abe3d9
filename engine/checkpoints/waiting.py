"""Checkpoint batches waiting for a retry, as the front ends ask about them (breaker26 B26-6).

A light read for ``memrepo status`` and a session's start (no checkpoint policy imported): the line naming
the messages a failed write left pending (:meth:`~.buffers.Buffers.waiting_line`), whether any batch waits for
a retry (:meth:`~.buffers.Buffers.to_retry`), and which live git process holds a lock file of the repo now
(``git commit -a`` waiting in its editor holds ``index.lock``: a retry waits for it); and the turns a session
left idle without closing (:mod:`.leftover`, re-exported here for the front ends: breaker31 B31-15).
"""

from __future__ import annotations

from pathlib import Path

from memrepo.engine.files.lock import live_git_lock

from .buffers import Buffers
from .leftover import left_in as left_in
from .leftover import left_line as left_line


def waiting_line(state_dir: Path) -> str | None:
    """One line naming an agent's messages a failed write left pending, or None (``.git/memrepo`` is ``state_dir``)."""
    return Buffers(Path(state_dir)).waiting_line()


def waiting_kept(state_dir: Path) -> str | None:
    """Whose pending messages a block's kept write holds (:meth:`.buffers.Buffers.waiting_kept`), or None."""
    return Buffers(Path(state_dir)).waiting_kept()


def to_retry(state_dir: Path) -> bool:
    """Whether a batch waits for a retry: left pending by a git lock, or parked and never retried by itself."""
    return Buffers(Path(state_dir)).to_retry()


def git_busy(git_dir: Path) -> str | None:
    """One line naming the live git process that holds a lock file of ``git_dir``, or None when none does."""
    found = live_git_lock(Path(git_dir))
    if found is None:
        return None
    path, (pid, cmd) = found
    return f"git (pid {pid}: {cmd}) holds .git/{path.relative_to(git_dir).as_posix()}"
