"""The recall index's compact forms on disk: posting lists and each file's entry texts (docs/architecture.md §4).

- A **posting list** (the sorted item ids of one key, 64-bit) is stored as
  its bytes regrouped by position (every id's lowest byte, then every id's
  next byte, ...) and deflated: ids sorted by rank share their high bytes,
  so a list costs about 3 bytes an id instead of 8, undone at C speed (zlib
  and slice assignment) with no Python object per id. A list of fewer than
  :data:`PACK_MIN` ids (most keys hold one) is stored as varints: each
  id's rank less the one before it, then its sequence number (5-7 bytes an id).
- A file's **entries** (id, line, text, metadata JSON, context text) are
  stored as one deflated JSON list per file: the texts of one file share
  words and keys, so they cost well under their size in the markdown, and a
  file is re-read whole anyway when it changes.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Set
from contextlib import suppress
from itertools import accumulate

from memrepo.engine.errors import MemrepoError, is_disk_full

PACK_MIN = 8
"""Posting lists shorter than this many ids are stored unpacked (deflate would not pay for its header)."""

INLINE_MAX = 400
"""A packed list longer than this (bytes) is kept in ``blobs``, not in its ``post`` row: a ``post`` row stays
small enough to share its page (a longer one would take an overflow page of its own, mostly empty)."""

_RAW = b"\x00"
_PACKED = b"\x01"
_SHORT = b"\x02"
_WIDTH = 8  # bytes an id
_EMPTY: frozenset[int] = frozenset()


def _varint(value: int, out: bytearray) -> None:
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def _short(ids: array[int]) -> bytes:
    """A short list as varints: each id's rank less the previous id's, then its sequence number."""
    out = bytearray(_SHORT)
    last = 0
    for iid in ids:
        _varint((iid >> 32) - last, out)
        _varint(iid & 0xFFFFFFFF, out)
        last = iid >> 32
    return bytes(out)


def _unshort(blob: bytes) -> array[int]:
    ids = array("q")
    values: list[int] = []
    value = shift = 0
    for byte in blob[1:]:
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            values.append(value)
            value = shift = 0
    if shift or len(values) % 2:
        raise ValueError("not a posting list")
    rank = 0
    for i in range(0, len(values), 2):
        rank += values[i]
        ids.append((rank << 32) | values[i + 1])
    return ids


def pack_ids(ids: array[int]) -> bytes:
    """The stored form of a sorted posting list (``array('q')``); :func:`unpack_ids` undoes it."""
    if len(ids) < PACK_MIN:
        if all(i >= 0 for i in ids):
            return _short(ids)
        return _RAW + ids.tobytes()
    raw = ids.tobytes()
    planes = b"".join([raw[i::_WIDTH] for i in range(_WIDTH)])
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return _PACKED + packer.compress(planes) + packer.flush()


def unpack_ids(blob: bytes) -> array[int]:
    """The posting list (``array('q')``, sorted ascending) of a stored form made by :func:`pack_ids`.

    Raises:
        ValueError: the blob is not one :func:`pack_ids` made.
    """
    if blob[:1] == _SHORT:
        return _unshort(blob)
    ids = array("q")
    if blob[:1] == _RAW:
        ids.frombytes(blob[1:])
        return ids
    if blob[:1] != _PACKED:
        raise ValueError("not a posting list")
    try:
        planes = zlib.decompress(blob[1:], -15)
    except zlib.error as exc:
        raise ValueError("not a posting list") from exc
    count, rest = divmod(len(planes), _WIDTH)
    if rest:
        raise ValueError("not a posting list")
    raw = bytearray(len(planes))
    for i in range(_WIDTH):
        raw[i::_WIDTH] = planes[i * count : (i + 1) * count]
    ids.frombytes(raw)
    return ids


Record = tuple[int, int, str, str, str]
"""One entry as a file's ``texts`` row holds it: (id, line, text, metadata JSON, context text)."""

