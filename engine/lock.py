"""The cross-process write lock (DESIGN.md §3): one write at a time across processes.

A :class:`filelock.FileLock` on ``.git/memrepo/write.lock``. The lock file also
records who holds it (pid, purpose, time) so health can show the holder.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from .errors import BusyError

LOCK_TIMEOUT_S = 5.0
"""How long a writer waits for the lock before failing with "busy, retry" (seconds)."""
POLL_S = 0.005
"""How often a waiting writer retries the lock (seconds)."""


def state_dir(git_dir: Path) -> Path:
    """The engine's own state folder, ``.git/memrepo/`` (created when missing)."""
    path = Path(git_dir) / "memrepo"
    path.mkdir(parents=True, exist_ok=True)
    return path


class WriteLock:
    """The repo's write lock; re-entrant within one process and thread.

    Args:
        git_dir: the repository's ``.git`` folder.
        timeout: seconds to wait before :class:`BusyError`.
    """

    def __init__(self, git_dir: Path, timeout: float = LOCK_TIMEOUT_S) -> None:
        folder = state_dir(git_dir)
        self.path = folder / "write.lock"
        self.holder_path = folder / "write.holder"
        self.timeout = timeout
        self._lock = FileLock(str(self.path), timeout=timeout, thread_local=False)

    @contextmanager
    def hold(self, purpose: str) -> Iterator[None]:
        """Hold the lock for one write.

        Args:
            purpose: a few words recorded for health (``remember``, ``forget``).

        Raises:
            BusyError: another writer kept the lock for ``timeout`` seconds.
        """
        try:
            # A short poll so a waiting writer gets its turn between another
            # process's back-to-back writes (flock itself is polled, not queued).
            self._lock.acquire(poll_interval=POLL_S)
        except Timeout as exc:
            holder = self.holder()
            who = f" (held by pid {holder.get('pid')} for {holder.get('purpose')})" if holder else ""
            raise BusyError(
                f"memory repo is busy: another write held the lock for {self.timeout:g} s{who}; retry"
            ) from exc
        try:
            if self._lock.lock_counter == 1:
                self.holder_path.write_text(
                    json.dumps({"pid": os.getpid(), "purpose": purpose, "at": time.time()})
                )
            yield
        finally:
            if self._lock.lock_counter == 1:
                # Only a live holder is ever named in a busy error.
                self.holder_path.unlink(missing_ok=True)
            self._lock.release()

    @contextmanager
    def try_hold(self) -> Iterator[bool]:
        """Take the lock only if it is free right now; yields whether it was taken.

        For opportunistic upkeep (refreshing the index's stat data) that a
        reader may do but must never wait for.
        """
        try:
            self._lock.acquire(timeout=0)
        except Timeout:
            yield False
            return
        try:
            yield True
        finally:
            self._lock.release()

    def holder(self) -> dict[str, object] | None:
        """Who last took the lock, if the record exists: ``{pid, purpose, at}``."""
        try:
            return json.loads(self.holder_path.read_text())
        except (OSError, ValueError):
            return None
