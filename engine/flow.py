"""One flow, two drivers: an orchestration written once, run on one thread or on an event loop.

An orchestration that calls the store and a slow model (a checkpoint's
submit → prepare → distil → merge, a dream's prepare → model → finish) is a
generator: it yields :class:`Step` objects and receives each step's value
back (or its exception, thrown in at the ``yield``). :func:`run_steps` runs
every step on the caller's thread (the CLI); :func:`drive` runs ``store``
steps on the repo's worker thread and ``spare`` steps (the model call) on a
spare thread, so the event loop never blocks (docs/architecture.md §1).

A flow driven by :func:`drive` that is cancelled has the
:class:`asyncio.CancelledError` thrown in at its ``yield``; the steps it yields
while handling it (a release, a "cancelled" record) still run, then the
cancellation goes on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Step:
    """One piece of work of a flow.

    Attributes:
        where: ``store`` (the thread that owns the store) or ``spare`` (any
            other thread: a model call, no store access).
        call: the work; its return value is sent back into the flow.
    """

    where: Literal["store", "spare"]
    call: Callable[[], Any]


Flow = Generator[Step, Any, R]
"""A flow returning ``R``: it yields steps and receives their values."""

Runner = Callable[[Callable[[], Any]], Awaitable[Any]]
"""Runs a step's call somewhere and awaits its value."""


def on_store(call: Callable[[], Any]) -> Step:
    """A step for the store's thread."""
    return Step("store", call)


def on_spare(call: Callable[[], Any]) -> Step:
    """A step for a spare thread (no store access)."""
    return Step("spare", call)


def run_steps(flow: Flow[R]) -> R:
    """Run every step of ``flow`` on this thread; return its value (its exceptions propagate)."""
    value: Any = None
    error: BaseException | None = None
    while True:
        try:
            step = flow.send(value) if error is None else flow.throw(error)
        except StopIteration as stop:
            return stop.value
        value, error = None, None
        try:
            value = step.call()
        except BaseException as exc:  # thrown into the flow, which decides
            error = exc


async def drive(flow: Flow[R], store: Runner, spare: Runner) -> R:
    """Run ``flow`` on an event loop: ``store`` steps with ``store``, ``spare`` steps with ``spare``.

    A cancellation is thrown into the flow; the steps it yields then run
    shielded, and the cancellation is raised again when the flow ends.
    """
    value: Any = None
    error: BaseException | None = None
    cancelled: asyncio.CancelledError | None = None
    while True:
        try:
            step = flow.send(value) if error is None else flow.throw(error)
        except StopIteration as stop:
            if cancelled is not None:
                raise cancelled from None
            return stop.value
        value, error = None, None
        runner = store if step.where == "store" else spare
        try:
            work = runner(step.call)
            value = await (asyncio.shield(work) if cancelled is not None else work)
        except asyncio.CancelledError as exc:
            cancelled = cancelled or exc
            error = exc
        except BaseException as exc:
            error = exc
