"""Waiting on a MemoryRepo's watcher without sleeping: a readiness await and event helpers.

The watcher has no "ready" signal, so :func:`watching` rewrites inbox.md with its own
bytes (no content change, nothing to commit) until an event for it arrives: from then on
the watcher demonstrably reports. Timeouts here are hang guards, never claims about speed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest

from memrepo.engine.models import ChangeEvent
from memrepo.engine.repo.repo import MemoryRepo
from memrepo.engine.repo.store import MemoryStore

HANG_GUARD_S = 60.0
"""How long a wait may take before the test fails as hung (not a speed claim). Generous: on a loaded
two-core machine (CI, or eight helpers' suites at once) a fresh process spends 10-20 s on its imports alone."""


async def next_event(
    queue: asyncio.Queue[ChangeEvent], want: Callable[[ChangeEvent], bool], timeout: float = HANG_GUARD_S
) -> list[ChangeEvent]:
    """Events from ``queue`` up to and including the first one ``want`` accepts."""
    seen: list[ChangeEvent] = []
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"no matching change event within {timeout} s; saw {seen}")
        try:
            event = await asyncio.wait_for(queue.get(), remaining)
        except TimeoutError:
            continue
        seen.append(event)
        if want(event):
            return seen


async def drain(queue: asyncio.Queue[ChangeEvent], quiet: float = 0.6) -> None:
    """Swallow events until none came for ``quiet`` seconds."""
    while True:
        try:
            await asyncio.wait_for(queue.get(), quiet)
        except TimeoutError:
            return


@asynccontextmanager
async def watching(repo: MemoryRepo, timeout: float = HANG_GUARD_S) -> AsyncIterator[asyncio.Queue[ChangeEvent]]:
    """Subscribe to ``repo.changes()`` (starting the watcher) and return once the watcher really reports."""
    queue: asyncio.Queue[ChangeEvent] = asyncio.Queue()

    async def pump() -> None:
        async for event in repo.changes():
            queue.put_nowait(event)

    task = asyncio.create_task(pump())
    probe = repo.root / "inbox.md"
    data = probe.read_bytes()
    deadline = time.monotonic() + timeout
    try:
        while True:
            probe.write_bytes(data)
            try:
                await next_event(queue, lambda e: "inbox.md" in e.paths, 0.5)
                break
            except AssertionError:
                if time.monotonic() > deadline:
                    raise AssertionError(f"the watcher never reported a change in {timeout} s") from None
        await drain(queue)
        yield queue
    finally:
        task.cancel()


def trust_the_watcher_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reads trust a running watcher at once instead of after ``WATCH_SETTLE_S``.

    For tests that await :func:`watching` first: the watcher is then known to report,
    which is what the settle time guesses at.
    """
    monkeypatch.setattr(MemoryStore, "WATCH_SETTLE_S", 0.0)
