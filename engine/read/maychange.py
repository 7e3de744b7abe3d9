"""Whether a newer line of a file could replace a recall hit by the context block's rule: the rule's quick test,
so the rule itself (15-30 ms a file of 40 entries) is asked only when it may answer (docs/architecture.md §4).

What each line holds for the test is read once a file and cached by the entries' digest: asked for each of 200 hits
of one 400-entry file, it was read 200 times, three times over (8 s a recall; round 22).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, NamedTuple

from .boundedcache import MISSING, BoundedCache
from .contextselect import MIN_SHARED, topic_words

CACHE_FILES = 256
"""The lines of this many files stay in memory (keyed by a digest of the file's entries: an edit makes a new key)."""


def digest_of(entries: dict[int, tuple[int, str, str, str]]) -> bytes:
    """A 16-byte digest of a file's entries: the caches' key (not the texts: a cached file holds no text alive)."""
    digest = hashlib.blake2b(digest_size=16)
    for iid, (line, text, meta, _ctx) in entries.items():
        digest.update(f"{iid}\x00{line}\x00{text}\x00{meta}\x01".encode("utf-8", "surrogatepass"))
    return digest.digest()


def may_change(
    entries: dict[int, tuple[int, str, str, str]], iid: int, by_agent: bool = False, key: bytes | None = None
) -> bool:
    """Whether a newer entry of the file could replace entry ``iid`` by the context block's rule (with ``by_agent``:
    an agent's entry correct it, the user's): False only when none can, so the rule (15-30 ms a file of 40 entries)
    is asked only when it may answer.

    The rule relates two lines by a ``subject:`` or ``supersedes:`` naming the older one (:func:`_names`), or by a topic word they share
    (:func:`~.contextselect.topic_terms`: a stem keeps three characters or more of its word); so a newer line that has
    neither and shares no word's first three characters with the entry (stop words and numbers aside) cannot; one that
    does not say it changed (:func:`_says_change`) only by restating it (the same numbers and at least
    :data:`~.contextselect.MIN_SHARED` topic words shared, before the file's common words go), and an agent's line never
    corrects the user's so. What each line holds for these tests is read once a file (:func:`_lines_of`, cached by
    the entries' digest): asked for each of 200 hits of one 400-entry file it was read 200 times (8 s a recall).
    """
    lines = _lines_of(entries, digest_of(entries) if key is None else key)
    own = lines[iid]
    if by_agent and own.by == "agent":
        return False  # an agent's line is never marked so
    for other in lines.values():
        if other.when <= own.when or other.iid == iid:
            continue
        if by_agent and other.by != "agent":
            continue
        if _names(other, own):
            return True
        if other.says_change:
            if own.rough & other.rough:
                return True
        elif not by_agent and own.numbers == other.numbers and len(own.topic & other.topic) >= MIN_SHARED:
            return True
    return False


class _Line(NamedTuple):
    """What :func:`may_change` reads of one entry, folded once."""

    iid: int
    when: tuple[str, int]  # (its date, or the newest date above it; its line)
    by: str
    subject: str  # folded
    supersedes: str  # folded
    text: str  # folded
    says_change: bool
    rough: frozenset[str]
    numbers: frozenset[str]
    topic: frozenset[str]


_lines_cache = BoundedCache(CACHE_FILES)
""":func:`_lines_of` of a file, by its digest."""


def _lines_of(entries: dict[int, tuple[int, str, str, str]], key: bytes) -> dict[int, _Line]:
    """Each entry of a file as :func:`may_change` reads it, in line order, cached by ``key`` (the entries' digest,
    :func:`digest_of`; up to :data:`CACHE_FILES` files)."""
    got = _lines_cache.get(key)
    if got is not MISSING:
        return got
    from memrepo.engine.format.terms import fold, split_folded

    out: dict[int, _Line] = {}
    newest = ""
    for iid, (at, text, meta_json, _ctx) in sorted(entries.items(), key=lambda kv: kv[1][0]):
        meta = _meta(meta_json)
        added = str(meta.get("added", "")).strip()[:10]  # as contextselect.candidates dates a line
        newest = max(newest, added)
        folded = fold(text)
        words = split_folded(folded)
        out[iid] = _Line(
            iid=iid,
            when=(added or newest, at),
            by=_by_meta(meta),
            subject=fold(str(meta.get("subject", ""))),
            supersedes=fold(str(meta.get("supersedes", ""))),
            text=folded,
            says_change=_says_change(folded, words),
            rough=_rough(words),
            numbers=frozenset(w for w in words if w.isdigit()),
            topic=frozenset(topic_words(text)),
        )
    _lines_cache.put(key, out)
    return out


def _names(new: _Line, old: _Line) -> bool:
    """Whether a newer entry's metadata names an older one as the rule reads it: the same ``subject:``, or a
    ``supersedes:`` that is its subject or, of 8 characters or more, in its text (folded)."""
    if old.subject and new.subject == old.subject:
        return True
    named = new.supersedes
    return bool(named) and (named == old.subject or (len(named) >= 8 and named in old.text))


def _says_change(folded: str, words: list[str]) -> bool:
    """Whether a line could replace or correct another by saying so (:func:`~.contextselect.replaced`; else only a
    restatement replaces, and never corrects): it holds a change word, a "not" ("X, not Y") or a leading label
    ("Editor: ..."). ``folded``: the line's text folded; ``words``: its words."""
    from .changewords import CHANGE_WORDS

    return ":" in folded or any(w in CHANGE_WORDS or w == "not" for w in words)


def _meta(meta_json: str) -> dict[str, Any]:
    try:
        meta = json.loads(meta_json or "{}")
    except ValueError:
        return {}
    return meta if isinstance(meta, dict) else {}


def _by_meta(meta: dict[str, Any]) -> str:
    from .recallkeys import hit_by

    return hit_by({k: str(v) for k, v in meta.items()})


def _rough(words: list[str]) -> frozenset[str]:
    """The first three characters of each of a line's folded ``words`` that can be a topic word (no stop word, no
    number)."""
    from .changewords import STOP_WORDS

    return frozenset(w[:3] for w in words if len(w) > 1 and not w.isdigit() and w not in STOP_WORDS)


__all__ = ["digest_of", "may_change"]
