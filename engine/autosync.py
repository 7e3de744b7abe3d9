"""Automatic sync: after commits (debounced) and on a timer (issue 9 §2, ``[sync]`` settings).

Used by the terminal app and ``memrepo watch``. :class:`AutoSync` never syncs
a repo without a confirmed remote, and never raises out of its loop: every
outcome (a :class:`~engine.models.SyncResult` or the error) goes to the
``on_result`` callback, so offline is just a status.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from .config import SyncSettings
from .errors import MemrepoError
from .models import SyncResult
from .repo import MemoryRepo

OnResult = Callable[[SyncResult | None, MemrepoError | None], None]
"""Called after each automatic sync: the result, or the engine error that stopped it."""


class AutoSync:
    """Sync a :class:`MemoryRepo` after a burst of commits and every ``interval_s``.

    Args:
        repo: the open repo.
        settings: ``[sync]`` settings: ``interval_s`` (timer, seconds) and
            ``debounce_s`` (quiet after the last :meth:`poke`, seconds).
        on_result: receives each outcome.
    """

    def __init__(self, repo: MemoryRepo, settings: SyncSettings, on_result: OnResult) -> None:
        self.repo = repo
        self.settings = settings
        self.on_result = on_result
        self._poked = asyncio.Event()
        self._now = asyncio.Event()

    def poke(self) -> None:
        """Something was committed: sync once things are quiet for ``debounce_s``."""
        self._poked.set()

    def sync_now(self) -> None:
        """Sync at once, without waiting for quiet."""
        self._now.set()
        self._poked.set()

    async def run_once(self) -> SyncResult | None:
        """Sync now when a remote is set; report the outcome; never raises engine errors.

        Returns:
            SyncResult | None: the result, or None when there is no remote or the sync failed.
        """
        state = await self.repo.sync_state()
        if state.remote is None:
            return None
        try:
            result = await self.repo.sync(self.settings)
        except MemrepoError as exc:
            self.on_result(None, exc)
            return None
        self.on_result(result, None)
        return result

    async def run(self, first: bool = True) -> None:
        """Loop until cancelled: sync on the timer and after pokes.

        Args:
            first: sync once right away.
        """
        if first:
            await self.run_once()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), self.settings.interval_s)
            if self._poked.is_set() and not self._now.is_set():
                # Debounce: wait until no poke came for debounce_s.
                while True:
                    self._poked.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._now.wait(), self.settings.debounce_s)
                    if self._now.is_set() or not self._poked.is_set():
                        break
            self._poked.clear()
            self._now.clear()
            await self.run_once()
