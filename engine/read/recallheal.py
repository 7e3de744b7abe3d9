"""Mend a recall index whose ``texts`` row of one file cannot be read (docs/architecture.md §4).

A file's entries are one packed row (:func:`.recallpost.unpack_entries`). A row
that does not unpack (a bad sector, a copy cut short, a bug) used to fail every
recall that read it with "internal error (ValueError)" until the index was
built again. The index is derived from the files, so the row is mended from
the file instead: its entries' ids leave every posting list, their ``items``
and ``shown`` rows go, and the file is read again as if new. The rest of the
index stays as it is (a whole build takes minutes at 20,000 files). One
warning line says what happened (the ``memrepo.recall`` logger; with no
handler set up, Python prints it on stderr).
"""

from __future__ import annotations

import sqlite3
from array import array
from typing import TYPE_CHECKING

from .recallpost import index_error, merge_parts, unpack_ids

if TYPE_CHECKING:
    from .recall import RecallIndex


class DamagedRows(Exception):
    """``texts`` rows of these files could not be unpacked; :func:`mend` them and read again.

    Attributes:
        fids: the files' ids in the index.
    """

    def __init__(self, fids: list[int]) -> None:
        super().__init__(f"damaged recall index rows: {fids}")
        self.fids = fids


def drop_file_items(db: sqlite3.Connection, fid: int) -> int:
    """Take every entry of file ``fid`` out of the index, without reading its ``texts`` row.

    Every posting list is read once to find the ids (their keys are in the
    unreadable row): 1-2 s at 2,000 files, a rare repair. The ``files`` row is
    kept; the caller re-reads the file or marks it to be.

    Args:
        db: the index's connection, inside a write transaction.
        fid: the file's id.

    Returns:
        int: how many entries were taken out.
    """
    ids = {iid for (iid,) in db.execute("SELECT id FROM items WHERE fid=?", (fid,))}
    if ids:
        lo, hi = min(ids), max(ids)
        hit: list[str] = []
        rows = db.execute("SELECT post.key, post.ids, blobs.data FROM post LEFT JOIN blobs ON blobs.id = post.big")
        for key, inline, big in rows:
            blob = inline if inline is not None else big
            if blob is None:
                continue
            have: array[int] = unpack_ids(blob)
            if have and have[0] <= hi and have[-1] >= lo and not ids.isdisjoint(have):
                hit.append(key)
        for key in dict.fromkeys(hit):
            merge_parts(db, key, (), ids)
        db.executemany("DELETE FROM shown WHERE id=?", [(iid,) for iid in ids])
        db.execute("DELETE FROM items WHERE fid=?", (fid,))
    db.execute("DELETE FROM texts WHERE fid=?", (fid,))
    return len(ids)


def forget_file(db: sqlite3.Connection, fid: int) -> int:
    """Take file ``fid``'s entries out (:func:`drop_file_items`) and mark the file to be read again by the next sync.

    Args:
        db: the index's connection, inside a write transaction.
        fid: the file's id.

    Returns:
        int: how many entries were taken out (the index's count is lowered by as many).
    """
    removed = drop_file_items(db, fid)
    # mtime -1 never matches: the next sync reads the file again, as new (no row to match against)
    db.execute("UPDATE files SET mtime=-1, hash=NULL WHERE fid=?", (fid,))
    db.execute("DELETE FROM info WHERE k='stamps'")  # the rows no longer match the stored stamps
    if removed:
        db.execute("UPDATE info SET v=max(0, v - ?) WHERE k='count'", (removed,))
        db.execute("INSERT OR REPLACE INTO info VALUES('removed', ?)", (_removed(db) + removed,))
    return removed


def mend(db: sqlite3.Connection, fids: list[int]) -> list[str]:
    """Take the entries of the files ``fids`` out and mark the files to be read again (:func:`forget_file`).

    Args:
        db: the index's connection, outside a transaction.
        fids: the files whose ``texts`` row did not unpack.

    Returns:
        list[str]: the files' paths (repo-relative), for the caller to sync.

    Raises:
        sqlite3.Error: the index could not be written (the caller turns it into one line).
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        paths: list[str] = []
        for fid in dict.fromkeys(fids):
            row = db.execute("SELECT path FROM files WHERE fid=?", (fid,)).fetchone()
            forget_file(db, fid)
            if row is not None:
                paths.append(row[0])
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    for path in paths:
        warn(path)
    return paths


def mend_index(index: RecallIndex, fids: list[int]) -> None:
    """Mend the damaged rows of ``fids`` (:func:`mend`) and read their files again, now.

    Raises:
        RecallIndexError: the index could not be written (one line).
    """
    try:
        paths = mend(index.db, fids)
    except sqlite3.Error as exc:
        raise index_error(index.path, exc) from exc
    finally:
        index._forget_cached()
    index.sync(paths, partial=True)


def warn(path: str) -> None:
    """The one line a mended row gives (``logging`` imported here: a search that mends nothing never needs it)."""
    import logging

    logging.getLogger("memrepo.recall").warning(
        "memrepo: the recall index's entries of %s could not be read; read again from the file", path
    )


def _removed(db: sqlite3.Connection) -> int:
    row = db.execute("SELECT v FROM info WHERE k='removed'").fetchone()
    return int(row[0] or 0) if row is not None else 0
