"""One sync's writes to the recall index: each changed file in, in one transaction or a first build's batches (docs/architecture.md §4).

:class:`memrepo.engine.read.recall.RecallIndex` finds what changed; this
module writes it. A first build commits every
:data:`~memrepo.engine.read.recall.BUILD_BATCH_FILES` files: a build killed
or failed keeps its batches and the next sync reads only the files not yet
done (their rows hold their stamps), and writers get the file between
batches. Each batch's posting lists are written as parts of their own and
joined at the end (:func:`.recallpost.merge_all_parts`), so no batch reads
back what the others wrote.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .recallentries import update_file
from .recallkeys import PROGRESS_FILE, SEQ_MASK
from .recallpost import PostingChanges, index_error, merge_all_parts

if TYPE_CHECKING:
    from .recall import RecallIndex
    from .recallkeys import FileStat


def apply(
    index: RecallIndex,
    todo: dict[str, FileStat | None],
    full_scan: bool,
    stamps: str | None,
    limits: tuple[int, int, int],
) -> int:
    """Re-read (or drop, for None) each file of ``todo``; returns how many.

    One transaction, except for a first build (a full scan of an index not
    yet built): it commits every :data:`~memrepo.engine.read.recall.BUILD_BATCH_FILES` files, so a
    build killed or failed keeps what it did (the next sync reads only the
    files not yet done) and writers get the file between batches.

    Args:
        index: the index (its connection, counters and stamps).
        todo: each file to re-read with its stat, or None when it is gone.
        full_scan: the whole tree was walked (a build or a full sync).
        stamps: the walk's stamps string to store, or None (a partial sync).
        limits: files a first build commits after, posting ids gathered before
            writing, items gathered before writing (recall's ``BUILD_BATCH_FILES``,
            ``FLUSH_POSTINGS``, ``FLUSH_ITEMS``).

    Raises:
        RecallIndexError: the index file could not be written (one line; what
            earlier batches committed is kept).
    """
    try:
        return _apply(index, todo, full_scan, stamps, limits, heal=False)
    except _StaleSeq:
        # The index's sequence number lagged behind ids in use ("UNIQUE constraint failed: items.id", seen in CI
        # with three MCP servers on one folder; the writer that left it behind is not found): once more, from the
        # highest id in use. Nothing of the failed attempt was kept (rolled back).
        return _apply(index, todo, full_scan, stamps, limits, heal=True)


class _StaleSeq(Exception):
    """A sync's new entry took an id already in use: the stored sequence number is behind the items."""


def _last_seq(index: RecallIndex, heal: bool) -> int:
    """The last sequence number used: the stored one, or with ``heal`` at least the highest in the items (a scan)."""
    seq = int(index._info("seq") or 0)
    if heal:
        row = index._db.execute("SELECT max(id & ?) FROM items", (SEQ_MASK,)).fetchone()
        seq = max(seq, int(row[0] or 0))
    return seq


