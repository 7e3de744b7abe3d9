"""The sync loop stops when cancelled, even as a poke lands (``memrepo watch`` and Ctrl-C).

Python 3.11's ``asyncio.wait_for`` drops a cancellation that arrives as the
awaited event completes (gh-86296); ``memrepo watch`` then ran on after Ctrl-C,
and ``test_watch_syncs_after_a_commit_and_stops_cleanly_on_ctrl_c`` failed once.
"""

from __future__ import annotations

import asyncio

import pytest

from memrepo.engine.repo.autosync import _wait


async def _cancel_as_the_event_is_set(waiter) -> str:  # type: ignore[no-untyped-def]
    event = asyncio.Event()
    task = asyncio.create_task(waiter(event))
    await asyncio.sleep(0)  # the task waits for the event
    event.set()  # the waiter is woken, and before it runs again ...
    assert not task.done()
    task.cancel()  # ... Ctrl-C cancels it
    try:
        await task
    except asyncio.CancelledError:
        return "cancelled"
    return "cancellation lost"


async def test_the_loops_wait_lets_a_cancellation_through_as_the_event_is_set() -> None:
    assert await _cancel_as_the_event_is_set(lambda event: _wait(event, 10)) == "cancelled"


async def test_the_loops_wait_ends_at_its_timeout_or_at_the_event() -> None:
    event = asyncio.Event()
    await _wait(event, 0.01)  # no error at the timeout
    assert not event.is_set()
    event.set()
    await _wait(event, 10)  # at once


@pytest.mark.skipif(__import__("sys").version_info >= (3, 12), reason="asyncio.wait_for was rewritten in 3.12")
async def test_wait_for_itself_loses_that_cancellation_on_3_11() -> None:
    """Why _wait exists: the same moment with asyncio.wait_for (fails once Python fixes it)."""
    assert await _cancel_as_the_event_is_set(lambda e: asyncio.wait_for(e.wait(), 10)) == "cancellation lost"
