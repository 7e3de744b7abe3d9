"""The health rows of the history: what compaction would take away, and ``.git``'s size (docs/architecture.md §9).

:func:`history_rows` gives the "history" row (commits and removals since the last
compaction, or an interrupted compaction) and the ".git size" row, for :func:`.health.check`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .healthrow import FIX_COMPACT, HealthRow, HealthStatus, row
from .healthrow import size_text as _size

if TYPE_CHECKING:
    from datetime import datetime

    from .store import MemoryStore

GIT_SIZE_WARN = 200 * 1024 * 1024
"""A ``.git`` folder bigger than this (bytes) is a WARN: compaction shrinks it."""
COMMITS_WARN = 10_000
"""More commits than this since the last compaction is a WARN (history slows the log and grows .git)."""
REMOVALS_WARN = 10
"""More removals than this still in the history is a WARN; fewer, newer ones are an OK row that says so."""
REMOVAL_AGE_WARN_S = 30 * 86_400
"""A removal still in the history after this long (30 days, seconds) is a WARN: a new user's first test
lines are not worth a history rewrite, a month-old forgotten entry is (forget itself says "compact")."""


def history_rows(store: MemoryStore, now: datetime) -> list[HealthRow]:
    """The "history" and ".git size" rows of ``store``, judged at ``now`` (the age of the oldest removal).

    Returns:
        list[HealthRow]: the two rows, in the order shown.
    """
    from memrepo.engine.git.measure import git_dir_size, history_since_compaction
    from memrepo.engine.history import compact as compaction

    rows: list[HealthRow] = []
    stopped = compaction.interrupted(store.state_dir)
    commits, removals, compacted, oldest = history_since_compaction(store.root)
    since = "since the last compaction" if compacted else "in the history (never compacted)"
    if stopped is not None:
        rows.append(
            row(
                "history",
                HealthStatus.FAIL,
                f"a compaction was interrupted (pid {stopped.get('pid')}): compact again to finish it",
                FIX_COMPACT,
            )
        )
    elif removals:
        # A new user's first deleted test lines are no reason to rewrite history: a WARN only past a count or an age.
        age = None if oldest is None else int(now.timestamp() - oldest)
        warn = removals > REMOVALS_WARN or (age is not None and age > REMOVAL_AGE_WARN_S)
        if age is not None and age > REMOVAL_AGE_WARN_S:
            when = f" (the oldest {age // 86_400} days ago)"
        else:
            when = "" if warn else f" (a WARN past {REMOVALS_WARN} removals or after 30 days)"
        reason = f"{commits:,} commits {since}; {removals} removed text that is still in the history"
        rows.append(
            row(
                "history",
                HealthStatus.WARN if warn else HealthStatus.OK,
                f"{reason}: compact to forget it for real{when}",
                FIX_COMPACT,
            )
        )
    elif commits > COMMITS_WARN:
        rows.append(row("history", HealthStatus.WARN, f"{commits:,} commits {since}", FIX_COMPACT))
    else:
        rows.append(row("history", HealthStatus.OK, f"{commits:,} commit{'s' * (commits != 1)} {since}"))
    size = git_dir_size(store.git.git_dir)
    rows.append(
        row(
            ".git size",
            HealthStatus.WARN if size > GIT_SIZE_WARN else HealthStatus.OK,
            f"{_size(size)}" + ("; compaction shrinks it" if size > GIT_SIZE_WARN else ""),
            FIX_COMPACT if size > GIT_SIZE_WARN else None,
        )
    )
    return rows
