"""Hybrid recall lists a line's replacement with it: the newer line of its file that replaces it (docs/architecture.md §4).

The model matches the words a fact was first written in. When a fact changed ("Current motor board revision is
rev B", then "Rev C is the current motor board ..."), the older line can be the query's near neighbour while the
newer one, worded otherwise, is far down the semantic list and holds none of the query's words: recall showed the
superseded line alone. The context block already knows which lines a newer line of the same file replaces (the
same ``subject:``, a ``supersedes:`` naming it, or a newer line about the same thing that says it changed:
:func:`~.contextselect.replaced`), so recall asks the same rule of each listed hit's file: a hit that a newer line
replaces brings that line along, just above it (the newer-wins rules then hold: the older line is shown, below).

Measured on the five tuning splits of benchmarks/recall_quality: hit@k, MRR, stale and no-answer unchanged (hybrid
and the prompt hook); 4 lists changed, each now showing the newer line above the older one it had shown alone.
A looser rule (a newer line of the file that is the hit's nearest by vector, and it the newer line's, at 0.89 or
more) brought unrelated lines (the model's cosines between lines of one file run 0.80-0.93) and cost the prompt
hook's hit@3 on repos C and D: not taken.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from .recallorder import plain_key

if TYPE_CHECKING:
    from .recall import RecallIndex

CACHE_FILES = 256
"""The replacements of this many files stay in memory (keyed by a digest of the file's entries: an edit makes a new
key)."""

_cache: OrderedDict[bytes, dict[int, int]] = OrderedDict()
_cache_lock = threading.Lock()  # the MCP server's worker thread and its recall door's thread both recall


def replaced_in(entries: dict[int, tuple[int, str, str, str]]) -> dict[int, int]:
    """Which entries of one file a newer entry replaces, by the context block's rule (:func:`~.contextselect.replaced`).

    Args:
        entries: the file's entries, item id -> (line, text, meta JSON, context) (:meth:`.recall.RecallIndex.file_entries`).

    Returns:
        dict[int, int]: a replaced entry's item id -> the item id of the newest entry that replaces it.
    """
    if len(entries) < 2:
        return {}
    digest = hashlib.blake2b(digest_size=16)  # a digest, not the texts: a cached file holds no text alive
    for iid, (line, text, meta, _ctx) in entries.items():
        digest.update(f"{iid}\x00{line}\x00{text}\x00{meta}\x01".encode("utf-8", "surrogatepass"))
    key = digest.digest()
    with _cache_lock:
        got = _cache.get(key)
        if got is not None:
            _cache.move_to_end(key)
            return got
    from memrepo.engine.format.entries import Entry

    from .contextselect import candidates, replaced

    at: dict[int, int] = {}
    rows = []
    for iid, (line, text, meta, _ctx) in sorted(entries.items(), key=lambda kv: kv[1][0]):
        try:
            parsed = json.loads(meta or "{}")
        except ValueError:
            parsed = {}
        at[line] = iid
        rows.append((line, Entry("", "-", text, parsed if isinstance(parsed, dict) else {})))
    gone = replaced(candidates(rows))
    out: dict[int, int] = {}
    for old, new in gone.items():
        while new in gone:  # the newest of a chain of replacements
            new = gone[new]
        out[at[old]] = at[new]
    with _cache_lock:
        _cache[key] = out
        while len(_cache) > CACHE_FILES:
            _cache.popitem(last=False)
    return out


def with_replacements(
    index: RecallIndex,
    hits: list[tuple[int, tuple]],
    limit: int,
) -> tuple[list[tuple[int, tuple]], dict[int, int]]:
    """``hits`` with, just above each of the first ``limit`` that a newer line of its file replaces, that line.

    A replacement already listed stays where it is (the newer-wins rules order the two). The list grows by the
    lines brought; the caller cuts it.

    Args:
        index: the recall index.
        hits: item ids with sort keys, best first.
        limit: how many hits are shown (only those bring their replacement).

    Returns:
        tuple: (the hits with the lines brought; each brought line's item id -> the item id of the line it replaces).
    """
    listed = {iid for iid, _key in hits}
    out: list[tuple[int, tuple]] = []
    brought: dict[int, int] = {}
    for iid, key in hits:
        if len(out) < limit:
            row = index.row(iid)
            new = replaced_in(index.file_entries(row[0])).get(iid) if row is not None else None
            if new is not None and new not in listed and index.row(new) is not None:
                out.append((new, plain_key(new, key)))
                listed.add(new)
                brought[new] = iid
        out.append((iid, key))
    return out, brought
