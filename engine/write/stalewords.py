"""The words of an editor's stale-save question: what the save does and which entries it names
(docs/architecture.md §3; :func:`memrepo.engine.write.staleanswer.stale_question` asks it, the app words its
dialogs around :func:`stale_did`).
"""

from __future__ import annotations

import re


def stale_title(dropped: list[str], revived: list[str]) -> str:
    """What a stale save does, in words: ``a save drops 1 entry memrepo wrote after its copy was read``."""
    return f"a save {stale_did(dropped, revived)}"


def stale_did(dropped: list[str], revived: list[str]) -> str:
    """The verb phrase of :func:`stale_title`: ``drops 1 entry memrepo wrote after its copy was read and brings
    back 2 entries memrepo removed after its copy was read`` (the app words its dialogs around it)."""
    parts = []
    if dropped:
        parts.append(f"drops {_count(dropped)} memrepo wrote after its copy was read")
    if revived:
        parts.append(f"brings back {_count(revived)} memrepo removed after its copy was read")
    return " and ".join(parts)


NAMED_MAX = 5
"""Entries a stale-save question names at most (:func:`stale_named`); the rest are counted."""


def stale_named(dropped: list[str], revived: list[str]) -> str:
    """The entries a stale-save question counts, by their text: ``dropped "I live in Lyon", "My editor is Emacs"``.

    The user sees which entries "put back" brings back and which "commit" drops (breaker8 B8-5: neither
    answer named them, and put-back silently undid a deletion).
    """
    parts = []
    for word, lines in (("dropped", dropped), ("brought back", revived)):
        if lines:
            shown = ", ".join(f'"{_entry_text(line)}"' for line in lines[:NAMED_MAX])
            more = f" and {len(lines) - NAMED_MAX} more" if len(lines) > NAMED_MAX else ""
            parts.append(f"{word} {shown}{more}")
    return "; ".join(parts)


_BULLET = re.compile(r"^\s*[-*+]\s+(?:\[[ xX]\]\s+)?")
_META = re.compile(r"(?<!\s)\s*\[[^\[\]]*:[^\[\]]*\]\s*$")


def _entry_text(line: str, limit: int = 80) -> str:
    """An entry line's text without its bullet and metadata, cut to ``limit`` characters."""
    text = _META.sub("", _BULLET.sub("", line, count=1)).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def put_back_words(dropped: list[str], revived: list[str]) -> str:
    """What "put back" keeps: the save with the dropped entries back and the revived ones left out."""
    back = f"with {'it' if len(dropped) == 1 else 'them'} back" if dropped else ""
    out = f"without the {'one' if len(revived) == 1 else 'ones'} memrepo removed" if revived else ""
    return " and ".join(x for x in (back, out) if x)


def _count(lines: list[str]) -> str:
    """``1 entry``, ``3 entries``."""
    return f"{len(lines)} {'entry' if len(lines) == 1 else 'entries'}"