def _apply(
    index: RecallIndex,
    todo: dict[str, FileStat | None],
    full_scan: bool,
    stamps: str | None,
    limits: tuple[int, int, int],
    *,
    heal: bool,
) -> int:
    """:func:`apply`, once; ``heal``: the sequence number from the items too (:func:`_last_seq`)."""
    batch_files, flush_postings, flush_items = limits
    db = index._db
    building = full_scan and not index.built
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        raise index_error(index.path, exc) from exc
    progress = _Progress(index, db) if building else None
    from memrepo.engine.redaction.memo import done_by_index, used_by_index

    # The Betterleaks clean memo, with no allow-list active too; an index in memory has no folder for one
    # (``Path(":memory:").parent`` is the current folder: the memo was written into wherever the command ran).
    memo = used_by_index(None if index.path == ":memory:" else Path(index.path).parent)
    try:
        fresh = not index.built and db.execute("SELECT 1 FROM post LIMIT 1").fetchone() is None
        changes = PostingChanges(fresh)
        seq = _last_seq(index, heal)
        count = int(index._info("count") or 0)
        changed = removed = batch = 0
        for rel, st in todo.items():
            seq, added, gone, did = update_file(db, index.root, rel, st, changes, seq)
            count += added - gone
            removed += gone
            changed += did
            batch += 1
            if progress is not None:
                progress.read_one()
            if building and (batch >= batch_files or changes.postings > flush_postings):
                changes.flush(db, part=seq)  # a batch of its own: committed, kept if the build stops
                _commit_counts(index, seq, count, removed)
                db.execute("COMMIT")
                db.execute("BEGIN IMMEDIATE")
                # Another process may have written between the batches (the gap is for writers): go on from
                # its sequence number and count, or the next entries take ids it gave (UNIQUE items.id).
                seq = _last_seq(index, heal)
                count = int(index._info("count") or 0)
                changes = PostingChanges(False)
                removed = batch = 0
            elif changes.postings > flush_postings:  # a huge sync: write as it goes, keep memory bounded
                changes.flush(db)
                changes = PostingChanges(False)
            elif len(changes.items) > flush_items:
                changes.flush_items(db)
        changes.flush(db, part=seq if building else None)
        if building:
            merge_all_parts(db)
        _commit_counts(index, seq, count, removed)
        if full_scan:
            db.execute("INSERT OR REPLACE INTO info VALUES('built', '1')")
        if stamps is not None:
            db.execute("INSERT OR REPLACE INTO info VALUES('stamps', ?)", (stamps,))
            db.execute("INSERT OR REPLACE INTO info VALUES('folders', ?)", (index._folders,))
        else:  # a row re-stamped outside a full sync: the string no longer matches the rows
            db.execute("DELETE FROM info WHERE k='stamps'")
        db.execute("COMMIT")
    except BaseException as exc:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        index._forget_cached()
        if isinstance(exc, sqlite3.IntegrityError) and "items.id" in str(exc) and not heal:
            raise _StaleSeq from exc
        if isinstance(exc, sqlite3.Error):
            raise index_error(index.path, exc) from exc
        raise
    finally:
        done_by_index(memo)
        if progress is not None:
            progress.end()
    if changed:
        index._forget_cached()
    if building:  # batches leave half-full pages: written once more, densely (a few seconds at 20,000 files)
        with contextlib.suppress(sqlite3.Error):
            db.execute("VACUUM")
    if full_scan:
        index.built = True
    return changed


def _commit_counts(index: RecallIndex, seq: int, count: int, removed: int) -> None:
    """Record the last sequence number, the entry count and the entries removed, in the open transaction."""
    db = index._db
    db.execute("UPDATE info SET v=? WHERE k='seq'", (seq,))
    db.execute("UPDATE info SET v=? WHERE k='count'", (count,))
    if removed:  # what compaction's scrub looks at
        # and what was shown of entries another (older) process dropped without knowing the table
        db.execute("DELETE FROM shown WHERE id NOT IN (SELECT id FROM items)")
        db.execute("INSERT OR REPLACE INTO info VALUES('removed', ?)", (int(index._info("removed") or 0) + removed,))


class _Progress:
    """A first build's count of files read, in :data:`.recallkeys.PROGRESS_FILE` (what a scan's note shows).

    Written at the start, then at most every :data:`PROGRESS_FILES` files or
    :data:`PROGRESS_S` seconds (a few microseconds each); deleted at the end.
    A file that cannot be written is left alone: the note then counts committed batches.
    """

    def __init__(self, index: RecallIndex, db: sqlite3.Connection) -> None:
        self.path = None if index.path == ":memory:" else os.path.join(os.path.dirname(index.path), PROGRESS_FILE)
        self.done = int(db.execute("SELECT count(*) FROM files").fetchone()[0]) if self.path else 0
        self.written = 0.0
        self.unwritten = 0
        self._write()

    def read_one(self) -> None:
        """Count one more file read; write the count when enough files or time went by."""
        self.done += 1
        self.unwritten += 1
        if self.unwritten >= PROGRESS_FILES or time.monotonic() - self.written >= PROGRESS_S:
            self._write()

    def _write(self) -> None:
        if self.path is None:
            return
        self.written, self.unwritten = time.monotonic(), 0
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o600)
        except OSError:
            self.path = None
            return
        try:
            os.write(fd, b"%d\n" % self.done)
        finally:
            os.close(fd)

    def end(self) -> None:
        """The build ended (done, failed or stopped): the count goes; the index says the rest."""
        if self.path is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.path)


PROGRESS_FILES = 100
"""A first build writes its count of files read at least every this many files."""

PROGRESS_S = 1.0
"""... and at least every this many seconds (a slow file system, large files)."""
