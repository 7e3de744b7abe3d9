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
    return _primary_code_in(exc, (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED))


def is_broken(exc: BaseException) -> bool:
    """Whether a SQLite error says the file itself is no database of ours: not a database, or damaged.

    Only then may a derived file be deleted and made again; any other error (an I/O error, a full disk) may
    pass, and another process may be writing the file: deleting it with its journal under that writer failed
    the writer "disk I/O error".

    Args:
        exc: any exception.

    Returns:
        bool: True for SQLITE_NOTADB and SQLITE_CORRUPT (extended codes included), False otherwise.
    """
    return _primary_code_in(exc, (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT))


def _primary_code_in(exc: BaseException, codes: tuple[int, ...]) -> bool:
    """Whether ``exc`` is a SQLite error whose primary result code (the low byte of an extended one) is in ``codes``."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in codes
