"""The checkpoint flow, written once: submit → prepare → distil → merge or release (docs/architecture.md §7).

Every caller runs these flows (:mod:`memrepo.engine.flow`): the CLI and the
evals on their own thread (:func:`run_checkpoint`, :func:`finish_claim`), the
async :class:`~memrepo.engine.repo.repo.MemoryRepo` with its store steps on the
repo's thread and the model call on a spare one (``checkpoint``,
``checkpoint_idle``). A claimed batch always ends merged or released: a
failure anywhere gives it back (its messages stay pending, and are parked
after :data:`~memrepo.engine.checkpoints.checkpoint.MAX_FAILURES` failures), is logged, and
comes back as a ``failed`` result; nothing here raises.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from filelock import Timeout
from pydantic import ValidationError

from memrepo.engine.errors import MemrepoError
from memrepo.engine.flow import Flow, on_spare, on_store, run_steps
from memrepo.engine.models import Origin

from .checkpoint import Checkpointer
from .distill import DistillOutput, distil
from .meaningmatch import follow
from .types import CheckpointResult, Claim, Message

if TYPE_CHECKING:
    from memrepo.engine.config import Settings
    from memrepo.engine.repo.store import MemoryStore

__all__ = [
    "DRAIN_EVENTS",
    "MAX_DRAIN_ROUNDS",
    "checkpoint_flow",
    "claim_flow",
    "combine",
    "copy_counts",
    "finish_claim",
    "idle_flow",
    "merge_or_release",
    "run_checkpoint",
]

log = logging.getLogger("memrepo.checkpoint")

DRAIN_EVENTS = ("force", "session_close")
"""Events that distil every pending batch of the scope in one call, not just one."""
MAX_DRAIN_ROUNDS = 50
"""Most batches one draining call distils (a bound; what is left stays pending)."""


def _reason(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"[:300]


def _failed(claim: Claim, reason: str | None, pending: int = 0) -> CheckpointResult:
    return CheckpointResult(status="failed", scope=claim.scope, trigger=claim.trigger, pending=pending, reason=reason)


# -- the flows ----------------------------------------------------------------


def checkpoint_flow(
    store: MemoryStore,
    checkpointer: Checkpointer,
    settings: Settings,
    session_id: str,
    cwd: str | None,
    messages: list[Message | dict[str, Any]],
    event: str = "turn",
    untrusted: bool = False,
    origin: Origin = "agent_tool",
    submitted: Callable[[CheckpointResult], None] | None = None,
    transcript: bool = False,
) -> Flow[CheckpointResult]:
    """Buffer messages; when the stage is eligible, distil and write it (a forced close: every batch).

    Args:
        store: the open store (used in ``store`` steps only).
        checkpointer: the repo's checkpointer.
        settings: the ``[dream]`` provider the distiller asks.
        session_id, cwd, messages, event, untrusted, transcript: see :meth:`Checkpointer.submit`.
        origin: the ``Origin:`` trailer of the commits.
        submitted: called with the buffering result once a batch was claimed,
            before it is distilled (the async repo returns it early).

    Returns:
        CheckpointResult: what happened; ``failed`` with a reason on any error.
    """
    try:
        pair: tuple[CheckpointResult, Claim | None] = yield on_store(
            partial(checkpointer.submit, session_id, cwd, messages, event, untrusted, transcript)
        )
    except (ValueError, ValidationError) as exc:  # the caller's input: said back, not logged
        return CheckpointResult(status="failed", reason=" ".join(str(exc).split())[:300])
    except Timeout:
        log.warning("checkpoint of session %s: the buffer stayed locked 5 s", session_id)
        return CheckpointResult(status="failed", reason="the checkpoint buffer is busy (locked 5 s); retry")
    except Exception as exc:
        log.exception("checkpoint of session %s failed", session_id)
        return CheckpointResult(status="failed", reason=_reason(exc))
    result, claim = pair
    if claim is None:
        return result
    if submitted is not None:
        submitted(result)
    done = yield from claim_flow(store, checkpointer, settings, claim, origin)
    copy_counts(result, done)
    rounds = 1
    while event in DRAIN_EVENTS and done.status != "failed" and done.pending and rounds < MAX_DRAIN_ROUNDS:
        try:
            _more, more_claim = yield on_store(partial(checkpointer.submit, session_id, cwd, [], event, untrusted))
        except Exception as exc:  # the buffer got busy: what is left waits for the next call
            log.warning("checkpoint %s: stopped after %d batch(es): %s", result.scope, rounds, _reason(exc))
            done.notes.append(f"stopped after {rounds} batch(es): {type(exc).__name__}")
            break
        if more_claim is None:
            break
        combine(done, (yield from claim_flow(store, checkpointer, settings, more_claim, origin)))
        rounds += 1
    return done


def claim_flow(
    store: MemoryStore, checkpointer: Checkpointer, settings: Settings, claim: Claim, origin: Origin = "agent_tool"
) -> Flow[CheckpointResult]:
    """Prepare, distil and merge one claimed batch; any failure releases it (logged, never raised)."""
    output: DistillOutput | None = None
    follow(settings.semantic.provider)  # [semantic] provider = "off": no model reads the batch's corrections either
    try:
        yield on_store(partial(checkpointer.prepare, store, claim))
    except Exception as exc:
        reason: str | None = _reason(exc)
        log.warning("checkpoint %s: preparing the batch failed; released: %s", claim.scope, reason)
    else:
        try:
            output, reason = yield on_spare(partial(distil, claim, settings))
        except Exception as exc:  # distil never raises: the spare thread itself failed
            output, reason = None, _reason(exc)
            log.warning("checkpoint %s: distillation did not run; released: %s", claim.scope, reason)
        except BaseException:  # cancelled or interrupted: give the batch back untouched, then go on
            yield on_spare(partial(_release_quietly, checkpointer, claim, False, "cancelled"))
            raise
    try:
        done: CheckpointResult = yield on_store(
            partial(merge_or_release, store, checkpointer, claim, output, reason, origin)
        )
    except Exception as exc:  # the store's thread is gone (the repo closed): release from here
        reason = _reason(exc)
        log.warning("checkpoint %s: cannot merge; released: %s", claim.scope, reason)
        pending = yield on_spare(partial(_release_quietly, checkpointer, claim, True, reason))
        return _failed(claim, reason, pending)
    return done


def idle_flow(
    store: MemoryStore, checkpointer: Checkpointer, settings: Settings, origin: Origin = "agent_tool"
) -> Flow[list[CheckpointResult]]:
    """Distil every scope idle for :data:`~memrepo.engine.checkpoints.checkpoint.IDLE_S` seconds (a watcher tick).

    Returns:
        list[CheckpointResult]: one per stage claimed; never raises.
    """
    out: list[CheckpointResult] = []
    try:
        scopes: list[str] = yield on_store(checkpointer.due_scopes)
    except Exception as exc:
        log.warning("idle checkpoints: cannot list the buffers: %s", _reason(exc))
        return out
    for scope in scopes:
        try:
            claim: Claim | None = yield on_store(partial(checkpointer.claim_idle, scope))
        except Exception as exc:
            log.warning("checkpoint %s: cannot claim the idle stage: %s", scope, _reason(exc))
            continue
        if claim is not None:
            out.append((yield from claim_flow(store, checkpointer, settings, claim, origin)))
    return out


# -- on one thread --------------------------------------------------------------


def run_checkpoint(
    store: MemoryStore,
    checkpointer: Checkpointer,
    settings: Settings,
    session_id: str,
    cwd: str | None,
    messages: list[Message | dict[str, Any]],
    event: str = "turn",
    untrusted: bool = False,
    origin: Origin = "agent_tool",
    transcript: bool = False,
) -> CheckpointResult:
    """:func:`checkpoint_flow` start to end on this thread (the CLI, tests); never raises."""
    return run_steps(
        checkpoint_flow(
            store, checkpointer, settings, session_id, cwd, messages, event, untrusted, origin, transcript=transcript
        )
    )


def finish_claim(
    store: MemoryStore, checkpointer: Checkpointer, settings: Settings, claim: Claim, origin: Origin = "agent_tool"
) -> CheckpointResult:
    """:func:`claim_flow` on this thread: prepare, distil and merge a claimed batch; never raises."""
    return run_steps(claim_flow(store, checkpointer, settings, claim, origin))


# -- the pieces -----------------------------------------------------------------


def combine(done: CheckpointResult, more: CheckpointResult) -> None:
    """Add the result of a further batch ``more`` to ``done`` (a draining force or session close)."""
    done.written.extend(more.written)
    done.invalid += more.invalid
    done.pending = more.pending
    done.notes.extend(more.notes)
    if more.status == "failed":
        done.status, done.reason = "failed", more.reason
    elif done.status != "distilled":
        done.status = more.status


def copy_counts(submitted: CheckpointResult, done: CheckpointResult) -> None:
    """Carry the buffering counts and notes of ``submitted`` over to the distillation's result ``done``."""
    done.accepted, done.duplicates, done.dropped = submitted.accepted, submitted.duplicates, submitted.dropped
    done.truncated, done.notes = submitted.truncated, [*submitted.notes, *done.notes]


