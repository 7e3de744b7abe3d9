"""Lexical recall over the memory folder: a persisted index under ``.git/memrepo/`` (docs/architecture.md §4).

The index holds every entry of every markdown file (``.git`` and ``archived/`` left out) under its index terms
(:mod:`memrepo.engine.format.stemming`): one posting list per term and per context term (the headings above an
entry, its section's link-only bullets), each with its length. It lives in one SQLite file,
``.git/memrepo/recall.sqlite`` (stdlib :mod:`sqlite3`; ``:memory:`` when ``.git`` cannot be written), so a new
process opens it in milliseconds and reads only the posting lists a query needs; nothing is loaded whole.

Every item id packs the entry's rank (recency and ``by: user``) in its high bits, so a posting list sorted by id
is sorted by rank: "newest first" inside a large set of matches is a partial sort of ids, with no lookup.

It is updated one file at a time, by whichever process finds it stale:
:meth:`RecallIndex.sync` re-reads only files whose mtime or size changed
(all of them, or the paths a watcher or the writer reported) and drops files
that are gone; inside a changed file only entries whose text, metadata or
context changed touch a posting list. Deleted content is overwritten with
zeros (``secure_delete``), so forgetting an entry leaves none of its bytes in
the file (docs/architecture.md §5); :meth:`RecallIndex.scrub` also rewrites
the file whole (compaction calls it).

Ranking is :mod:`memrepo.engine.read.recallrank`'s rule: BM25 over index
terms, a confidence under which hits are left out, newer over superseded,
near-duplicates collapsed (docs/architecture.md §4).

Results are bounded by count and by UTF-8 bytes; a workspace scope also
leaves out entries whose ``workspace:`` key names another workspace (in a
global file or the inbox). Hit text goes out with secrets written by hand
redacted, as in the context block. Nothing here raises on a query: empty,
huge, or odd Unicode gives a list (maybe empty).
"""

from __future__ import annotations

import contextlib
import heapq
import os
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Set
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memrepo.engine.format.scratch import is_scratch_name

from .recallheal import DamagedRows, forget_file, mend_index
from .recallkeys import (
    ARCHIVED_DIR,
    EMPTY,
    SEQ_BITS,
    FileStat,
    changed_since,
    folder_stamps,
    has_phrase,
    index_path,
    stamps_of,
    to_hit,
    walk,
)
from .recallpost import load_dicts, read_ids, repack_all, unpack_entries
from .recallrank import Found, confidence_floor, rank

if TYPE_CHECKING:  # what only a sync (reading files) or a hit needs is imported there: a search reads the index
    from memrepo.engine.models import RecallHit

CACHE_IDS = 1_000_000
"""Posting lists read by searches stay in memory, least recently used dropped first, up to this many ids in all
(about 50 MB): a long-running process answers a repeated term from memory, a new one reads it once."""

FLUSH_POSTINGS = 8_000_000
"""A sync that gathered this many posting changes writes them before it reads on (bounded memory: 8 bytes
each, about 70 MB, with the keys and entries a build peaks near 400 MB at 20,000 files, in its child process)."""

CHILD_BUILD_FILES = 400
"""A first build of at least this many files runs in a child process (a smaller one takes less than starting it)."""

BUILD_BATCH_FILES = 1_000
"""A first build commits after every this many files (a build stopped midway resumes from its last batch)."""

FLUSH_ITEMS = 20_000
"""A sync writes the entries it read every this many (they need no merging, unlike posting lists)."""

TEXT_FILES = 1024
"""The entries of this many files read by searches stay in memory (a file's entries are stored together; ~15 MB)."""

SECTION_LINES = 80
"""``detail="full"`` returns at most this many lines of the section around a hit (docs/architecture.md §4)."""


