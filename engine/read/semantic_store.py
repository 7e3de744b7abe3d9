"""The vectors of hybrid recall: ``.git/memrepo/vectors.sqlite``, beside the recall index (docs/architecture.md §4).

One row per entry that has a vector, keyed by the recall index's item id (an
entry that only moved keeps its id, one whose text changed gets a new one):
the vector as 8-bit integers with one scale (384 bytes and a float for the
local model, a quarter of float32) and a BLAKE2 digest of the text it was
made from, so a vector survives a rebuilt recall index (new ids, same text)
without being computed again.

What is embedded for an entry (:func:`embedded_text`) is its text, then its
context in parentheses: the headings above it, its section's link-only
bullets and its ``subject:`` (what the recall index keeps as the entry's
context). Who or which project a line is about often lives only in its
heading: "what should I cook for her" finds "Vegan for ten years; no honey
either." under "# About me" only with it. Measured on the tuning splits of
benchmarks/recall_quality with the local model, hybrid paraphrase hit@5 on
repo C: 0.75 -> 0.90 (0.85 -> 0.95 with semantic_fuse's K of 5); repo A
unchanged (0.91; 0.94). The context before the text, or with ``kind:``
added, did worse or no better. The text comes first, so a model that
truncates cuts the context. A vector made from another form of the text is
dropped like one of another model (:data:`TEXT_FORM`).

Which entries get one is bounded (``[semantic] max_entries``, 20,000 by
default): global files first, then workspace files most recently written
first, newest entries first inside a file (an item id's high bits are its
rank). :meth:`VectorStore.reconcile` reads that list from the recall index
(attached read-only), drops vectors whose entry is gone or fell out of it,
and names the entries still to embed.

Forgetting: a vector is derived from its text, so it leaves with it. After a
forget or a compaction has brought the recall index up to date,
:func:`scrub_vectors` drops every vector whose item the index no longer
holds; ``secure_delete`` zeroes the freed bytes and compaction rewrites the
file whole (docs/architecture.md §5). A vector is only ever inserted while
its item is still in the index (checked in the same transaction), so one
computed from text forgotten meanwhile is never stored.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

try:  # as in recallentries: hashlib's own BLAKE2 without OpenSSL
    from _blake2 import blake2b
except ImportError:  # pragma: no cover
    from hashlib import blake2b

from memrepo.engine.files.sqlitefile import make_private

from .recallkeys import WORKSPACES_DIR, index_path

if TYPE_CHECKING:
    import numpy as np

VECTORS_FILE = "vectors.sqlite"
"""The file's name under ``.git/memrepo/``."""

PAGE_SIZE = 8192
"""The file's page size (bytes): a row of the local model (about 420 bytes) fills 19 to a page, 97% of it; at
SQLite's default 4,096 bytes 9 fit, 92%."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS info(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vec(id INTEGER PRIMARY KEY, h BLOB, scale REAL, v BLOB);
"""


TEXT_FORM = "text (context)"
"""Names what is embedded for an entry (:func:`embedded_text`); stored with the model's id, so a new form
rebuilds every vector. Before it had a name, the entry's text alone was embedded."""

CONTEXT_CHARS = 200
"""The most characters of an entry's context embedded with it (headings and links can run long)."""


def embedded_text(text: str, context: str) -> str:
    """What is embedded for an entry: ``text (context)``, or the text alone when it has no context.

    Args:
        text: the entry's indexed text.
        context: its context text (headings above it, its section's link-only bullets, its ``subject:``),
            cut to :data:`CONTEXT_CHARS`.

    Returns:
        str: the text to embed (the module docstring gives the rule and its measurement).
    """
    context = " ".join(context.split())[:CONTEXT_CHARS].strip()
    return f"{text} ({context})" if context else text


def vector_space(model_id: str) -> str:
    """The name a vectors file keeps for the space its vectors are in: the model and :data:`TEXT_FORM`."""
    return f"{model_id}|{TEXT_FORM}"


def vectors_path(root: Path) -> Path:
    """Where the vectors of the repo at ``root`` are kept: ``.git/memrepo/vectors.sqlite``."""
    return index_path(root).parent / VECTORS_FILE


