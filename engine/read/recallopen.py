"""Open the recall index's file: its schema, its version, the allow-list it was redacted under (docs/architecture.md §4)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from memrepo.engine.files.sqlitebusy import is_broken

from .recallkeys import SCHEMA_VERSION, check_schema, connect


def open_index_file(path: str) -> tuple[sqlite3.Connection, str]:
    """A connection to the index file at ``path``, usable now.

    A file of another version, or not a database, is deleted and made again;
    when it cannot be made, the index lives in memory (``:memory:``). A file
    another process held past the timeout is in use, not broken: it is tried
    again and never deleted (deleting it under its holder made every later
    write there fail "attempt to write a readonly database"); still busy, this
    process keeps its index in memory. So is a file that gave any other passing
    error (an I/O error, a full disk): only a file SQLite calls not a database or
    damaged is deleted (:func:`memrepo.engine.files.sqlitebusy.is_broken`).

    Args:
        path: the index file, or ``:memory:``.

    Returns:
        tuple: (the connection, the path it uses: ``path`` or ``:memory:``).
    """
    if path != ":memory:":
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            path = ":memory:"
    for attempt in range(2 if path != ":memory:" else 0):
        db = None
        broken = False
        try:
            db = connect(path)
            if check_schema(db, SCHEMA_VERSION) is None:
                match_allow_list(db, Path(path).parent)
                return db, path
            broken = True  # another version, not a database, or damaged
        except sqlite3.Error as exc:
            broken = is_broken(exc)  # else busy or passing: tried again, never deleted
        if db is not None:
            db.close()
        if attempt == 0 and broken:  # start again
            for suffix in ("", "-journal"):
                with contextlib.suppress(OSError):
                    os.unlink(path + suffix)
    db = connect(":memory:")
    check_schema(db, SCHEMA_VERSION)
    return db, ":memory:"


def match_allow_list(db: sqlite3.Connection, state: Path) -> None:
    """Make the index agree with today's allow-list (its text is redacted under it); record the list's stamp.

    Allowing or un-allowing a value empties the index in place, so it is made
    again under what redaction makes now. In place, not by deleting the file:
    another process (the app, the MCP server) may hold the file open, and
    SQLite refuses writes to a file deleted under it.

    Args:
        db: the index's connection.
        state: the folder it lives in (``.git/memrepo/``), where the allow-list is.
    """
    from .redactionepoch import allow_stamp

    now = allow_stamp(state)
    row = db.execute("SELECT v FROM info WHERE k='allow'").fetchone()
    if row is not None and row[0] != now:
        empty_index(db)
    if row is None or row[0] != now:
        db.execute("INSERT OR REPLACE INTO info VALUES('allow', ?)", (now,))


def empty_index(db: sqlite3.Connection) -> None:
    """Empty the index in place, so it is built again (in place: other processes may hold the file open).

    Args:
        db: the index's connection, outside a transaction.
    """
    db.executescript(
        "BEGIN IMMEDIATE; DELETE FROM files; DELETE FROM items; DELETE FROM texts; DELETE FROM post; DELETE FROM blobs; DELETE FROM shown;"
        " DELETE FROM info WHERE k IN ('built', 'stamps', 'folders');"
        " UPDATE info SET v=0 WHERE k IN ('seq', 'count'); COMMIT;"
    )