class RecallIndex:
    """The recall index of one memory folder, kept in ``.git/memrepo/recall.sqlite``.

    Use from one thread at a time (the repo's worker thread does); several
    processes may share the file (SQLite's locks, one writer at a time).

    Args:
        root: the memory repo's work tree (absolute).
        path: the index file; None for :func:`index_path`, ``":memory:"`` for
            one held in memory only (used as well when ``.git/memrepo`` cannot
            be written).
    """

    def __init__(self, root: Path, path: Path | str | None = None) -> None:
        self.root = Path(root)
        self.path = str(index_path(self.root) if path is None else path)
        self._db = self._open()
        self._rows: dict[int, tuple] = {}
        self._scope: dict[int, tuple[str, str | None, int]] = {}
        self._paths: dict[int, str] = {}
        self._dicts: dict[int, bytes] = {}
        self._texts: OrderedDict[int, dict[int, tuple[int, str, str, str]]] = OrderedDict()
        self._lru: OrderedDict[str, Set[int]] = OrderedDict()
        self._lru_ids = 0
        self._data_version: int | None = None
        self.memo: dict[str, Any] = {}  # reads of the files table (.recallview), dropped when a file changes
        self.built = self._info("built") == "1"
        self.last_walk: dict[str, FileStat] | None = None  # the last full sync's stats (see adopt_recall_index)
        self.keep_walk = False
        """Whether a full sync keeps its stats in :attr:`last_walk` (for who adopts the index; 18 MB at 20,000 files)."""
        self._folders = ""
        self.leave_out: str | None = None  # a file no search ranks: inbox.md for the prompt hook (.recallreviewed)
        self.walked_at: float | None = None
        """When the last full sync's walk began (``time.monotonic()`` seconds; see adopt_recall_index)."""

    # -- the file ----------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        from .recallopen import open_index_file

        db, self.path = open_index_file(self.path)
        return db

    def _info(self, key: str) -> str | int | None:
        row = self._db.execute("SELECT v FROM info WHERE k=?", (key,)).fetchone()
        return None if row is None else row[0]

    def close(self) -> None:
        """Close the file (the index is unusable afterwards)."""
        with contextlib.suppress(sqlite3.Error):
            self._db.close()

    def scrub(self) -> None:
        """Rewrite the file whole (``VACUUM``) if any entry left it since the last scrub.

        ``secure_delete`` already zeroes deleted rows; a rewrite also drops the
        copies of deleted keys an index page may keep as dividers.
        """
        with contextlib.suppress(sqlite3.Error):
            if int(self._info("removed") or 0) > 0:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    repack_all(self._db, partial(forget_file, self._db))  # no dictionary keeps words of what left
                    self._db.execute("UPDATE info SET v=0 WHERE k='removed'")
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._forget_cached()
                self._db.execute("VACUUM")

    def __len__(self) -> int:
        """The number of entries indexed."""
        return int(self._info("count") or 0)

    # -- keeping it current ---------------------------------------------

    def sync(self, paths: Iterable[str] | None = None, partial: bool = False) -> int:
        """Bring the index up to date with the files on disk.

        Args:
            paths: repo-relative paths known to have changed (from a watcher or
                the writer); None checks every file's mtime and size (a full
                stat scan, no file read unless it changed).
            partial: re-read just ``paths`` even while a first build is not
                finished (forgetting does: the batches a build committed hold text).

        Returns:
            int: how many files were re-read or dropped.
        """
        self._rows.clear()
        self._scope.clear()
        if paths is None or not (self.built or partial):
            return self._sync_all()
        todo: dict[str, FileStat | None] = {}
        for rel in dict.fromkeys(paths):
            rel = rel.replace(os.sep, "/")
            if rel.endswith("/") or not rel or rel.startswith(".git/"):
                continue
            if not rel.endswith(".md"):
                if (self.root / rel).is_dir():  # a folder moved or was deleted: check everything
                    return self._sync_all()
                hit = self._db.execute(
                    "SELECT 1 FROM files WHERE path > ? AND path < ? LIMIT 1", (rel + "/", rel + "0")
                ).fetchone()
                if hit is not None:
                    return self._sync_all()
                continue
            full = self.root / rel
            try:
                st = full.lstat()
                ok = full.is_file() and not full.is_symlink() and not rel.startswith(ARCHIVED_DIR)
                ok = ok and not any(part.startswith(".") or is_scratch_name(part) for part in rel.split("/"))
            except OSError:
                ok = False
            todo[rel] = FileStat.of(st) if ok else None
        if not todo:
            return 0
        return self._apply(todo, full_scan=False)

    def mark_stale(self, paths: list[str]) -> None:
        """Make the next :meth:`sync` of ``paths`` re-read them whatever their mtime and size say.

        For a change a content hash found with the stamps unmoved (the watcher's
        periodic reconciliation: exFAT, FUSE, an older mtime put back).
        """
        self._db.executemany("UPDATE files SET mtime=-1 WHERE path=?", [(p,) for p in paths])
        self._db.execute("DELETE FROM info WHERE k='stamps'")

    def sync_quick(self) -> int:
        """Bring the index up to date unless no folder's mtime moved since the last full sync (then read nothing).

        For the prompt hook, which must answer in a few milliseconds at any
        size: a file added, removed, renamed or written by the writer (a
        rename) moves its folder's mtime; an edit made in place is seen by
        the next full sync (docs/architecture.md §4).

        Returns:
            int: how many files were re-read or dropped (0 when the folders did not move).
        """
        stored = self._info("folders") if self.built else None
        if isinstance(stored, str):
            folders = [line.rsplit("\t", 1)[0] for line in stored.split("\n")]
            if folder_stamps(self.root, folders) == stored:
                return 0
        return self.sync(None)

    def _sync_all(self) -> int:
        self.walked_at = time.monotonic()
        folders: list[str] = []
        before = walk_folders = None
        stored_folders = self._info("folders")
        if isinstance(stored_folders, str):  # stamped before the walk: a change during it is seen next time
            walk_folders = [line.rsplit("\t", 1)[0] for line in stored_folders.split("\n")]
            before = folder_stamps(self.root, walk_folders)
        seen = walk(self.root, folders)
        if before is None or walk_folders != folders:
            before = folder_stamps(self.root, folders)
        self._folders = before
        self.last_walk = seen if self.keep_walk else None
        stamps = stamps_of(seen)
        stored = self._info("stamps") if self.built else None
        if stored == stamps:  # no file moved since the last full sync
            if self._info("folders") != before:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("INSERT OR REPLACE INTO info VALUES('folders', ?)", (before,))
            return 0
        # The stored string matches the rows (any re-read but a full sync removes it): its
        # lines that differ name the files to look at, with no row read (2-3 ms at 2,000 files).
        todo = changed_since(stored, stamps, seen) if isinstance(stored, str) else None
        if todo is None:
            rows = self._db.execute("SELECT path, mtime, size FROM files")
            known = {path: (mtime, size) for path, mtime, size in rows}
            todo = {rel: None for rel in known if rel not in seen}
            for rel, st in seen.items():
                if known.get(rel) != (st.st_mtime_ns, st.st_size):
                    todo[rel] = st
        return self._apply(todo, full_scan=True, stamps=stamps)

    def _apply(self, todo: dict[str, FileStat | None], full_scan: bool, stamps: str | None = None) -> int:
        """Re-read (or drop, for None) each file of ``todo`` (:func:`.recallbuild.apply`); returns how many."""
        from .recallbuild import apply

        return apply(self, todo, full_scan, stamps, (BUILD_BATCH_FILES, FLUSH_POSTINGS, FLUSH_ITEMS))

    # -- reading ------------------------------------------------------------

    def _forget_cached(self) -> None:
        self._lru.clear()
        self._lru_ids = 0
        self._paths.clear()
        self._texts.clear()
        self.memo.clear()
        self._dicts = {}

    def _check_cached(self) -> None:
        """Drop remembered posting lists if another process changed the file since."""
        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        if version != self._data_version:
            self._forget_cached()
            self._data_version = version

    def _posting(self, key: str, cache: dict[str, Set[int]]) -> Set[int]:
        """The ids of ``key`` (never to be mutated): from this query's, then the index's memory, then the file."""
        got = cache.get(key)
        if got is None:
            got = self._lru.get(key)
            if got is not None:
                self._lru.move_to_end(key)
            else:
                ids = read_ids(self._db, key)
                got = EMPTY if ids is None else frozenset(ids)
                if len(got) <= CACHE_IDS:
                    self._lru[key] = got
                    self._lru_ids += len(got) + 1
                    while self._lru_ids > CACHE_IDS:
                        _key, old = self._lru.popitem(last=False)
                        self._lru_ids -= len(old) + 1
            cache[key] = got
        return got

    @property
    def db(self) -> sqlite3.Connection:
        """The index file's connection (:mod:`.coldrecall` keeps shown text beside the items)."""
        return self._db

    def row(self, iid: int) -> tuple:
        """(path, line, ws, text, meta JSON, context) of a result of :meth:`search`, remembered until the next sync."""
        row = self._rows.get(iid)
        if row is None:
            self._rows_of((iid,))
            row = self._rows.get(iid)
        return row  # type: ignore[return-value]  # None only for an id no longer indexed

    def file_entries(self, path: str) -> dict[int, tuple[int, str, str, str]]:
        """Every entry of the indexed file ``path``: item id -> (line, text, meta JSON, context); {} for none."""
        got = self._db.execute("SELECT fid FROM files WHERE path=?", (path,)).fetchone()
        if got is None:
            return {}
        self._entries_of(got)
        return self._texts.get(got[0], {})

    def _load_paths(self, fids: Iterable[int]) -> None:
        """Remember the paths of the files ``fids`` not yet known (until another process changes the index)."""
        want = list({f for f in fids if f not in self._paths})
        for start in range(0, len(want), 900):
            chunk = want[start : start + 900]
            marks = ",".join("?" * len(chunk))
            self._paths.update(self._db.execute(f"SELECT fid, path FROM files WHERE fid IN ({marks})", chunk))

    def _entries_of(self, fids: Iterable[int]) -> None:
        """Remember the entries of the files ``fids`` not yet read (the last :data:`TEXT_FILES` read)."""
        texts = self._texts
        want = []
        for fid in dict.fromkeys(fids):
            if fid in texts:
                texts.move_to_end(fid)
            else:
                want.append(fid)
        damaged = []
        for start in range(0, len(want), 500):
            chunk = want[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for fid, body in self._db.execute(f"SELECT fid, body FROM texts WHERE fid IN ({marks})", chunk):
                if body[0] and body[0] not in self._dicts:  # a dictionary made since (or not read yet)
                    self._dicts = load_dicts(self._db)
                try:
                    texts[fid] = unpack_entries(body, self._dicts)
                except ValueError:
                    damaged.append(fid)
        while len(texts) > max(TEXT_FILES, len(want)):
            texts.popitem(last=False)
        if damaged:
            raise DamagedRows(damaged)  # :meth:`search` mends them and asks again

    def _scope_of(self, ids: Iterable[int]) -> None:
        """Fetch the (path, workspace, line) of ``ids`` whose row is not remembered, in a few queries (scope, ties)."""
        want = [i for i in ids if i not in self._rows and i not in self._scope]
        for start in range(0, len(want), 900):
            chunk = want[start : start + 900]
            marks = ",".join("?" * len(chunk))
            query = f"SELECT id, fid, ws, line FROM items WHERE id IN ({marks})"
            rows = self._db.execute(query, chunk).fetchall()
            self._load_paths(fid for _iid, fid, _ws, _line in rows)
            for iid, fid, ws, line in rows:
                self._scope[iid] = (self._paths.get(fid, ""), ws, line)

    def scope_row(self, iid: int) -> tuple[str, str | None]:
        """(path, workspace id or None) of an item, for a scope check."""
        row = self._rows.get(iid)
        if row is not None:
            return row[0], row[2]
        got = self._scope.get(iid)
        if got is None:
            self._scope_of((iid,))
            got = self._scope.get(iid, ("", None, 0))
        return got[0], got[1]

    def _rows_of(self, ids: Iterable[int]) -> None:
        """Fetch the rows of ``ids`` not yet remembered, in a few queries."""
        want = [i for i in ids if i not in self._rows]
        for start in range(0, len(want), 500):
            chunk = want[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(f"SELECT id, fid, line, ws FROM items WHERE id IN ({marks})", chunk).fetchall()
            fids = [fid for _iid, fid, _line, _ws in rows]
            self._load_paths(fids)
            self._entries_of(fids)
            for iid, fid, line, ws in rows:
                _line, text, meta, ctx = self._texts.get(fid, {}).get(iid, (line, "", "{}", ""))
                self._rows[iid] = (self._paths.get(fid, ""), line, ws, text, meta, ctx)

    def _top(
        self,
        cands: Set[int],
        need: int,
        keep: Callable[[int], bool] | None,
        prim: Callable[[int], Any] | None = None,
    ) -> list[int]:
        """Up to ``need`` of ``cands`` kept by ``keep``: best ``prim`` first (rank by default), ties by path and line.

        Only the best few are sorted (a partial sort, widened while ties or
        ``keep`` ask for more), then the rows of the tied ones are read.
        """
        if need <= 0 or not cands:
            return []
        sort_key = None if prim is None else (lambda i: (prim(i), i))  # ids compare as ints: no key call
        primary = (lambda i: i >> SEQ_BITS) if prim is None else prim
        n = len(cands)
        k = need * 2 + 16
        while True:
            top = sorted(cands, key=sort_key, reverse=True) if k >= n else heapq.nlargest(k, cands, key=sort_key)
            got: list[int] = []
            last = None
            complete = k >= n
            if keep is not None:
                self._scope_of(top)  # what keep reads, in a few queries instead of one per id
            for i in top:
                p = primary(i)
                if len(got) >= need and p != last:
                    complete = True
                    break
                if keep is None or keep(i):
                    got.append(i)
                    last = p
            if complete:
                break
            k *= 4
        self._rows_of(got)  # in a few queries: each is a candidate the ranking reads next
        rows = self._rows
        got.sort(key=lambda i: (rows[i][0], rows[i][1]))
        got.sort(key=primary, reverse=True)  # stable: ties keep path and line order
        return got[:need]

    def search(
        self,
        query: str,
        *,
        workspace_file: str | None = None,
        workspace_id: str | None = None,
        scoped: bool = False,
        limit: int = 10,
        min_confidence: float | None = None,
    ) -> Found:
        """Rank entries for ``query`` (the rule of :mod:`memrepo.engine.read.recallrank`).

        Args:
            query: any text; see :func:`memrepo.engine.format.terms.query_terms` for the limits.
            workspace_file: with ``scoped``, the one workspace file to keep (None keeps none).
            workspace_id: with ``scoped``, the one workspace an entry's own
                ``workspace:`` key may name (in a global file or the inbox).
            scoped: leave out every workspace file (``workspaces/…``) except
                ``workspace_file``, and every entry whose ``workspace:`` key
                names another workspace.
            limit: the most results wanted (at least 1).
            min_confidence: hits under this confidence (0..1) are left out;
                None for :data:`~memrepo.engine.read.recallrank.MIN_CONFIDENCE`, 0 keeps every match.

        Returns:
            Found: item ids with their sort keys ``(score, confidence, rank)``, best first (pass each to
            :meth:`hit`), and the confidence an answer needs (``answer_floor``; ``--all`` lists hits under it).
        """
        limit = max(1, limit)
        self._rows.clear()  # another process may have moved entries since
        self._scope.clear()
        self._check_cached()

        from .recallview import scoped_view

        floor = confidence_floor(min_confidence)
        scope = (scoped, workspace_file, workspace_id, self.leave_out)
        try:
            found = rank(query, len(self), scoped_view(self, *scope), has_phrase, limit, floor)
        except DamagedRows as damaged:  # read again from their files, then asked once more (.recallheal)
            mend_index(self, damaged.fids)
            found = rank(query, len(self), scoped_view(self, *scope), has_phrase, limit, floor)
        out = Found((hit.iid, (hit.score, hit.confidence, hit.iid >> SEQ_BITS)) for hit in found)
        out.answer_floor, out.minimum = found.answer_floor, found.minimum
        return out

    def entry(self, iid: int) -> tuple[str, int, str]:
        """(path, line, text) of a result of :meth:`search`."""
        path, line, _ws, text = self.row(iid)[:4]
        return path, line, text

    def hit(self, iid: int, key: tuple, detail: str) -> RecallHit:
        """Turn a result of :meth:`search` into a :class:`~memrepo.engine.models.RecallHit` (see :func:`.recallkeys.to_hit`)."""
        path, line, _ws, text, meta_json = self.row(iid)[:5]
        return to_hit(self.root, path, line, text, meta_json, key, detail, SECTION_LINES)