def _release_quietly(checkpointer: Checkpointer, claim: Claim, failed: bool, reason: str | None) -> int:
    """Give ``claim`` back; returns the messages pending, 0 when even that failed (logged)."""
    try:
        return checkpointer.release(claim, failed, reason)
    except Exception:
        log.exception("checkpoint %s: cannot release the batch (it is released once stale)", claim.scope)
        return 0


def merge_or_release(
    store: MemoryStore,
    checkpointer: Checkpointer,
    claim: Claim,
    output: DistillOutput | None,
    reason: str | None,
    origin: Origin = "agent_tool",
) -> CheckpointResult:
    """Merge a distilled batch, or release a failed one (its messages stay pending); never raises."""
    if output is None:
        return _failed(claim, reason, _release_quietly(checkpointer, claim, True, reason))
    try:
        return checkpointer.merge(store, claim, output, origin)
    except MemrepoError as exc:  # a known cause (another git process's lock): one line, no traceback (B29-14)
        log.warning("checkpoint %s: merge failed: %s", claim.scope, _reason(exc))
        reason = _reason(exc)
        return _failed(claim, reason, _release_quietly(checkpointer, claim, True, reason))
    except Exception as exc:
        log.exception("checkpoint %s: merge failed", claim.scope)
        reason = _reason(exc)
        return _failed(claim, reason, _release_quietly(checkpointer, claim, True, reason))
