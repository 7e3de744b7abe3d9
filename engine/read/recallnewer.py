"""Hybrid recall lists a line's replacement with it: the newer line of its file that replaces it (docs/architecture.md §4).

The model matches the words a fact was first written in. When a fact changed ("EMC test slot booked for the week
of 16 March", then "EMC slot moved to 8-12 June ..."), the older line can be the query's near neighbour while the
newer one, worded otherwise, is far down the semantic list and holds none of the query's words: recall showed the
superseded line alone. Two rules say which newer line of a listed hit's file replaces it:

- the context block's (:func:`~.contextselect.replaced`): the same ``subject:``, a ``supersedes:`` naming it, or a
  newer line sharing most of its topic words that says it changed;
- the same judged by the model (:func:`said_changed`): the newer line says it changed (a change word of the context
  block's) and the two are each the other's nearest line of the file by vector, at
  :data:`~.semantic_fuse.RESTATED` or more (the cosine at which :func:`~.recallorder.newer_restated` takes two lines
  for one fact). Restated at length, a replacement shares few words ("Ported the controller from FreeRTOS to
  Zephyr ..."): the words rule finds 13 of the 44 superseded pairs of the labelled tuning repos.

The replacement is put just above the hit (brought from outside the list, or moved up from further down), so the
older line is shown, below. Measured on the five tuning splits of benchmarks/recall_quality: repo E paraphrase
hit@5 0.675 -> 0.700 (hybrid), hit@3 0.550 -> 0.575 (the prompt hook), stale 0.100 -> 0.075; every other figure
of every split unchanged. Without the change word, mutual nearest lines at 0.89 paired unrelated lines (the model's
cosines between lines of one file run 0.80-0.93) and cost the prompt hook's hit@3 on repos C and D.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .boundedcache import MISSING, BoundedCache
from .contextselect import Candidate, may_replace
from .maychange import digest_of, may_change
from .recallkeys import SEQ_BITS
from .recallorder import plain_key

if TYPE_CHECKING:
    from .recall import RecallIndex

CACHE_FILES = 256
"""The replacements of this many files stay in memory (keyed by a digest of the file's entries: an edit makes a new
key)."""

_cache = BoundedCache(CACHE_FILES)
"""(:func:`replaced_in`, :func:`disputed_in`) of a file, by its digest and the day."""
_model_cache = BoundedCache(CACHE_FILES * 16)
"""The answers of :func:`said_changed` by (file digest, hit, cosine), for up to 16 times :data:`CACHE_FILES` hits."""


def replaced_in(entries: dict[int, tuple[int, str, str, str]], key: bytes | None = None) -> dict[int, int]:
    """Which entries of one file a newer entry replaces, by the context block's rule (:func:`~.contextselect.replaced`).

    Args:
        entries: the file's entries, item id -> (line, text, meta JSON, context) (:meth:`.recall.RecallIndex.file_entries`).
        key: :func:`digest_of` the entries, when the caller has it.

    Returns:
        dict[int, int]: a replaced entry's item id -> the item id of the newest entry that replaces it.
    """
    if len(entries) < 2:
        return {}
    return _judged(entries, key)[0]


def disputed_in(entries: dict[int, tuple[int, str, str, str]], key: bytes | None = None) -> dict[int, int]:
    """Which of the user's entries of one file a newer agent entry corrects, by the context block's rule (an agent's
    line never replaces the user's: the block marks it "(an agent line since says: L<n>)", :func:`~.contextselect.replaced`).

    Args:
        entries, key: as for :func:`replaced_in`.

    Returns:
        dict[int, int]: the user's entry's item id -> the item id of the newest agent entry that corrects it.
    """
    return _judged(entries, key)[1]


def marks_of(index: RecallIndex, iids: list[int]) -> dict[int, tuple[int | None, int | None]]:
    """The block's marks of each of ``iids`` that has one, by item id: (:func:`since_lines`'s line, the line of
    the newest entry of its file that replaces it by the block's rule, :func:`replaced_in`), either None.

    The block hides a replaced line; recall lists it under its replacement (:func:`with_replacements`), marked
    "(replaced by L<n>)" in every front end (breaker11 B11-7: the prompt hook gave a replaced pin unmarked).
    """
    files: dict[str, tuple[dict[int, tuple[int, str, str, str]], bytes]] = {}
    since = since_lines(index, iids, files)
    out: dict[int, tuple[int | None, int | None]] = {}
    for iid in iids:
        entries, key = _file_of(index, iid, files)
        new = replaced_in(entries, key).get(iid) if len(entries) > 1 and may_change(entries, iid, key=key) else None
        line = entries[new][0] if new is not None and new in entries else None
        if line is not None or iid in since:
            out[iid] = (since.get(iid), line)
    return out


def since_lines(
    index: RecallIndex,
    iids: list[int],
    files: dict[str, tuple[dict[int, tuple[int, str, str, str]], bytes]] | None = None,
) -> dict[int, int]:
    """The line of the agent entry that corrects each of ``iids`` that one corrects (:func:`disputed_in`), by item id.

    Recall shows the block's mark with such a hit (breaker7 B7-18): the agent reading "My editor is vim" in a recall
    hit is told that a newer agent line says otherwise, and where. ``files``: the files read so far (:func:`_file_of`).
    """
    files = {} if files is None else files
    out: dict[int, int] = {}
    for iid in iids:
        entries, key = _file_of(index, iid, files)
        new = disputed_in(entries, key).get(iid) if len(entries) > 1 and may_change(entries, iid, True, key) else None
        if new is not None and new in entries:
            out[iid] = entries[new][0]
    return out


def _file_of(
    index: RecallIndex, iid: int, files: dict[str, tuple[dict[int, tuple[int, str, str, str]], bytes]]
) -> tuple[dict[int, tuple[int, str, str, str]], bytes]:
    """The entries of the file holding item ``iid`` and their :func:`digest_of`, read once a file a call (``files``:
    path -> both, filled): 200 hits of one file read and hashed its 400 entries 800 times."""
    row = index.row(iid)
    if row is None:
        return {}, digest_of({})
    got = files.get(row[0])
    if got is None:
        entries = index.file_entries(row[0])
        got = files[row[0]] = (entries, digest_of(entries))
    return got


def _judged(entries: dict[int, tuple[int, str, str, str]], key: bytes | None) -> tuple[dict[int, int], dict[int, int]]:
    """(:func:`replaced_in`, :func:`disputed_in`) of one file's entries, cached by their digest and the day: a line
    past its ``until:`` date (:func:`.modeline.past`) replaces nothing, as in the context block."""
    if len(entries) < 2:
        return {}, {}
    from .modeline import past, today_iso

    today = today_iso()
    key = (digest_of(entries) if key is None else key) + today.encode()
    got = _cache.get(key)
    if got is not MISSING:
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
        if isinstance(parsed, dict) and "until" in parsed and past(parsed, today):
            continue
        at[line] = iid
        rows.append((line, Entry("", "-", text, parsed if isinstance(parsed, dict) else {})))
    said: dict[int, int] = {}
    gone = replaced(candidates(rows), said)
    out: dict[int, int] = {}
    for old, new in gone.items():
        while new in gone:  # the newest of a chain of replacements
            new = gone[new]
        out[at[old]] = at[new]
    judged = (out, {at[old]: at[new] for old, new in said.items()})
    _cache.put(key, judged)
    return judged


def said_changed(
    vecs: dict[int, Any],
    iid: int,
    entries: dict[int, tuple[int, str, str, str]],
    restated: float,
) -> int | None:
    """The newer line of a hit's file about the same thing that says it changed, judged by the model: of the file's
    lines, the two are each the other's nearest by vector, at ``restated`` or more, and the newer holds a change word
    (:data:`~.contextselect.CHANGE_WORDS`: "now", "moved", "replaced", ...) and may replace it as in the context
    block (an agent's line never the user's, one ``workspace:``, a rule only by a rule); None when there is none.

    Args:
        vecs: the file's entries' unit vectors by item id (those that have one).
        iid: the hit's item id.
        entries: its file's entries (:meth:`.recall.RecallIndex.file_entries`).
        restated: the cosine from which two lines of one file are about one fact (:data:`.semantic_fuse.RESTATED`).
    """
    import numpy as np

    from .contextselect import topic_terms

    if iid not in vecs or len(vecs) < 2:
        return None
    ids = list(vecs)
    mat = np.stack([vecs[i] for i in ids])
    own = ids.index(iid)
    sims = mat @ mat[own]
    sims[own] = -2.0
    best = int(np.argmax(sims))
    new = ids[best]
    if float(sims[best]) < restated or (new >> SEQ_BITS) <= (iid >> SEQ_BITS):
        return None
    back = mat @ mat[best]
    back[best] = -2.0
    if int(np.argmax(back)) != own or not topic_terms(entries[new][1]).change:
        return None
    return new if may_replace(_candidate(entries[new]), _candidate(entries[iid])) else None


def _candidate(entry: tuple[int, str, str, str]) -> Candidate:
    """An indexed entry (line, text, meta JSON, context) as the context block's rules see it."""
    from memrepo.engine.format.entries import Entry

    try:
        meta = json.loads(entry[2] or "{}")
    except ValueError:
        meta = {}
    meta = meta if isinstance(meta, dict) else {}
    return Candidate(entry[0], Entry("", "-", entry[1], meta), str(meta.get("added", ""))[:10])


def _said_changed_cached(
    vectors: Callable[[list[int]], dict[int, Any]],
    iid: int,
    entries: dict[int, tuple[int, str, str, str]],
    restated: float,
    key: bytes,
) -> int | None:
    """:func:`said_changed`, its answer kept while the file's entries stay the same and all have a vector."""
    kept = _model_cache.get((key, iid, restated))
    if kept is not MISSING:
        return kept
    vecs = vectors(list(entries))
    got = said_changed(vecs, iid, entries, restated)
    if len(vecs) == len(entries):  # a vector still to build could change the answer: not kept
        _model_cache.put((key, iid, restated), got)
    return got


def with_replacements(
    index: RecallIndex,
    hits: list[tuple[int, tuple]],
    limit: int,
    vectors: Callable[[list[int]], dict[int, Any]] | None = None,
    restated: float = 1.0,
    pairs: dict[int, int] | None = None,
) -> tuple[list[tuple[int, tuple]], dict[int, int]]:
    """``hits`` with, just above each of the first ``limit`` that a newer line of its file replaces, that line.

    A replacement listed further down moves up to just above the line it replaces; one listed above stays. The
    list grows by the lines brought from outside it; the caller cuts it.

    Args:
        index: the recall index.
        hits: item ids with sort keys, best first.
        limit: how many hits are shown (only those bring their replacement).
        vectors: item ids -> their unit vectors (:meth:`.semantic_store.VectorStore.vectors_of`) for the model's
            judgement (:func:`said_changed`); None: the context block's rule only.
        restated: :func:`said_changed`'s cosine.
        pairs: filled, when given, with each of those hits that a line of the result replaces -> that line.

    Returns:
        tuple: (the hits with the lines brought or moved; each line brought from outside the list's item id -> the
        item id of the line it replaces).
    """
    keys = dict(hits)
    files: dict[str, tuple[dict[int, tuple[int, str, str, str]], bytes]] = {}
    out: list[tuple[int, tuple]] = []
    placed: set[int] = set()
    brought: dict[int, int] = {}
    for iid, key in hits:
        if iid in placed:
            continue  # moved above the line it replaces
        if len(out) < limit:
            entries, digest = _file_of(index, iid, files)
            new = replaced_in(entries, digest).get(iid) if may_change(entries, iid, key=digest) else None
            if new is None and vectors is not None and len(entries) > 1:
                new = _said_changed_cached(vectors, iid, entries, restated, digest)
            if pairs is not None and new is not None and (new in placed or index.row(new) is not None):
                pairs[iid] = new  # shown above it, or brought just above it next
            if new is not None and new not in placed and index.row(new) is not None:
                if new not in keys:
                    brought[new] = iid
                out.append((new, keys.get(new) or plain_key(new, key)))
                placed.add(new)
        out.append((iid, key))
        placed.add(iid)
    return out, brought


def scan_with_replacements(root: Path, hits: list[Any], limit: int, redact: Callable[[str], str]) -> list[Any]:
    """The prompt hook's hits read from a scan of the files (the index's first build runs elsewhere), each of the
    first ``limit`` that a newer line of its file replaces with that line just above it (:func:`with_replacements`'s
    rule, for hits with no index to ask: their files parsed, each once).

    Args:
        root: the work tree.
        hits: the scan's hits (:class:`.coldhit.ColdHit`), best first.
        limit: the hook's places.
        redact: what makes an entry's text and metadata as recall shows them.

    Returns:
        list: at most ``limit`` hits; a line brought is a copy of the hit it replaces (its score and confidence: it
        stands in that hit's place) with its own path, line, text, metadata and author.
    """
    import copy

    from .recallkeys import hit_by

    listed = {(hit.path, hit.line): hit for hit in hits}
    files: dict[str, tuple[dict[int, int], dict[int, Any]]] = {}
    out: list[Any] = []
    placed: set[tuple[str, int]] = set()
    for hit in hits:
        if (hit.path, hit.line) in placed:
            continue  # moved above the line it replaces
        if len(out) < limit:
            if hit.path not in files:
                files[hit.path] = _file_replacements(root / hit.path)
            gone, entries = files[hit.path]
            new = gone.get(hit.line)
            if new is not None and (hit.path, new) not in placed:
                got = listed.get((hit.path, new))
                if got is None:
                    got = copy.copy(hit)
                    meta = {k: redact(v) for k, v in entries[new].meta.items()}
                    got.line, got.ref, got.meta, got.by = new, f"repo:{hit.path}#L{new}", meta, hit_by(meta)
                    got.text = redact(entries[new].text)
                out.append(got)
                placed.add((hit.path, new))
            if new is not None:
                hit.replaced_by = new  # the block's mark (:func:`marks_of`)
        out.append(hit)
        placed.add((hit.path, hit.line))
    return out[:limit]


def _file_replacements(path: Path) -> tuple[dict[int, int], dict[int, Any]]:
    """(a replaced line's number -> the newest line that replaces it, the file's entries by line) of one memory file,
    by the context block's rule; nothing for a file that cannot be read or parsed."""
    from memrepo.engine.errors import FormatError
    from memrepo.engine.format.entries import parse

    from .contextselect import candidates, replaced

    try:
        parsed = parse(path.read_bytes(), path.name, replace=True)
    except (OSError, FormatError):
        return {}, {}
    rows = parsed.entries()
    gone = replaced(candidates(rows)) if len(rows) > 1 else {}
    out = {}
    for old, new in gone.items():
        while new in gone:  # the newest of a chain of replacements
            new = gone[new]
        out[old] = new
    return out, dict(rows)