def text_digest(text: str) -> bytes:
    """The 16-byte BLAKE2 digest of the text a vector was made from."""
    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def quantize(vec: Iterable[float]) -> tuple[float, bytes]:
    """(scale, int8 bytes) of a vector: each value is ``round(x / scale)`` with ``scale = max|x| / 127``."""
    vals = list(vec)
    peak = max((abs(x) for x in vals), default=0.0) or 1.0
    scale = peak / 127.0
    return scale, bytes((round(x / scale) & 0xFF) for x in vals)


class VectorStore:
    """The vectors file of one repo; use from one thread at a time.

    Args:
        root: the work tree.
        path: the file; None for :func:`vectors_path`.

    Raises:
        sqlite3.Error: the file cannot be opened or created.
    """

    def __init__(self, root: Path, path: Path | None = None) -> None:
        self.root = Path(root)
        self.path = path or vectors_path(self.root)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Owner only, as every derived file (docs/architecture.md §3), whatever the umask or an older file's mode;
        # by path: a descriptor closed here would drop the locks this process's other connections hold on it.
        make_private(str(self.path))
        self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=30.0)
        self._db.execute("PRAGMA secure_delete=ON")
        self._db.execute("PRAGMA journal_mode=DELETE")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(f"PRAGMA page_size={PAGE_SIZE}")  # a new file only (an older one takes it at a repack)
        self._db.executescript(SCHEMA)
        self._attached = False
        self._cached: tuple[Any, ...] | None = None
        self._version: int | None = None
        self._order: tuple[Any, Any] | None = None

    def close(self) -> None:
        """Close the file."""
        with contextlib.suppress(sqlite3.Error):
            self._db.close()

    def _info(self, key: str) -> Any:
        row = self._db.execute("SELECT v FROM info WHERE k=?", (key,)).fetchone()
        return None if row is None else row[0]

    def _set(self, key: str, value: Any) -> None:
        self._db.execute("INSERT OR REPLACE INTO info VALUES(?, ?)", (key, value))

    def _attach(self) -> bool:
        """Attach the recall index as ``r``; False when it does not exist yet."""
        if not self._attached:
            recall = index_path(self.root)
            if not recall.is_file():
                return False
            self._db.execute("ATTACH DATABASE ? AS r", (str(recall),))
            self._attached = True
        return True

    def use_model(self, model_id: str) -> None:
        """Drop every vector made by another model or from another form of the text (another vector space)."""
        space = vector_space(model_id)
        if self._info("model") != space:
            self._db.execute("BEGIN IMMEDIATE")
            try:  # asked again under the write lock: another process may have set it and stored vectors since
                if self._info("model") == space:
                    self._db.execute("COMMIT")
                    return
                gone = self._db.execute("DELETE FROM vec").rowcount
                self._set("model", space)
                self._set("removed", int(self._info("removed") or 0) + max(gone, 0))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._cached = None

    def space(self) -> str | None:
        """The vector space the stored vectors were made in (:func:`vector_space`); None before the first."""
        got = self._info("model")
        return None if got is None else str(got)

    def counts(self) -> tuple[int, int]:
        """(entries with a vector, entries in the recall index)."""
        have = self._db.execute("SELECT count(*) FROM vec").fetchone()[0]
        total = 0
        if self._attach():
            with contextlib.suppress(sqlite3.Error, TypeError, ValueError):
                total = int(self._db.execute("SELECT v FROM r.info WHERE k='count'").fetchone()[0])
        return have, total

    def reconcile(self, max_entries: int, prepare: Callable[[str], str] = lambda t: t) -> list[tuple[int, str]]:
        """Match the vectors to the bounded list of entries; name those still to embed.

        Vectors whose entry left the list (forgotten, edited, or pushed out by
        the bound) are dropped, except that one whose text reappears under a
        new id (a rebuilt index) is kept for it.

        Args:
            max_entries: the bound (``[semantic] max_entries``).
            prepare: what is embedded for an entry's text (the redaction).

        Returns:
            list[tuple[int, str]]: (item id, prepared :func:`embedded_text`)
            still without a vector, in priority order.
        """
        if not self._attach():
            return []
        wanted = [  # ids only: the sort of every entry carries no text (800,000 at 20,000 files)
            iid
            for (iid,) in self._db.execute(
                "SELECT i.id FROM r.items i JOIN r.files f ON f.fid = i.fid"
                " ORDER BY substr(f.path, 1, ?) = ?, f.mtime DESC, i.id DESC LIMIT ?",
                (len(WORKSPACES_DIR), WORKSPACES_DIR, max_entries),
            )
        ]
        have = {iid: h for iid, h in self._db.execute("SELECT id, h FROM vec")}
        want_ids = set(wanted)
        dropped = {h: iid for iid, h in have.items() if iid not in want_ids}
        missing = [iid for iid in wanted if iid not in have]
        texts = self._texts(missing)
        todo: list[tuple[int, str]] = []
        moved: list[tuple[int, int]] = []
        for iid in missing:
            text = texts.get(iid)
            if text is None:  # gone since the sort
                continue
            prepared = prepare(text)
            old = dropped.pop(text_digest(prepared), None)
            if old is not None:
                moved.append((iid, old))
            else:
                todo.append((iid, prepared))
        if moved or dropped:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany("UPDATE vec SET id=? WHERE id=?", moved)
                self._db.executemany("DELETE FROM vec WHERE id=?", [(iid,) for iid in dropped.values()])
                if dropped:
                    self._set("removed", int(self._info("removed") or 0) + len(dropped))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return todo

    def _texts(self, ids: list[int]) -> dict[int, str]:
        """What to embed (:func:`embedded_text`) for each of ``ids`` still in the recall index (its files' packed rows)."""
        from .recallpost import load_dicts, unpack_entries

        by_file: dict[int, set[int]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for iid, fid in self._db.execute(f"SELECT id, fid FROM r.items WHERE id IN ({marks})", chunk):
                by_file.setdefault(fid, set()).add(iid)
        texts: dict[int, str] = {}
        if not by_file:
            return texts
        dicts = load_dicts(self._db, "r.")
        fids = list(by_file)
        for start in range(0, len(fids), 500):
            chunk = fids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for fid, body in self._db.execute(f"SELECT fid, body FROM r.texts WHERE fid IN ({marks})", chunk):
                want = by_file[fid]
                try:
                    held = unpack_entries(body, dicts)
                except ValueError:  # a damaged row: no vector for now; a recall mends it (.recallheal)
                    continue
                texts.update((iid, embedded_text(row[1], row[3])) for iid, row in held.items() if iid in want)
        return texts

    def add(self, rows: list[tuple[int, str, list[float]]]) -> int:
        """Store vectors: (item id, the text embedded, unit vector) each, only for items still in the index.

        Returns:
            int: how many were stored.
        """
        if not rows or not self._attach():
            return 0
        stored = 0
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for iid, text, vec in rows:
                scale, data = quantize(vec)
                cur = self._db.execute(
                    "INSERT OR REPLACE INTO vec SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM r.items WHERE id=?)",
                    (iid, text_digest(text), scale, data, iid),
                )
                stored += max(cur.rowcount, 0)
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return stored

    def prune(self) -> int:
        """Drop the vectors whose item the recall index no longer holds; returns how many."""
        if not self._attach():
            gone = self._db.execute("DELETE FROM vec").rowcount  # no index: no entry is known
        else:
            gone = self._db.execute("DELETE FROM vec WHERE id NOT IN (SELECT id FROM r.items)").rowcount
        if gone > 0:
            self._set("removed", int(self._info("removed") or 0) + gone)
            self._cached = None
        return max(gone, 0)

    def vacuum(self) -> None:
        """Rewrite the file whole if any vector left it since the last rewrite (compaction)."""
        if int(self._info("removed") or 0) > 0:
            self._db.execute("VACUUM")
            self._set("removed", 0)

    def repack(self) -> None:
        """Rewrite the file densely, at :data:`PAGE_SIZE` (after a large build, docs/architecture.md §4).

        Vectors go in by item id, whose high bits are the entry's rank, not in the
        order they are stored: pages split and stay part-empty. Measured on 20,000
        vectors of the local model: 10.7 MB before, 8.7 MB after (8.3 MB of rows),
        in 0.2-0.4 s.

        Raises:
            sqlite3.Error: the file could not be rewritten (another process holds it past the timeout).
        """
        self._db.execute(f"PRAGMA page_size={PAGE_SIZE}")
        self._db.execute("VACUUM")

    def matrix(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(item ids, int8 vectors one a row, scales) of every vector, kept until the file changes."""
        # One read transaction: another process's batch commits before or after it, never between the count
        # and the rows (read apart, a build's commit there failed the read and left recall lexical).
        self._db.execute("BEGIN")
        try:
            return self._read_matrix()
        finally:
            self._db.execute("COMMIT")

    def _read_matrix(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        import numpy as np

        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        count = self._db.execute("SELECT count(*), max(id) FROM vec").fetchone()
        if self._cached is None or self._version != version or self._cached[0] != count:
            self._cached = None  # the old copy goes before the new one is read
            n = count[0]
            first = self._db.execute("SELECT v FROM vec LIMIT 1").fetchone()
            dim = len(first[0]) if first else 0
            ids = np.empty(n, dtype=np.int64)
            scales = np.empty(n, dtype=np.float32)
            mat = np.empty((n, dim), dtype=np.int8)
            row = 0  # filled a chunk at a time: no list of every row, no joined copy (12 MB less at 20,000);
            cur = self._db.execute("SELECT id, scale, v FROM vec")  # half the time of row by row
            while chunk := cur.fetchmany(1024):
                end = row + len(chunk)
                if end > n or any(len(data) != dim for _iid, _scale, data in chunk):
                    raise ValueError("the vectors file is damaged: rows of two lengths, or more than it counts")
                ids[row:end] = [iid for iid, _scale, _data in chunk]
                scales[row:end] = [scale for _iid, scale, _data in chunk]
                joined = b"".join(data for _iid, _scale, data in chunk)
                mat[row:end] = np.frombuffer(joined, dtype=np.int8).reshape(len(chunk), dim)
                row = end
            self._cached = (count, ids[:row], mat[:row], scales[:row])
            self._version = version
        return self._cached[1], self._cached[2], self._cached[3]

    def vectors_of(self, ids: Iterable[int]) -> dict[int, np.ndarray]:
        """The vectors of ``ids`` (those that have one) as float32 (int8 times scale), from the matrix the last
        :meth:`nearest` read (its check that the file did not change costs a table scan: done once a recall)."""
        import numpy as np

        all_ids, mat, scales = self.matrix() if self._cached is None else self._cached[1:]
        out: dict[int, np.ndarray] = {}
        if not len(all_ids):
            return out
        want = np.asarray(list(ids), dtype=np.int64)
        if self._order is None or self._order[0] is not all_ids:  # rowid order is id order; not relied on
            self._order = (all_ids, np.argsort(all_ids, kind="stable"))
        order = self._order[1]
        at = np.searchsorted(all_ids, want, sorter=order)
        for iid, pos in zip(want.tolist(), at.tolist(), strict=True):
            if pos < len(order) and int(all_ids[order[pos]]) == iid:
                row = order[pos]
                out[iid] = mat[row].astype(np.float32) * scales[row]
        return out

    def nearest(
        self, query: list[float], limit: int, min_similarity: float, keep: Callable[[int], bool] | None = None
    ) -> list[tuple[int, float]]:
        """The entries most similar to ``query`` (a unit vector): (item id, cosine), best first.

        Args:
            query: the query's unit vector (the model's query form).
            limit: the most results.
            min_similarity: cosines below this are left out.
            keep: a filter on item ids (the workspace scope), applied best first.
        """
        import numpy as np

        ids, mat, scales = self.matrix()
        if not len(ids) or mat.shape[1] != len(query):
            return []
        q = np.asarray(query, dtype=np.float32)
        sims = np.empty(len(ids), dtype=np.float32)
        step = 2048  # converted to float32 a slice at a time: 3 MB whatever the count
        for start in range(0, len(ids), step):
            sims[start : start + step] = (mat[start : start + step].astype(np.float32) @ q) * scales[
                start : start + step
            ]
        order = np.argsort(-sims, kind="stable")
        out: list[tuple[int, float]] = []
        for pos in order:
            sim = float(sims[pos])
            if sim < min_similarity or len(out) >= limit:
                break
            iid = int(ids[pos])
            if keep is None or keep(iid):
                out.append((iid, sim))
        return out


def scrub_vectors(root: Path, whole: bool) -> None:
    """Drop the vectors of entries the recall index no longer holds (forget, compaction: docs/architecture.md §5).

    Call it after the recall index was brought up to date. A repo with no
    vectors file holds nothing to scrub.

    Args:
        root: the work tree.
        whole: also rewrite the file whole (compaction).
    """
    if not vectors_path(root).is_file():
        return
    store = VectorStore(root)
    try:
        store.prune()
        if whole:
            store.vacuum()
    finally:
        store.close()


def remove_vectors(root: Path) -> None:
    """Delete the vectors file (its recall index was started again, or the repo's state is being cleared)."""
    for suffix in ("", "-journal"):
        with contextlib.suppress(OSError):
            os.unlink(str(vectors_path(root)) + suffix)
