"""One flow, two drivers (engine/flow.py): the same steps on one thread or on the event loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest

from memrepo.engine.flow import Flow, drive, on_spare, on_store, run_steps


def sample(log: list[str], gate: threading.Event | None = None) -> Flow[str]:
    """Prepare on the store, call a 'model' on a spare thread (it may fail), then finish on the store."""
    prepared = yield on_store(lambda: log.append("prepare") or "batch")
    try:
        reply = yield on_spare(lambda: gate.wait(5) if gate else "reply")
    except ValueError as exc:
        reply = f"failed: {exc}"
    except BaseException:
        yield on_store(lambda: log.append("released"))
        raise
    yield on_store(lambda: log.append(f"finish {prepared} {reply}"))
    return "done"


def test_run_steps_runs_every_step_here_and_throws_failures_into_the_flow() -> None:
    log: list[str] = []
    assert run_steps(sample(log)) == "done"
    assert log == ["prepare", "finish batch reply"]

    def failing(log: list[str]) -> Flow[str]:
        try:
            yield on_spare(lambda: (_ for _ in ()).throw(ValueError("no answer")))
        except ValueError as exc:
            log.append(str(exc))
        return "handled"

    assert run_steps(failing(log)) == "handled" and log[-1] == "no answer"


async def test_drive_runs_store_steps_and_spare_steps_where_they_belong() -> None:
    where: list[str] = []

    def runner(name: str) -> Callable[[Callable[[], Any]], Any]:
        async def run(call: Callable[[], Any]) -> Any:
            where.append(name)
            return await asyncio.to_thread(call)

        return run

    log: list[str] = []
    assert await drive(sample(log), runner("store"), runner("spare")) == "done"
    assert where == ["store", "spare", "store"] and log == ["prepare", "finish batch reply"]


async def test_a_cancelled_drive_still_runs_the_flows_cleanup_then_cancels() -> None:
    log: list[str] = []
    gate = threading.Event()

    async def run(call: Callable[[], Any]) -> Any:
        return await asyncio.to_thread(call)

    task = asyncio.ensure_future(drive(sample(log, gate), run, run))
    while log != ["prepare"]:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)  # the spare step is waiting on the gate
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    gate.set()
    assert log == ["prepare", "released"]
