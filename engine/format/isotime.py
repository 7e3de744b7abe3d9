"""ISO-8601 times as memrepo's records write and read them (UTC, seconds)."""

from __future__ import annotations

from datetime import UTC, datetime


def now_iso() -> str:
    """The current UTC time as ISO-8601 (seconds)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def parse_time(value: str | None) -> datetime | None:
    """Read an ISO-8601 time (naive times count as UTC); None when missing or unreadable."""
    if not value:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)
