"""An entry's topic words, numbers, change words and former values: what the context block's replacement rule
compares (docs/architecture.md §4, step 1).

Split from :mod:`.contextselect` (which decides which lines a newer line replaces) by job: this module reads one
line (:func:`topic_terms`, :class:`Topic`); recall asks it too (:func:`topic_words`).
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import NamedTuple

from memrepo.engine.format.terms import fold, split_folded
from memrepo.engine.read.changewords import (
    CHANGE_PAIRS,
    CHANGE_WORDS,
    SHORT_FORMS,
    SHORT_PHRASES_RE,
    STOP_WORDS,
    named_versions,
)
from memrepo.engine.read.samefact import LABEL_RE, NOTE_LABELS
from memrepo.engine.read.samevalue import passing_switch


def _stem(word: str) -> str:
    """A crude English stem, so "pushing", "pushes" and "push" meet: -ing, -ed, -es, -s cut from longer words; a
    word with a short form engineers write is that form (:data:`.changewords.SHORT_FORMS`: "documentation" -> "doc")."""
    if not word.isascii() or not word.isalpha():
        return word
    for suffix, keep in (("ing", 5), ("ed", 4), ("es", 4), ("s", 3)):
        if word.endswith(suffix) and len(word) > keep and not word.endswith("ss"):
            if suffix == "es" and not word[:-2].endswith(_SIBILANTS):
                continue  # "instances" -> "instance" (as "instance"), "pushes" -> "push"
            word = word[: -len(suffix)]
            break
    return SHORT_FORMS.get(word, word)  # "documentation" meets "docs"


_SIBILANTS = ("s", "x", "z", "ch", "sh")


class Topic(NamedTuple):
    """What :func:`topic_terms` finds in an entry.

    Attributes:
        words: topic words (folded, stemmed; function words, change words and numbers left out; CJK bigrams kept).
        numbers: the numbers in it.
        change: whether it holds a word of :data:`CHANGE_WORDS`.
        was: the first topic word in the three after each "from" ("switched from npm to pnpm": npm): what
            the line says was true before.
        head: the topic words (one or two) just before "is now", "are now", "is no longer" ("timezone is now CET"): what the
            line says changed.
        versions: (name, number, changed) of each name followed by a number ("Postgres 15", "Terraform 1.9"; a date
            is none); changed: a change word is within three words before it or two after ("is now Postgres 15",
            "upgraded infra to Terraform 1.9", "on Postgres 16 now"): the line says this number changed.
        label: the line's leading label, folded ("current focus" of "Current focus: ..."; "" when none).
        named: as ``was``, after the other words of :data:`WAS_MARKERS` ("replaces 7f3k2q", "no longer on
            Fedora", "instead of S3"); these name an older line only with :data:`MIN_SHARED` topic words shared
            and when it does not name the same word so itself (two lines "rebase instead of merge" for two areas
            are two preferences, not one changed from the other).
        denied: the value a closing "X, not Y" denies ("Thursday, not Tuesday": tuesday; "not" then one word that
            ends its clause, :data:`_DENIED_RE`): the line corrects an older line holding Y when it also says all
            that line's other topic words (:func:`_denies`), with or without a change word.
    """

    words: frozenset[str]
    numbers: frozenset[str]
    change: bool
    was: frozenset[str]
    head: frozenset[str] = frozenset()
    versions: frozenset[tuple[str, str, bool]] = frozenset()
    label: str = ""
    named: frozenset[str] = frozenset()
    denied: frozenset[str] = frozenset()


def topic_words(text: str) -> frozenset[str]:
    """:func:`topic_terms`'s ``words`` alone, without its patterns (recall's quick test, :func:`.recallnewer.may_change`)."""
    return frozenset(s for w in _split(text) if _topic_word(w) and (s := _stem(w)) not in _CHANGE_STEMS)


def _split(text: str) -> list[str]:
    """The folded words of an entry's text, "pull request" as "pr" (:data:`.changewords.SHORT_PHRASES_RE`)."""
    folded = named_versions(fold(text))
    if "request" in folded:
        folded = SHORT_PHRASES_RE.sub(lambda m: "pr" if m[1] else "mr", folded)
    return split_folded(folded)