DICT_BYTES = 32_768
"""The most bytes of a preset dictionary (deflate's window)."""
DICT_MIN_FILES = 10
"""A run of words goes in a preset dictionary only when at least this many files hold it."""
DICT_RUN = 3
"""The words of a run a preset dictionary is made of."""
DICT_SAMPLE = 10_000
"""At most about this many entries are read to make a dictionary."""


def _columns(rows: list[Record]) -> bytes:
    """One file's entries as columns, UTF-8: what deflate is given.

    A first line of JSON (the ids' ranks and sequence numbers and the lines,
    each less the one before), then every entry's text, metadata JSON and
    context joined by U+001F, which a reader splits at C speed; when a field
    holds U+001F itself, the whole is one JSON list instead (first line ``[``
    alone, :func:`unpack_entries` tells them apart).
    """
    ranks: list[int] = []
    seqs: list[int] = []
    lines: list[int] = []
    last = (0, 0, 0)
    for iid, line, _text, _meta, _ctx in rows:
        now = (iid >> 32, iid & 0xFFFFFFFF, line)
        ranks.append(now[0] - last[0])
        seqs.append(now[1] - last[1])
        lines.append(now[2] - last[2])
        last = now
    head = json.dumps([ranks, seqs, lines], separators=(",", ":"))
    fields = [f for r in rows for f in r[2:]]
    if any(_SEP in f for f in fields):
        body = json.dumps(fields, ensure_ascii=False, separators=(",", ":"))
        return ("[\n" + head + "\n" + body).encode("utf-8", "surrogatepass")
    return (head + "\n" + _SEP.join(fields)).encode("utf-8", "surrogatepass")


_SEP = "\x1f"


def pack_entries(rows: list[Record], zdict: tuple[int, bytes] | None = None) -> bytes:
    """The stored form of one file's entries: a byte naming the dictionary, then the columns deflated.

    Args:
        rows: the file's entries.
        zdict: (generation 1..255, preset dictionary) sampled from this index's own entries
            (:func:`sample_dict`), or None for none.
    """
    gen, preset = zdict if zdict is not None else (0, b"")
    packer = zlib.compressobj(6, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, preset) if preset else None
    if packer is None:
        packer = zlib.compressobj(6, zlib.DEFLATED, -15)
        gen = 0
    return bytes((gen,)) + packer.compress(_columns(rows)) + packer.flush()


def unpack_entries(blob: bytes, dicts: dict[int, bytes]) -> dict[int, tuple[int, str, str, str]]:
    """One file's entries from :func:`pack_entries`'s form: id to ``(line, text, meta JSON, context)``.

    Args:
        blob: the stored form.
        dicts: the index's preset dictionaries by generation (:func:`load_dicts`).

    Raises:
        ValueError: the blob is not one :func:`pack_entries` made with these dictionaries.
    """
    gen = blob[0]
    try:
        unpacker = zlib.decompressobj(-15, dicts[gen]) if gen else zlib.decompressobj(-15)
        data = unpacker.decompress(blob[1:]) + unpacker.flush()
        text = data.decode("utf-8", "surrogatepass")
        if text.startswith("[\n"):  # a field held the separator: JSON throughout
            head, body = text[2:].split("\n", 1)
            fields = json.loads(body)
        else:
            head, body = text.split("\n", 1)
            fields = body.split(_SEP) if body else []
        ranks, seqs, lines = json.loads(head)
    except (KeyError, zlib.error, ValueError) as exc:
        raise ValueError("not a file's entries") from exc
    if len(fields) != 3 * len(lines):
        raise ValueError("not a file's entries")
    ids = [(rank << 32) | seq for rank, seq in zip(accumulate(ranks), accumulate(seqs), strict=True)]
    rows = zip(accumulate(lines), fields[0::3], fields[1::3], fields[2::3], strict=True)
    return dict(zip(ids, rows, strict=True))


