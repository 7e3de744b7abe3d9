"""A correction that says its line again with one value swapped (breaker17 B17-1, B17-3, fix11a).

"I live in Lisbon now." for "I live in Berlin", "The billing service is written in Rust now, not Go." for "The
billing service is written in Go", "My shell is zsh now." for "My shell is fish", "No, the deploy window is Friday
morning now." for "The deploy window is Thursday afternoon": the new sentence is the stored line's own frame (the
same words before the value, the same words after it) with one value of one to three words in the value's place,
and it says it changed ("now", "anymore", "no longer", ", not <old value>", or a lead-in such as "Actually,").

The class, not a word list: the shared words before the slot hold the subject and its verb or preposition (a word
of :data:`_LINK`, so "The deploy window tests now pass" is not "The deploy window is Tuesday" with a new value, and
"My editor is vim now" never swaps the subject of "My shell is vim"); the slot holds no verb and no negation. A
lowercase value ("zsh", "the evening") is a value here: its place in the frame says so; but the new value is of the
old one's kind (:func:`.samesubject.value_kind`: a time for a time, a number for a number, a name for a name, a
lowercase word for a lowercase word: "on Zoom" is no new time for "on Mondays"; "The CDN is down now" is a state, not a
new CDN for "The CDN is Cloudflare"; nor "My editor is laggy now" for "My editor is vim":
:func:`.samesubject.state_word`), and adds no scope ("I use Emacs for email now" is not "I use Vim" changed).

A weaker frame, where the stored line's value carries a tail the new sentence drops ("I use zsh now." for "I use
fish as my shell"), relates the line too but is never :func:`tight`: the correction then waits in the inbox.
Pure functions of text: no file, no repo.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise
from typing import TypeVar

from .samesubject import state_word, value_kind

_WORD_RE = re.compile(r"[\w'’+#.-]+")
_TAIL_RE = re.compile(r"[,;]?(?<!\s)\s+(?:not|instead\s+of|rather\s+than|no\s+longer)\s+[^,;]{1,40}$", re.I)
"""", not Go", "instead of fish": the old value named at the end."""
_SIGNAL_RE = re.compile(r"\b(?:now|nowadays|these\s+days|anymore|any\s+more|no\s+longer)\b|,\s+not\s+\w", re.I)
"""Words that say the value changed."""
_DROP = frozenset({"now", "nowadays", "anymore", "actually", "currently"})
_LINK = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "'s",
        "use",
        "uses",
        "using",
        "run",
        "runs",
        "live",
        "lives",
        "work",
        "works",
        "prefer",
        "prefers",
        "written",
        "hosted",
        "built",
        "kept",
        "stored",
        "deployed",
        "deploy",
        "deploys",
        "on",
        "in",
        "at",
        "with",
        "via",
        "to",
        "from",
        "for",
        "by",
    ]
)
"""The words that end a subject and start its value ("is", "use", "live", "written", "in", "on"): one must stand
among the shared words before the slot."""
_NOT_SLOT = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "am",
        "not",
        "no",
        "never",
        "don't",
        "doesn't",
        "didn't",
        "isn't",
        "aren't",
        "also",
        "too",
        "and",
        "or",
        "but",
        "still",
    ]
)
"""Words the swapped value may not hold: a verb or a negation there is another statement, not a new value."""
_TAIL_START = frozenset({"as", "for", "on", "in", "at", "with", "via"})
"""How a stored value's tail the new sentence drops may start ("fish as my shell", "Vim for Go")."""

T = TypeVar("T")


def _words(text: str) -> list[str]:
    text = _TAIL_RE.sub("", " ".join(text.split()).rstrip(".!"))
    out = [w.replace("’", "'").strip(".") for w in _WORD_RE.findall(text)]
    return [w for w in out if w and w.casefold() not in _DROP]


def common_ends(a: list[str], b: list[str]) -> tuple[int, int]:
    """How many words ``a`` and ``b`` share at their start, then at their end (never overlapping): what stays around
    a swapped run ("my shell is fish" / "my shell is zsh": 3, 0)."""
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    s = 0
    while s < min(len(a), len(b)) - p and a[-1 - s] == b[-1 - s]:
        s += 1
    return p, s


def _frame(new: str, old: str) -> int:
    """2 when ``new`` is ``old`` with one value swapped, 1 for the weaker frame (the module docstring), else 0."""
    cased_a, cased_b = _words(old), _words(new)
    a, b = [w.casefold() for w in cased_a], [w.casefold() for w in cased_b]
    p, s = common_ends(a, b)
    was, now = a[p : len(a) - s], b[p : len(b) - s]
    if p < 2 or not _LINK & set(a[:p]) or not now or len(now) > 3 or _NOT_SLOT & set(now) or _NOT_SLOT & set(was):
        return 0
    if s and a[p - 1] not in _LINK:
        return 0  # "The billing tool is written in Go now": the subject changed, not the value
    new_value = cased_b[p : len(b) - s]
    scope = any(
        w.casefold() in _TAIL_START and w.casefold() not in was and nxt.isalpha() and nxt.islower()
        for w, nxt in pairwise(new_value)
    )  # "I use Emacs for email now", not "Friday at 9am" nor "at Globex"
    kind = value_kind(new_value)
    state = kind == "word" and any(state_word(w) for w in now)  # "My editor is laggy now"
    if value_kind(cased_a[p : len(a) - s]) != kind or scope or state:
        return 0  # "The CDN is down now" for "The CDN is Cloudflare"; "I use Emacs for email now" adds a scope
    if 1 <= len(was) <= 3 and set(was).isdisjoint(now):
        return 2
    if not s and 2 <= len(was) <= 5 and was[1] in _TAIL_START and len(now) <= 2 and was[0] not in now:
        return 1  # "I use zsh now." for "I use fish as my shell": most likely, for the user to confirm
    return 0


def says_change(text: str, cued: bool = False) -> bool:
    """Whether ``text`` says a value changed: a lead-in that corrects (``cued``), or :data:`_SIGNAL_RE`."""
    return cued or bool(_SIGNAL_RE.search(text))


def same_frame(text: str, lines: Iterable[T], key=str, cued: bool = False) -> T | None:
    """The one line ``text`` restates with a new value (the module docstring), or None (none, or more than one).

    Args:
        text: the user's statement, less its lead-in.
        lines: the stored lines.
        key: how to read a line's text.
        cued: the user said it after a lead-in that says it corrects.

    Returns:
        the line, or None.
    """
    if not says_change(text, cued):
        return None
    found = [(_frame(text, key(line)), line) for line in lines]
    best = max((score for score, _line in found), default=0)
    hits = [line for score, line in found if score == best and best]
    return hits[0] if len(hits) == 1 else None


def tight(text: str, old: str) -> bool:
    """Whether ``text`` is ``old`` with nothing but one value swapped (:func:`_frame` 2): kept ``by: user`` at once."""
    return _frame(text, old) == 2


__all__ = ["common_ends", "same_frame", "says_change", "tight"]
