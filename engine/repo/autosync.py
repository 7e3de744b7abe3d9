"""Automatic sync, the one driver: after commits (debounced), on a timer, and when asked (``[sync]`` settings).

Used by the terminal app and by ``memrepo watch`` alike (docs/architecture.md §8).
:class:`AutoSync` decides when to sync and runs each sync the same way: read
where sync stands (no network), sync when a confirmed remote is set, read it
again, and hand a :class:`SyncOutcome` to ``on_outcome``. It never raises out
of its loop: an engine error is part of the outcome (offline is just a
status), anything else is logged; the loop ends when the repo closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memrepo.engine.errors import BusyError, MemrepoError

if TYPE_CHECKING:
    from memrepo.engine.config import SyncSettings
    from memrepo.engine.models import SyncResult, SyncState

    from .repo import MemoryRepo

__all__ = ["AutoSync", "OnOutcome", "OnStart", "SyncOutcome"]

log = logging.getLogger("memrepo.sync")

BUSY_RETRY_S = 30.0
"""Seconds before a sync refused busy (another writer held the lock 5 s) is tried again."""


@dataclass(frozen=True, slots=True)
class SyncOutcome:
    """What one sync of the driver did.

    Attributes:
        manual: a person asked for it (the app's ``s``); else the timer or a commit.
        state: where sync stood before; ``state.remote`` None means no remote
            is set and nothing was done.
        result: the sync's result, or None (no remote, or it failed).
        error: the engine error that stopped it (offline, refused), or None.
        after: where sync stands afterwards (None when no sync ran).
    """

    manual: bool
    state: SyncState
    result: SyncResult | None = None
    error: MemrepoError | None = None
    after: SyncState | None = None


OnOutcome = Callable[[SyncOutcome], None]
"""Called after each sync the driver runs (or finds no remote for)."""
OnStart = Callable[["SyncState"], None]
"""Called when a sync with the remote starts (the app shows "syncing")."""


class AutoSync:
    """Sync a :class:`~memrepo.engine.repo.repo.MemoryRepo` after a burst of commits, every ``interval_s``, and on request.

    Args:
        repo: the open repo; its ``[sync]`` settings are used (``interval_s``:
            the timer, ``debounce_s``: quiet after the last :meth:`poke`).
        on_outcome: receives each outcome (on the event loop's thread).
        on_start: told when a sync with the remote begins; optional.
    """

    def __init__(self, repo: MemoryRepo, on_outcome: OnOutcome, on_start: OnStart | None = None) -> None:
        self.repo = repo
        self.settings: SyncSettings = repo.settings.sync
        self.on_outcome = on_outcome
        self.on_start = on_start
        self.has_remote = False
        """Whether the last look found a remote (the app pokes only then)."""
        self._poked = asyncio.Event()
        self._now = asyncio.Event()
        self._lock = asyncio.Lock()
        self._busy = False
        """The last sync was refused busy: the next one is tried after :data:`BUSY_RETRY_S`."""

    @property
    def syncing(self) -> bool:
        """A sync is running now."""
        return self._lock.locked()

    def poke(self) -> None:
        """Something was committed: sync once things are quiet for ``debounce_s``."""
        self._poked.set()

    def sync_now(self) -> None:
        """Ask the loop to sync at once, without waiting for quiet."""
        self._now.set()
        self._poked.set()

    async def run_once(self, manual: bool = False) -> SyncOutcome | None:
        """Sync now when a remote is set, and report the outcome; engine errors become part of it.

        Args:
            manual: a person asked (passed on in the outcome).

        Returns:
            SyncOutcome | None: the outcome, or None when a sync was running already.

        Raises:
            RuntimeError: the repo is closed.
        """
        if self._lock.locked():
            return None
        async with self._lock:
            state = await self.repo.sync_state()
            self.has_remote = state.remote is not None
            self._busy = False
            if state.remote is None:
                outcome = SyncOutcome(manual, state)
            else:
                if self.on_start is not None:
                    self.on_start(state)
                result: SyncResult | None = None
                error: MemrepoError | None = None
                try:
                    result = await self.repo.sync(self.settings)
                except MemrepoError as exc:
                    error = exc
                    log.info("sync failed: %s", exc)
                self._busy = isinstance(error, BusyError)
                outcome = SyncOutcome(manual, state, result, error, await self.repo.sync_state())
        self.on_outcome(outcome)
        return outcome

    async def run(self, first: bool = True) -> None:
        """Loop until cancelled or the repo closes: sync on the timer, after pokes and on :meth:`sync_now`.

        Args:
            first: sync once right away.
        """
        if first and not await self._tick(manual=False):
            return
        while True:
            # After a sync refused busy (writers kept the lock 5 s), the next try comes soon, not a whole
            # interval later: under steady writes the soak's `memrepo watch` went 10 minutes without a push.
            limit = min(BUSY_RETRY_S, self.settings.interval_s) if self._busy else self.settings.interval_s
            await _wait(self._poked, limit)
            if self._poked.is_set() and not self._now.is_set():
                # Debounce: wait until no poke came for debounce_s, but no longer than interval_s from the
                # first poke: under steady writes (a commit every few seconds) the quiet never came, and
                # neither did any sync, the timer's included (found by bench_soak.py: `memrepo watch` pushed once in its first second, then not again).
                loop = asyncio.get_running_loop()
                deadline = loop.time() + limit
                while True:
                    self._poked.clear()
                    await _wait(self._now, min(self.settings.debounce_s, max(0.0, deadline - loop.time())))
                    if self._now.is_set() or not self._poked.is_set() or loop.time() >= deadline:
                        break
            manual = self._now.is_set()
            self._poked.clear()
            self._now.clear()
            if not await self._tick(manual):
                return

    async def _tick(self, manual: bool) -> bool:
        """One sync of the loop; False when the repo is closed (the loop ends)."""
        try:
            await self.run_once(manual)
        except RuntimeError as exc:
            log.debug("automatic sync stops: %s", exc)
            return False
        except Exception:  # a bug: logged, and the next tick tries again
            log.exception("automatic sync failed")
        return True


async def _wait(event: asyncio.Event, seconds: float) -> None:
    """Wait for ``event`` at most ``seconds``; a cancellation always goes through.

    Not :func:`asyncio.wait_for`: on Python 3.11 it drops a cancellation that
    lands as the event is set (gh-86296), and ``memrepo watch`` then never
    stopped on Ctrl-C (its sync loop, cancelled during a poke, ran on).
    :func:`asyncio.timeout` tells its own cancellation from the caller's.
    """
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await event.wait()
