"""The dream gate (docs/architecture.md §6): may a dream run now?

In order: dreaming enabled, the folder writable, the dream lock free, then
for a due run (``--if-due``, a timer) the interval since the last dream and
something new since it; finally the daily token budget (rolling 24 hours,
counted from the run records) must hold the run's estimate. A manual dream
skips the interval and something-new checks, never the budget or the lock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memrepo.engine.errors import MemrepoError

from .record import DreamRecords, parse_time


class DreamSkipped(MemrepoError):
    """The gate said no; nothing ran and nothing was recorded.

    Attributes:
        reason: one line saying why.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(f"no dream: {reason}")
        self.reason = reason


def budget_left(records: DreamRecords, budget: int, now: datetime | None = None) -> int:
    """Tokens left in the rolling 24-hour budget (never below 0)."""
    return max(budget - records.tokens_since(24.0, now), 0)


def check_due(
    records: DreamRecords, interval_hours: float, head: str | None, new_tasks: int, now: datetime | None = None
) -> None:
    """For a due run: the last dream is old enough and something is new.

    Args:
        records: the run records and state.
        interval_hours: hours since the last run (``[dream] interval_hours``).
        head: HEAD now.
        new_tasks: tasks waiting to be read.
        now: the time.

    Raises:
        DreamSkipped: not due yet, or nothing new since the last dream.
    """
    now = now or datetime.now(UTC)
    state = records.read_state()
    last = parse_time(state.get("last_run"))
    if last is not None and now - last < timedelta(hours=interval_hours):
        hours = (now - last).total_seconds() / 3600
        raise DreamSkipped(f"the last dream was {hours:.1f} h ago (interval {interval_hours:g} h)")
    if last is not None and new_tasks == 0 and state.get("head") == head:
        raise DreamSkipped("nothing new since the last dream (no new tasks, no commits)")
