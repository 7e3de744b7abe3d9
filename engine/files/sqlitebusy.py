"""Telling a derived SQLite file that is in use from one that is broken (docs/architecture.md §4).

memrepo's derived files (the recall index, the workspace map) are made again
when they are not a database or of another version. A file another process
holds past the timeout is neither: it is in use, and deleting it sends that
process's writes to an unlinked file ("attempt to write a readonly database").
"""

from __future__ import annotations

import sqlite3


def is_busy(exc: BaseException) -> bool:
    """Whether a SQLite error means another connection held the file past the timeout.

    Args:
        exc: any exception.

    Returns:
        bool: True for SQLITE_BUSY and SQLITE_LOCKED (extended codes included), False otherwise.
    """
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