def topic_terms(text: str) -> Topic:
    """An entry's topic words, numbers, change words and former values (:class:`Topic`).

    Args:
        text: the entry's text (no metadata).
    """
    words = _split(text)
    numbers = frozenset(w for w in words if w.isdigit())
    change = _has_change(words)
    stems = [_stem(w) for w in words]
    topic = frozenset(s for w, s in zip(words, stems, strict=True) if _topic_word(w) and s not in _CHANGE_STEMS)
    marked = [
        (w, next((stems[k] for k in range(i + 1, min(i + 4, len(words))) if _topic_word(words[k])), ""))
        for i, w in enumerate(words)
        if w in WAS_MARKERS and (w != "of" or words[i - 1 : i] == ["instead"])
    ]
    was = frozenset(v for w, v in marked if w == "from" and not passing_switch(text)) - {""}
    named = frozenset(v for w, v in marked if w != "from") - {""}
    folded = named_versions(fold(text))
    head: set[str] = set()
    for clause in _head_clauses(folded):  # the words of its clause just before "is now"
        before = split_folded(clause)
        for word in reversed(before[-2:]):
            if not _topic_word(word) or _stem(word) in _CHANGE_STEMS:
                break
            head.add(_stem(word))
    versions = []
    for m in _VERSION_RE.finditer(folded):
        if _topic_word(m[1]):
            near = split_folded(folded[: m.start()])[-3:] + split_folded(folded[m.end() :])[:2]
            versions.append((_stem(m[1]), m[2], any(w in CHANGE_WORDS for w in near)))
    label_at = LABEL_RE.match(folded)
    label = label_at[1].strip() if label_at else ""
    if label in NOTE_LABELS:
        label = ""  # "Reminder:" names no value (breaker13 B13-15)
    denied = (
        frozenset(_stem(w) for w in _DENIED_RE.findall(folded) if _topic_word(w)) if "not" in folded else frozenset()
    )
    return Topic(topic, numbers, change, was, frozenset(head), frozenset(versions), label, named, denied)


WAS_MARKERS = frozenset({"from", "replaces", "replacing", "replaced", "longer", "of", "off", "formerly", "previously"})
"""Words after which a line names what was true before ("of" only in "instead of")."""

SINGLE_LABELS = frozenset({"current", "currently", "primary", "main", "best", "latest", "default", "active"})
"""A leading label holding one of these names one value at a time ("Current focus:"): a newer line with the same
label replaces the older one even without a change word."""

_HEAD_RE = re.compile(r"([^;,.:!?()]*?)\b(?:is|are)\s+(?:now|no\s+longer)\b")
_HEAD_CUE_RE = re.compile(r"\b(?:is|are)\s+(?:now|no\s+longer)\b")
_CLAUSE_MARK_RE = re.compile(r"[;,.:!?()]")


def _head_clauses(folded: str) -> list[str]:
    """``_HEAD_RE.findall(folded)``: each clause's text before its "is now" / "are no longer".

    Read clause by clause (a match never crosses ``;,.:!?()``), each only up to its last such words: searched over
    the whole text, each place of a clause without them read on to the clause's end, a time that grew with the
    square of a long clause (1 s of CPU for 5,000 letters, on every context block holding the line). The same
    matches, in the same order (docs/architecture.md §4).

    Args:
        folded: the entry's folded text.

    Returns:
        list[str]: the first group of each match, in order.
    """
    if _HEAD_CUE_RE.search(folded) is None:
        return []
    found: list[str] = []
    for clause in _CLAUSE_MARK_RE.split(folded):
        cues = list(_HEAD_CUE_RE.finditer(clause))
        if cues:
            found += _HEAD_RE.findall(clause, 0, cues[-1].end() + 1)
    return found


_VERSION_RE = re.compile(r"(?<![\w.])([^\W\d_]\w*)\s+v?(\d+(?:\.\d+)*)(?![\w.-])")
_DENIED_RE = re.compile(r"\w,?\s+not\s+(?:the\s+|a\s+|an\s+)?([^\W\d_][\w-]*)\s*(?:[.;,!?)]|$)")


def _topic_word(word: str) -> bool:
    return not word.isdigit() and word not in STOP_WORDS and len(word) > 1


_CHANGE_STEMS = frozenset(_stem(w) for w in CHANGE_WORDS)


def _norm(word: str) -> str:
    """A folded word's topic stem, or "" when it is no topic word (:func:`.samefact.shape` reads lines by it)."""
    if not _topic_word(word):
        return ""
    stem = _stem(word)
    return "" if stem in _CHANGE_STEMS else stem


def change_words(text: str) -> frozenset[str]:
    """The change words an entry's text holds (:data:`CHANGE_WORDS`; a pair of :data:`CHANGE_PAIRS` joined by a space;
    "longer" only after "no" or "any"), as :func:`topic_terms` finds ``change``.

    The dream asks which change words a newer line holds that the older lacks: a word both hold is no change
    (数据库迁移 "database migration" is a noun in both; docs/dreams.md).

    Args:
        text: the entry's text (no metadata).

    Returns:
        frozenset[str]: the folded change words; empty when it holds none.
    """
    words = _split(text)
    found = {f"{a} {b}" for a, b in pairwise(words) if (a, b) in CHANGE_PAIRS}
    found.update(
        w for k, w in enumerate(words) if w in CHANGE_WORDS and (w != "longer" or words[k - 1 : k] in (["no"], ["any"]))
    )
    return frozenset(found)


def _has_change(words: list[str]) -> bool:
    """Whether these folded words hold a change word (:data:`CHANGE_WORDS`, :data:`CHANGE_PAIRS`); "longer" only
    after "no" or "any" ("no longer"; "Use longer timeouts for uploads" says nothing changed: breaker13 B13-13)."""
    if any(pair in CHANGE_PAIRS for pair in pairwise(words)):
        return True
    return any(
        w in CHANGE_WORDS and (w != "longer" or words[k - 1 : k] in (["no"], ["any"])) for k, w in enumerate(words)
    )
