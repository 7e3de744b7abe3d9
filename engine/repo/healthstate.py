"""Health rows about what surrounds the files: the lock, sync, dreams and their leftovers (docs/architecture.md §9).

:func:`memrepo.engine.repo.health.check` adds them after the rows of the files.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.engine.dreams import files as dreamfiles
from memrepo.engine.errors import MemrepoError

from .healthrow import FIX_DREAM_LEFTOVERS, FIX_DREAMS, FIX_SYNC, NEAR_LIMIT, HealthRow, HealthStatus, row

if TYPE_CHECKING:
    from memrepo.engine.config import Settings

    from .store import MemoryStore


def leftovers_row(store: MemoryStore) -> HealthRow:
    """The killed-dreams row: worktrees, half-made branches and ``running`` records a killed dream left.

    Read-only (``Dreamer.leftovers``); while a dream runs nothing counts as
    left over. Fix key ``x`` cleans them up (docs/architecture.md §6).
    """
    from memrepo.engine.dreams.dreamer import Dreamer  # the dreamer imports the store: not at import time

    try:
        found = Dreamer(store).leftovers()
    except (MemrepoError, OSError) as exc:
        return row("killed dreams", HealthStatus.WARN, f"cannot look for a killed dream's leftovers: {exc}")
    if not found:
        return row("killed dreams", HealthStatus.OK, "nothing left by a killed dream")
    return row("killed dreams", HealthStatus.WARN, "; ".join(found) + ": x cleans up", FIX_DREAM_LEFTOVERS)


def parked_row(state_dir: Path) -> HealthRow:
    """The parked-checkpoints row: an agent's messages whose distillation failed three times wait here, never
    dropped (:meth:`memrepo.engine.checkpoints.buffers.Buffers.parked`); WARN while any wait."""
    from memrepo.engine.checkpoints.buffers import Buffers

    buffers = Buffers(state_dir)
    line = "; ".join(x for x in (buffers.parked_line(), buffers.waiting_line()) if x) or None
    if line is None:
        return row("parked checkpoints", HealthStatus.OK, "none: every session's messages were distilled or wait")
    return row("parked checkpoints", HealthStatus.WARN, line)


def sync_row(root: Path, now: datetime) -> HealthRow:
    """The sync row: no remote, N commits not pushed, the last sync, or why it failed.

    Reads ``.git/memrepo/sync.json`` and the refs only; never the network.

    Args:
        root: the memory repo's work tree.
        now: the time to say "ago" from (UTC).

    Returns:
        HealthRow: OK when no remote is set or all is pushed; WARN for commits
        not pushed or a failed last sync (fix key ``s``: sync now).
    """
    from memrepo.engine.errors import GitError
    from memrepo.engine.sync.sync import sync_state

    try:
        state = sync_state(root)
    except GitError as exc:
        return row("sync", HealthStatus.WARN, f"cannot read the remote's state: {exc}")
    if state.remote is None:
        return row("sync", HealthStatus.OK, "no remote: memory stays on this machine (memrepo remote set URL)")
    if state.problem:
        return row("sync", HealthStatus.FAIL, state.problem, FIX_SYNC)
    if state.last_sync is None:
        last = "never synced"
    else:
        minutes = max(int((now - state.last_sync).total_seconds() // 60), 0)
        last = (
            f"last sync {minutes // 1440} d ago"
            if minutes >= 1440
            else (f"last sync {minutes // 60} h ago" if minutes >= 60 else f"last sync {minutes} min ago")
        )
    if state.last_error:
        return row("sync", HealthStatus.WARN, f"last sync failed: {state.last_error}; {last}", FIX_SYNC)
    if state.ahead:
        return row(
            "sync", HealthStatus.WARN, f"{state.ahead} commit{'s' * (state.ahead != 1)} not pushed; {last}", FIX_SYNC
        )
    return row("sync", HealthStatus.OK, f"up to date with {state.remote}; {last}")


def lock_row(store: MemoryStore) -> HealthRow:
    with store.lock.try_hold() as free:
        pass
    if free:
        return row("lock", HealthStatus.OK, "free")
    holder = store.lock.holder() or {}
    pid, purpose, at = holder.get("pid"), holder.get("purpose"), holder.get("at")
    held = f" for {max(0.0, datetime.now(UTC).timestamp() - at):.0f} s" if isinstance(at, (int, float)) else ""
    who = f"pid {pid} ({purpose})" if pid else "another process"
    return row("lock", HealthStatus.OK, f"held by {who}{held}")


def dream_rows(state_dir: Path, settings: Settings, now: datetime) -> list[HealthRow]:
    """The dreaming rows: last run, failed runs in 7 days, pending reviews, budget used today.

    Args:
        state_dir: ``.git/memrepo``.
        settings: for ``[dream] enabled`` and ``daily_token_budget``.
        now: the current time, timezone-aware.
    """
    records = dreamfiles.load_records(state_dir)
    timed = sorted(
        ((dreamfiles.parse_time(r.get("started")), r) for r in records),
        key=lambda pair: pair[0] or datetime.min.replace(tzinfo=UTC),
    )
    rows: list[HealthRow] = []
    off = "" if settings.dream.enabled else " (dreaming is off in the settings)"
    if not timed:
        rows.append(row("last dream", HealthStatus.OK, "never dreamed" + off))
    else:
        when, last = timed[-1]
        shown = when.strftime("%Y-%m-%d %H:%M UTC") if when else "at an unknown time"
        status = str(last.get("status") or "unknown")
        if status == "failed":
            why = f": {last.get('reason')}" if last.get("reason") else ""
            rows.append(row("last dream", HealthStatus.WARN, f"failed {shown}{why}", FIX_DREAMS))
        else:
            rows.append(row("last dream", HealthStatus.OK, f"{shown}, {status.replace('_', ' ')}{off}"))
    week = now - timedelta(days=7)
    failed = [r for when, r in timed if r.get("status") == "failed" and when is not None and when >= week]
    rows.append(
        row("failed dreams", HealthStatus.WARN, f"{len(failed)} failed in the last 7 days", FIX_DREAMS)
        if failed
        else row("failed dreams", HealthStatus.OK, "none in the last 7 days")
    )
    waiting = [r for r in records if r.get("status") in ("pending_review", "applied")]
    rows.append(
        row(
            "dream reviews",
            HealthStatus.WARN,
            f"{len(waiting)} dream{'s' * (len(waiting) != 1)} waiting for review",
            FIX_DREAMS,
        )
        if waiting
        else row("dream reviews", HealthStatus.OK, "none waiting")
    )
    day = now - timedelta(hours=24)
    used = sum(dreamfiles.tokens_of(r) for when, r in timed if when is not None and when >= day)
    budget = settings.dream.daily_token_budget
    shown = f"{used:,} of {budget:,} tokens in the last 24 h"
    if budget == 0:
        rows.append(row("dream budget", HealthStatus.OK, "no daily budget: model dreams are off"))
    elif used >= budget:
        rows.append(row("dream budget", HealthStatus.WARN, f"{shown}: spent; dreaming waits"))
    elif used >= budget * NEAR_LIMIT:
        rows.append(row("dream budget", HealthStatus.WARN, f"{shown}: nearly spent"))
    else:
        rows.append(row("dream budget", HealthStatus.OK, shown))
    return rows
