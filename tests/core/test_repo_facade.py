"""The async façade cannot drift from the sync functions it wraps (docs/architecture.md §1).

Most ``MemoryRepo`` methods are made from the function they wrap
(``memrepo.engine.repo.base.store_method``); the hand-written rest are listed in
:data:`HAND_WRITTEN` with what they wrap and the parameters they handle
themselves. Every public coroutine method of the repo must be one or the other.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, get_type_hints

import pytest

from memrepo.engine.checkpoints.checkpoint import Checkpointer
from memrepo.engine.checkpoints.flow import checkpoint_flow, idle_flow
from memrepo.engine.checkpoints.types import CheckpointResult, Claim, Message
from memrepo.engine.config import Settings, SyncSettings
from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.dreams.record import DreamRecord
from memrepo.engine.models import SyncResult, SyncState
from memrepo.engine.repo import health
from memrepo.engine.repo.health import HealthRow
from memrepo.engine.repo.repo import MemoryRepo
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import conflicts, sync

NAMES: dict[str, Any] = {
    t.__name__: t
    for t in (
        Checkpointer,
        CheckpointResult,
        Claim,
        DreamRecord,
        HealthRow,
        MemoryRepo,
        MemoryStore,
        Message,
        Settings,
        SyncResult,
        SyncSettings,
        SyncState,
    )
}
"""Names the engine imports for type checking only, to resolve its annotations here."""


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    return get_type_hints(fn, localns=NAMES)


HAND_WRITTEN: dict[str, tuple[Callable[..., Any], set[str], set[str]]] = {
    # name: (what it wraps, its parameters the wrapper fills in itself, parameters only the wrapper has)
    "remember": (MemoryStore.remember, {"self", "hint", "on_committed", "routed"}, set()),
    "context": (MemoryStore.context, {"self"}, set()),
    "recall": (MemoryStore.recall, {"self"}, set()),
    "compact": (MemoryStore.compact, {"self"}, set()),
    "purge_workspace": (MemoryStore.purge_workspace, {"self"}, set()),
    "health": (health.check, {"store", "settings", "now", "polling"}, set()),
    "sync": (sync.sync, {"store", "before_push"}, set()),
    "sync_state": (sync.sync_state, {"root"}, set()),
    "conflicts": (conflicts.conflicts_in, {"root"}, set()),
    "dream": (Dreamer.run, {"self"}, set()),
    "checkpoint": (checkpoint_flow, {"store", "checkpointer", "settings", "submitted"}, {"wait"}),
    "checkpoint_idle": (idle_flow, {"store", "checkpointer", "settings"}, set()),
    "forget_session": (MemoryStore.purge_task, {"self", "task", "compact", "replace_remote"}, {"session_id"}),
}
"""Methods written by hand, each compared with the function it wraps."""

NOT_WRAPPERS = {"open", "close", "warm_recall", "__aenter__", "__aexit__"}
"""Coroutine methods that wrap nothing: the repo's own lifetime and the index warm-up."""


def _public_coroutines() -> dict[str, Callable[..., Any]]:
    return {
        name: fn
        for name, fn in inspect.getmembers(MemoryRepo)
        if inspect.iscoroutinefunction(fn) and name not in NOT_WRAPPERS and not name.startswith("_")
    }


def _params(fn: Callable[..., Any], drop: set[str]) -> list[tuple[str, Any, Any, Any]]:
    """(name, kind, default, annotation) of each parameter but ``drop``; annotations resolved to objects."""
    target = inspect.unwrap(fn)
    hints = _hints(target)
    out = []
    for p in inspect.signature(target).parameters.values():
        if p.name in drop:
            continue
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD if p.kind is inspect.Parameter.POSITIONAL_ONLY else p.kind
        out.append((p.name, kind, p.default, hints.get(p.name)))
    return out


def test_every_coroutine_method_is_generated_or_compared() -> None:
    unknown = [
        name
        for name, fn in _public_coroutines().items()
        if name not in HAND_WRITTEN and getattr(fn, "__wrapped__", None) is None
    ]
    assert unknown == [], "write these with store_method/dreamer_method, or list them in HAND_WRITTEN"


@pytest.mark.parametrize("name", sorted(_public_coroutines()))
def test_wrapper_signature_equals_the_wrapped_function(name: str) -> None:
    method = _public_coroutines()[name]
    if name in HAND_WRITTEN:
        wrapped, filled, own = HAND_WRITTEN[name]
        mine = [p for p in _params(method, {"self"}) if p[0] not in own]
        assert mine == _params(wrapped, filled)
    else:  # generated: the very signature of the function it runs, minus the store (or dreamer) argument
        wrapped = method.__wrapped__  # type: ignore[attr-defined]
        assert inspect.signature(method) == inspect.signature(wrapped)
        assert _params(method, {"self", "store"}) == _params(wrapped, {"self", "store"})


def test_generated_wrappers_bind_like_the_store_methods() -> None:
    """``repo.forget`` takes what ``store.forget`` takes, ``replace_remote`` included (it once did not)."""
    for name in ("forget", "clear_workspace", "clear_global", "purge_task"):
        assert "replace_remote" in inspect.signature(getattr(MemoryRepo, name)).parameters


def test_dream_and_checkpoint_results_are_typed() -> None:
    hints = {name: _hints(inspect.unwrap(fn)).get("return") for name, fn in _public_coroutines().items()}
    assert hints["dream"] is DreamRecord
    assert hints["dream_show"] is DreamRecord and hints["accept_dream"] is DreamRecord
    assert hints["reject_dream"] is DreamRecord and hints["undo_dream"] is DreamRecord
    assert hints["dreams"] == list[DreamRecord]
    assert hints["checkpoint"] is CheckpointResult
    assert hints["checkpoint_idle"] == list[CheckpointResult]
    assert Any not in hints.values()


def test_conflict_wrappers_are_the_engine_functions() -> None:
    assert inspect.unwrap(MemoryRepo.resolve_conflict) is conflicts.resolve_conflict


async def test_listing_conflicts_waits_for_nothing_on_the_worker_thread(repo_path) -> None:  # type: ignore[no-untyped-def]
    """Found timing hand edits at 20,000 files: the Inbox pane's first read of every file for merge conflicts
    ran on the store's one thread for seconds, and the Folder pane's read of a hand-edited file waited."""
    import asyncio
    import threading

    from helpers.repo_helpers import plain_settings

    repo = await MemoryRepo.open(repo_path, plain_settings())
    try:
        (repo_path / "notes.md").write_text(
            "# Notes\n\n- Tea at four [by: user; conflict: c1]\n- Tea at five [by: user; conflict: c1]\n"
        )
        release = threading.Event()
        held = asyncio.ensure_future(repo._run(release.wait))  # the worker thread busy with a long read
        found = await asyncio.wait_for(repo.conflicts(), timeout=60)
        release.set()
        await held
        assert [(c.path, [v.text for v in c.versions]) for c in found] == [("notes.md", ["Tea at four", "Tea at five"])]
    finally:
        release.set()
        await repo.close()