def load_dicts(db: sqlite3.Connection, schema: str = "") -> dict[int, bytes]:
    """The index's preset dictionaries by generation (stored in ``info`` as ``zdict1``, ``zdict2``, ...).

    Args:
        db: a connection to the index (or one it is attached to).
        schema: ``""``, or the attached index's schema name and a dot (``"r."``).
    """
    rows = db.execute(f"SELECT k, v FROM {schema}info WHERE k LIKE 'zdict%'")
    return {int(k[5:]): bytes(v) for k, v in rows if k[5:].isdigit()}


def sample_dict(db: sqlite3.Connection, texts: list[tuple[int, list[Record]]]) -> tuple[int, bytes] | None:
    """The preset dictionary to pack ``texts`` with: the newest one, or a new one made from ``texts``.

    A dictionary holds only words common to many files: each run of
    :data:`DICT_RUN` words (as the packed columns spell them) found in at least
    :data:`DICT_MIN_FILES` of the files sampled, most common last, up to
    :data:`DICT_BYTES`. So it quotes no one entry, and forgetting an entry leaves none of its own text in it
    (docs/architecture.md §5); compaction makes it again from what is left
    (:func:`repack_all`). A new one is made when none holds :data:`DICT_BYTES`
    yet and ``texts`` give one at least twice the size of the newest (a first
    sync of a small repo gives none or a small one; the files written from then
    on use the new one, the others keep theirs).

    Returns:
        tuple | None: (generation, dictionary), or None when there is none.
    """
    dicts = load_dicts(db)
    gen = max(dicts, default=0)
    have = len(dicts.get(gen, b""))
    if have < DICT_BYTES and gen < 255 and len(texts) >= DICT_MIN_FILES * 4:
        made = common_words(texts)
        if len(made) >= max(2 * have, 1024):
            gen += 1
            db.execute("INSERT OR REPLACE INTO info VALUES(?, ?)", (f"zdict{gen}", made))
            return gen, made
    return (gen, dicts[gen]) if gen else None


