"""One memory file's entries into the recall index: read it, match what it held, gather the posting changes.

:class:`memrepo.engine.read.recall.RecallIndex` owns the index, its syncs and its
searches (docs/architecture.md §4); this module holds the per-file step of a
sync. An entry that only moved (same text, metadata and context) keeps its id, so no posting list changes for it;
a file touched but not changed (same content hash) is not parsed again.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

try:  # hashlib's own BLAKE2, without importing hashlib (and OpenSSL's _hashlib: 3 ms of a one-shot recall)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter built without it
    from hashlib import blake2b


from .recallcontext import entry_context, section_context
from .recallheal import drop_file_items, warn
from .recallkeys import MAX_INDEXED_FILE as MAX_INDEXED_FILE  # re-exported: recallscan and Health read it here
from .recallkeys import SEQ_BITS, SEQ_MASK, FileStat, entry_keys, entry_rank, redacted
from .recallpost import PostingChanges, load_dicts, unpack_entries


def update_file(
    db: sqlite3.Connection, root: Path, rel: str, st: FileStat | None, changes: PostingChanges, seq: int
) -> tuple[int, int, int, int]:
    """Bring one file's entries in the index up to date (docs/architecture.md §4).

    Args:
        db: the index's connection, inside the sync's transaction.
        root: the work tree.
        rel: the file, repo-relative.
        st: its stat now; None when it is gone (its entries are dropped).
        changes: the posting changes the sync gathers.
        seq: the last item sequence number used.

    Returns:
        tuple: (next seq, entries added, entries removed, 1 if the file changed else 0).
    """
    from memrepo.engine.errors import FormatError
    from memrepo.engine.files.regularfile import read_work_file
    from memrepo.engine.format import entries as fmt
    from memrepo.engine.format.paths import normalize_workspace

    row = db.execute("SELECT fid, mtime, size, hash FROM files WHERE path=?", (rel,)).fetchone()
    data = None
    if st is None:
        if row is None:
            return seq, 0, 0, 0
        fid = row[0]
        db.execute("DELETE FROM files WHERE fid=?", (fid,))
    else:
        if row is not None and (row[1], row[2]) == (st.st_mtime_ns, st.st_size):
            return seq, 0, 0, 0
        if st.st_size <= MAX_INDEXED_FILE:
            with contextlib.suppress(OSError):
                data = read_work_file(root / rel)
        digest = None if data is None else blake2b(data, digest_size=16).digest()
        stamp = (st.st_mtime_ns, st.st_size, digest)
        if row is None:
            query = "INSERT INTO files(path, mtime, size, hash) VALUES(?, ?, ?, ?)"
            fid = int(db.execute(query, (rel, *stamp)).lastrowid or 0)
        else:
            fid = row[0]
            db.execute("UPDATE files SET mtime=?, size=?, hash=? WHERE fid=?", (*stamp, fid))
        if row is not None and digest is not None and row[3] == digest:
            return seq, 0, 0, 0  # touched, not changed (a checkout, a copy): nothing to parse
    # What the file held: matched with what it holds now by text and metadata, so an
    # entry that only moved keeps its id and no posting list changes for it.
    old: dict[tuple[str, str, str], list[tuple[int, int]]] = {}
    dropped = 0
    if row is not None and not changes.fresh:
        body = db.execute("SELECT body FROM texts WHERE fid=?", (fid,)).fetchone()
        if body is not None:
            try:
                held = unpack_entries(body[0], load_dicts(db))
            except ValueError:  # a damaged row: its entries leave by id, the file is read as new (.recallheal)
                held = {}
                dropped = drop_file_items(db, fid)
                warn(rel)
            for iid, (line, text, was_meta, ctx) in held.items():
                old.setdefault((text, was_meta, ctx), []).append((iid, line))
    entries: list[tuple[int, fmt.Entry]] = []
    contexts: dict[int, str] = {}
    if data is not None:
        try:
            parsed = fmt.parse(data, rel, replace=True)  # a stray non-UTF-8 byte hides no entry
            entries = parsed.entries()
            contexts = section_context([ln.text for ln in parsed.lines])
        except FormatError:
            entries = []  # unreadable or not text: indexed as empty, retried when it changes
    added = 0
    records: list[tuple[int, int, str, str, str]] = []
    once: dict[str, str] = {}  # a value repeats within a file (a date, "agent", a heading's context): redacted once
    for number, entry in entries:
        # The index holds text only as it may leave: redacted, like every derived file (docs/architecture.md §4).
        text = _redacted_once(entry.text, once)
        meta = {k: _redacted_once(v, once) for k, v in entry.meta.items()}
        meta_json = json.dumps(meta, ensure_ascii=False)
        ctx = _redacted_once(entry_context(contexts.get(number, ""), meta), once)
        kept = old.get((text, meta_json, ctx))
        if kept:
            iid, line = kept.pop()
            if line != number:
                db.execute("UPDATE items SET line=? WHERE id=?", (number, iid))
            records.append((iid, number, text, meta_json, ctx))
            continue
        seq = (seq + 1) & SEQ_MASK
        iid = (entry_rank(meta) << SEQ_BITS) | seq
        ws_value = meta.get("workspace")
        ws = normalize_workspace(ws_value)[0] if ws_value and ws_value.strip() else None
        changes.items.append((iid, fid, number, ws))
        records.append((iid, number, text, meta_json, ctx))
        for key in entry_keys(text, ctx):
            changes.add(key, iid)
        added += 1
    if records:
        changes.texts.append((fid, records))
    elif row is not None:
        db.execute("DELETE FROM texts WHERE fid=?", (fid,))
    gone = [pair for pairs in old.values() for pair in pairs]
    for (text, _meta_json, ctx), pairs in old.items():
        if not pairs:
            continue
        keys = entry_keys(text, ctx)
        for iid, _line in pairs:
            for key in keys:
                changes.remove(key, iid)
    if gone:
        db.executemany("DELETE FROM items WHERE id=?", [(iid,) for iid, _ in gone])
        db.executemany("DELETE FROM shown WHERE id=?", [(iid,) for iid, _ in gone])
    return seq, added, len(gone) + dropped, 1


def _redacted_once(text: str, once: dict[str, str]) -> str:
    """``text`` as :func:`.recallkeys.redacted` gives it, remembered in ``once`` (one file's texts, one allow-list)."""
    got = once.get(text)
    if got is None:
        got = once[text] = redacted(text)
    return got
