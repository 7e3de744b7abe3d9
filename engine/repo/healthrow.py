"""One row of the health checks: its status, its reason and the key that fixes it (docs/architecture.md §9).

:mod:`.health` makes the rows of the files; :mod:`.healthstate` those of the
lock, sync and dreams. Both build them here, so the front ends read one model.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from pydantic import BaseModel

FIX_COMPACT = "c"
"""The Health pane's compact key."""


FIX_INBOX = "2"
"""The number key of the Inbox pane."""


FIX_DREAMS = "6"
"""The number key of the Dreams pane."""


FIX_REFRESH = "r"
"""The app's refresh key."""


FIX_SYNC = "s"
"""The app key that syncs now."""


FIX_DREAM_LEFTOVERS = "x"
"""The Health pane's key that cleans up what killed dreams left."""


NEAR_LIMIT = 0.9
"""A size at or above this share of its limit is a WARN."""


class HealthStatus(StrEnum):
    """How a check came out."""

    OK = "OK"
    WARN = "WARN"
    FAIL = "FAIL"


class HealthRow(BaseModel):
    """One health check (docs/architecture.md §9).

    Attributes:
        name: what was checked, a few words ("work tree", "MEMORY.md size").
        status: OK, WARN or FAIL.
        reason: one line saying what was found.
        fix_key: the app key that fixes it (``c`` compact and ``x`` clean up killed dreams in the Health pane,
            ``2`` the Inbox pane, ``6`` the Dreams pane, ``r`` refresh), or None.
    """

    name: str
    status: HealthStatus
    reason: str
    fix_key: str | None = None


def row(name: str, status: HealthStatus, reason: str, fix_key: str | None = None) -> HealthRow:
    return HealthRow(name=name, status=status, reason=" ".join(reason.split()), fix_key=fix_key)


def has_failure(rows: Iterable[HealthRow]) -> bool:
    """True when any row is FAIL (``memrepo health`` then exits 1)."""
    return any(r.status is HealthStatus.FAIL for r in rows)


def conflict_row(regions: list[str]) -> HealthRow:
    """The conflict-markers row: FAIL naming each region of git's conflict markers in a memory file (``me.md#L5-L11``).

    Neither side of such a region is an entry (docs/architecture.md §2), so both leave every block and recall;
    a repo a stash-pop conflict was committed into is found here (breaker8 B8-6).
    """
    if not regions:
        return row("conflict markers", HealthStatus.OK, "no file holds git's conflict markers")
    shown = ", ".join(regions[:3]) + (f" and {len(regions) - 3} more" if len(regions) > 3 else "")
    return row(
        "conflict markers",
        HealthStatus.FAIL,
        f"{len(regions)} region{'s' * (len(regions) != 1)} between git's conflict markers: {shown}; neither side is "
        "read by recall or the context block: keep the lines you want, delete the <<<<<<< ======= >>>>>>> lines",
    )


def size_text(n: int) -> str:
    """``n`` bytes as a person reads it (``512 B``, ``3.2 KB``, ``1.5 MB``)."""
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"


def against(name: str, value: int, limit: int, shown: str, full: str = "") -> HealthRow:
    """The row of a measure against its limit; ``full``: what is refused once ``value`` reaches it (FAIL)."""
    if value > limit:
        return row(name, HealthStatus.FAIL, f"{shown}: over the limit; writes to it are refused")
    if full and value >= limit:
        return row(name, HealthStatus.FAIL, f"{shown}: at the limit; {full}")
    if value >= limit * NEAR_LIMIT:
        return row(name, HealthStatus.WARN, f"{shown}: near the limit")
    return row(name, HealthStatus.OK, shown)