def common_words(texts: list[tuple[int, list[Record]]]) -> bytes:
    """A preset dictionary of the runs of words found in at least :data:`DICT_MIN_FILES` of the files (most common last).

    Runs of :data:`DICT_RUN` words, as the packed columns spell them (so
    deflate finds them whole), counted once a file.
    """
    step = max(1, sum(len(rows) for _fid, rows in texts) // DICT_SAMPLE)
    seen: Counter[str] = Counter()
    for _fid, rows in texts:
        runs: set[str] = set()
        for _iid, _line, text, meta, ctx in rows[::step]:
            words = _SEP.join((text, meta, ctx)).split(" ")
            runs.update(" ".join(words[i : i + DICT_RUN]) for i in range(max(1, len(words) - DICT_RUN + 1)))
        seen.update(runs)
    common = sorted((n, w) for w, n in seen.items() if n >= DICT_MIN_FILES)
    return " ".join(w for _n, w in common).encode("utf-8", "surrogatepass")[-DICT_BYTES:]


class PostingChanges:
    """The index changes gathered over one sync (or one batch of a build), written once per key by :meth:`flush`.

    Attributes:
        fresh: the index held no posting list when it began (nothing to read back, nothing to remove).
        items: new ``items`` rows ``(id, fid, line, ws)``.
        texts: each changed file's entries ``(fid, records)``, packed when written (each replaces the file's row).
        postings: how many ids were added (what a sync bounds its memory by).
    """

    def __init__(self, fresh: bool) -> None:
        self.fresh = fresh
        self.adds: dict[str, array[int]] = {}
        self.removes: dict[str, set[int]] = {}
        self.items: list[tuple[int, int, int, str | None]] = []
        self.texts: list[tuple[int, list[Record]]] = []
        self.postings = 0

    def add(self, key: str, iid: int) -> None:
        self.postings += 1
        got = self.adds.get(key)
        if got is None:
            self.adds[key] = array("q", (iid,))  # 8 bytes an id, no int object kept
        else:
            got.append(iid)

    def remove(self, key: str, iid: int) -> None:
        self.removes.setdefault(key, set()).add(iid)

    def flush_items(self, db: sqlite3.Connection) -> None:
        """Write the gathered ``items`` and ``texts`` rows."""
        if self.items:
            self.items.sort()  # ids in order: pages filled, not split
            db.executemany("INSERT INTO items VALUES(?, ?, ?, ?)", self.items)
            self.items = []
        if self.texts:
            zdict = sample_dict(db, self.texts)
            rows = [(fid, pack_entries(records, zdict)) for fid, records in self.texts]
            db.executemany("INSERT OR REPLACE INTO texts VALUES(?, ?)", rows)
            self.texts = []

    def flush(self, db: sqlite3.Connection, part: int | None = None) -> None:
        """Write everything gathered: rows, then each changed posting list once.

        Args:
            db: the index's connection, inside a transaction.
            part: for a batch of a first build, the part number its new lists
                are written under (each key's ids of this batch in a row of
                their own, nothing read back); None merges every change into
                the key's one list.
        """
        self.flush_items(db)
        merged = set(self.removes)
        if part is not None or self.fresh:
            rows: list[tuple[str, int, int, bytes | None, int | None]] = [
                (key, part or 0, len(ids), pack_ids(array("q", sorted(ids))), None)
                for key, ids in self.adds.items()
                if key not in merged
            ]
            rows.sort()  # keys in order: pages filled, not split
            for at, (key, n_part, n_ids, packed, _big_id) in enumerate(rows):
                if packed is not None and len(packed) > INLINE_MAX:
                    big = db.execute("INSERT INTO blobs(data) VALUES(?)", (packed,)).lastrowid
                    rows[at] = (key, n_part, n_ids, None, big)
            db.executemany("INSERT INTO post VALUES(?, ?, ?, ?, ?)", rows)
        else:
            merged.update(self.adds)
        for key in merged:
            merge_parts(db, key, self.adds.get(key, ()), self.removes.get(key, _EMPTY))
        self.adds = {}
        self.removes = {}


def read_ids(db: sqlite3.Connection, key: str) -> array[int] | None:
    """The sorted ids of ``key`` (its parts joined), or None when no entry holds it."""
    rows = db.execute("SELECT ids, big FROM post WHERE key=?", (key,)).fetchall()
    if not rows:
        return None
    blobs = [blob if big is None else _big(db, big) for blob, big in rows]
    if len(blobs) == 1:
        return unpack_ids(blobs[0])
    ids = array("q")
    for blob in blobs:
        ids.extend(unpack_ids(blob))
    return array("q", sorted(ids))


def _big(db: sqlite3.Connection, big: int) -> bytes:
    row = db.execute("SELECT data FROM blobs WHERE id=?", (big,)).fetchone()
    return b"\x00" if row is None else row[0]  # a row another writer dropped meanwhile: an empty list


def count_ids(db: sqlite3.Connection, key: str) -> int:
    """How many entries hold ``key``, without reading its list."""
    row = db.execute("SELECT sum(n) FROM post WHERE key=?", (key,)).fetchone()
    return int(row[0] or 0)


def merge_parts(db: sqlite3.Connection, key: str, add: Iterable[int] = (), rem: Set[int] = _EMPTY) -> None:
    """Make ``key``'s list one row (part 0): its parts joined, ``add`` added and ``rem`` removed."""
    add = tuple(add)
    ids = read_ids(db, key)
    existed = ids is not None
    if ids is None:
        ids = array("q")
    if len(add) + len(rem) <= 64:  # a few changes: edit the sorted array in place
        for iid in rem:
            at = bisect_left(ids, iid)
            if at < len(ids) and ids[at] == iid:
                del ids[at]
        for iid in add:
            at = bisect_left(ids, iid)
            if at == len(ids) or ids[at] != iid:
                ids.insert(at, iid)
    else:
        ids = array("q", sorted((set(ids) - rem) | set(add)))
    if existed:
        db.execute("DELETE FROM blobs WHERE id IN (SELECT big FROM post WHERE key=? AND big IS NOT NULL)", (key,))
        db.execute("DELETE FROM post WHERE key=?", (key,))
    if ids:
        packed: bytes | None = pack_ids(ids)
        big = None
        if packed is not None and len(packed) > INLINE_MAX:
            big = db.execute("INSERT INTO blobs(data) VALUES(?)", (packed,)).lastrowid
            packed = None
        db.execute("INSERT INTO post VALUES(?, 0, ?, ?, ?)", (key, len(ids), packed, big))


def merge_all_parts(db: sqlite3.Connection) -> int:
    """Join the parts of every key a build wrote in several batches (the end of a first build); returns how many keys."""
    keys = [key for (key,) in db.execute("SELECT key FROM post GROUP BY key HAVING count(*) > 1")]
    for key in keys:
        merge_parts(db, key)
    return len(keys)


class RecallIndexError(MemrepoError, sqlite3.OperationalError):
    """The recall index file could not be read or written (one line; what earlier batches committed is kept).

    A :class:`sqlite3.OperationalError` as well, so a caller that lets recall
    fall back on an index error still does.
    """


def index_error(path: str, exc: sqlite3.Error) -> RecallIndexError:
    """The one-line error for ``exc`` raised on the index file at ``path`` (docs/architecture.md §4)."""
    if isinstance(exc, RecallIndexError):
        return exc
    reason = str(exc).strip() or type(exc).__name__
    if is_disk_full(exc) or "full" in reason.lower():
        reason = "the disk is full"
    return RecallIndexError(
        f"the recall index {path} could not be written ({reason}); what was indexed so far is kept"
        " and the next recall resumes from there"
    )


def repack_all(db: sqlite3.Connection, on_damaged: Callable[[int], object]) -> None:
    """Make the preset dictionary again from the entries left and repack every file's entries with it.

    ``on_damaged(fid)`` is called, inside the transaction, for a file whose row does not unpack
    (:func:`memrepo.engine.read.recallheal.forget_file`).

    Compaction calls it (inside its transaction) before rewriting the index
    file whole, so no dictionary keeps a run of words of forgotten entries
    (docs/architecture.md §5). Two passes, one file's entries in memory at a
    time: a sample for the new dictionary, then the repacking.
    """
    old = load_dicts(db)
    fids = [fid for (fid,) in db.execute("SELECT fid FROM texts ORDER BY fid")]
    step = max(1, len(fids) // 2_000)  # the dictionary's sample: about 2,000 files
    sample: list[tuple[int, list[Record]]] = []
    for fid in fids[::step]:
        row = db.execute("SELECT body FROM texts WHERE fid=?", (fid,)).fetchone()
        with suppress(ValueError):  # a damaged row: mended below
            sample.append((fid, [(i, *rest) for i, rest in unpack_entries(row[0], old).items()]))
    db.execute("DELETE FROM info WHERE k LIKE 'zdict%'")
    zdict = sample_dict(db, sample) if sample else None
    del sample
    for fid in fids:
        row = db.execute("SELECT body FROM texts WHERE fid=?", (fid,)).fetchone()
        try:
            rows = [(i, *rest) for i, rest in unpack_entries(row[0], old).items()]
        except ValueError:  # a damaged row: its entries leave the index, the next sync reads the file again
            on_damaged(fid)
            continue
        db.execute("UPDATE texts SET body=? WHERE fid=?", (pack_entries(rows, zdict), fid))


def file_entries(db: sqlite3.Connection, paths: Iterable[str]) -> list[tuple[int, str, str]]:
    """(id, text, meta JSON) of every entry of the files ``paths`` (those indexed)."""
    out: list[tuple[int, str, str]] = []
    dicts = load_dicts(db)
    for path in dict.fromkeys(paths):
        body = db.execute("SELECT body FROM texts JOIN files USING(fid) WHERE path=?", (path,)).fetchone()
        if body is not None:
            with suppress(ValueError):  # a damaged row: the next search mends it (.recallheal)
                entries = unpack_entries(body[0], dicts)
                out.extend((iid, text, meta) for iid, (_line, text, meta, _ctx) in entries.items())
    return out
