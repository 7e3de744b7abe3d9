"""Whether a newer line's value replaces an older one's, or stands beside it (docs/architecture.md §4).

Split from :mod:`.samefact` (which reads the lines' owners and subjects); asked by :mod:`.contextselect`:

- :func:`adds`: a newer line that adds a value ("as well", "also", "too") replaces nothing.
- :func:`parallel`: the same sentence with one stretch swapped and no change word ("Always run ruff / mypy before
  committing"): two facts side by side, not one said again.
- :func:`moved_value`: a newer line with the older one's subject phrase ended by a change word ("Standup moved to
  10:00") replaces it when both give a time of day or a weekday, and the move is not of one day.
- :func:`names_piece`: a ``supersedes:`` piece stands in a line as whole words.
- :func:`passing_switch`: a "switched from X" that says no standing change (a past year, a scope, "nearly").
"""

from __future__ import annotations

import re

from memrepo.engine.format.terms import fold

from .changeframe import ADDED_RE, SLOT_MAX, common_ends, frame_tokens
from .samefact import CLAUSE_RE, Norm, shape

_COPULAS = frozenset({"is", "are", "was", "were"})


_KIND_RES = (
    ("time", re.compile(r"\b\d{1,2}(?::\d\d|\s?[ap]\.?m\b)")),
    ("weekday", re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b")),
)
"""Kinds of value a moved meeting or window takes: a time of day ("9:30", "4pm"), a weekday ("Thursdays")."""


def _kinds(text: str) -> frozenset[str]:
    folded = fold(text)
    return frozenset(kind for kind, pattern in _KIND_RES if pattern.search(folded))


def moved_value(old_text: str, new_text: str, norm: Norm) -> bool:
    """Whether the newer line moves the older one's value: the same subject phrase, the newer one's ended by a
    change word ("Standup moved to 10:00", "Standup got moved to 10:00" after "Standup is at 9:30"), and both give
    a value of one kind (a time of day, a weekday: :data:`_KIND_RES`); "Standup moved to Zoom" moves no time
    (breaker13 B13-25; B13-2 was a move of another attribute hiding the line). Not a move of one day (breaker15
    B15-7): the older line gives a kind of value the newer lacks ("... to 10:00" after "... on Mondays at 9:30"
    would lose the day), or the newer line a date, "tomorrow", "this week", "on Fridays" (:data:`_ONE_OFF_RE`) the
    older lacks ("... to 10:00 on Fridays" after "... at 9:30 on weekdays": Fridays scope the move; "moved to
    10:15, Tuesdays and Thursdays" gives the days as the new value)."""
    old, new = shape(old_text, norm), shape(new_text, norm)
    if not new.moved or not old.phrase or not new.phrase or set(old.phrase) != set(new.phrase):
        return False
    kinds_old, kinds_new = _kinds(old_text), _kinds(new_text)
    folded_old, folded_new = fold(old_text), fold(new_text)
    if kinds_old - kinds_new or (_ONE_OFF_RE.search(folded_new) and not _ONE_OFF_RE.search(folded_old)):
        return False  # "moved to 10:00 on Fridays" / "... tomorrow": one day's time; the standing one holds
    return bool(kinds_old & kinds_new)


_ONE_OFF_RE = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|this (?:week|month|time|once|sprint)|next (?:week|month|sprint|time)"
    r"|only|once|for now|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,2}\b|\d{4}-\d\d-\d\d"
    r"|\d{1,2}/\d{1,2}\b|(?:next|on) (?:mon|tues|wednes|thurs|fri|satur|sun)days?)"
)
"""What makes a move one day's or one week's, not the standing value's (breaker15 B15-7): a date, "tomorrow",
"this week", "only", "on Fridays"."""


def parallel(old_text: str, new_text: str) -> bool:
    """Whether the lines are one sentence with one short stretch swapped (at most :data:`.changeframe.SLOT_MAX`
    words on each side, the rest at least half the older line): said of a line with no change word, two facts
    side by side ("Always run ruff / mypy before committing"), not one said again. Not when a form of "be" comes
    before the stretch: the stretch is then the value of one attribute ("Code freeze is on Thursdays")."""
    old, new = frame_tokens(old_text, False), frame_tokens(new_text, False)
    head, tail = common_ends(old, new)
    slot_old, slot_new = len(old) - head - tail, len(new) - head - tail
    if any(w in _COPULAS for w in old[:head]):
        return False  # "Code freeze is on Thursdays" / "... Wednesdays": one attribute's value, corrected
    return 1 <= slot_old <= SLOT_MAX and 1 <= slot_new <= SLOT_MAX and 2 * (head + tail) >= len(old)


def adds(new_text: str) -> bool:
    """Whether a newer line adds a value beside the older one ("I now speak Spanish as well", "CI now also runs on
    macOS", 也, も) or holds only while someone is away or for a while (:data:`_FOR_A_WHILE_RE`): it replaces
    nothing."""
    folded = fold(new_text)
    if _FOR_A_WHILE_RE.search(folded):
        return True  # "Bob manages the budget now while Alice is on leave": a cover; the standing line holds
    if not ADDED_RE.search(folded):
        return False
    first = next((c for c in CLAUSE_RE.split(folded) if c.strip()), "")
    return bool(_ADDED_ANYWHERE_RE.search(folded) or _ALSO_RE.search(first) or _TOO_RE.search(folded))


_FOR_A_WHILE_RE = re.compile(
    r"\b(?:while|whilst)\b[^.;]{1,40}?\b(?:is|are)\s+(?:on (?:\w+ )?leave|away|out|off|sick|on holiday|on vacation)\b"
    r"|\buntil\b[^.;]{1,30}?\b(?:is back|returns|gets back|comes back)\b|\bin \w+['’]s absence\b"
    r"|\b(?:covers?|covering|filling in|fills in|standing in|stands in) for\b"
    r"|\b(?:temporarily|for the time being|in the meantime|as a stopgap)\b"
)
"""A newer line that holds for a while, in someone's place ("Bob manages the budget now while Alice is on leave",
"... until she is back", "Bob is covering for Alice", "temporarily"): the older line is what holds after it
(breaker22 B22-7)."""

_ADDED_ANYWHERE_RE = re.compile(r"\b(?:as well|in addition|additionally)\b|\bboth\b.*\band\b|也|还|も")
_ALSO_RE = re.compile(r"\balso\b")
_TOO_RE = re.compile(r"\btoo\s*(?:[,.;!?)]|$)")
"""Where "also", "too", "both" add a value (breaker15 B15-14): "also" in the clause that says the change ("CI now
also runs on macOS"; not "..., also for hotfixes"), "too" ending a clause (not "Vim was too slow"), "both ... and"
(not "for both apps")."""


def names_piece(named: str, folded: str) -> bool:
    """Whether a ``supersedes:`` piece stands in a folded line as whole words ("postgres 14" is not in "postgres
    14.2": breaker13 B13-16)."""
    return re.search(r"(?<![\w.])" + re.escape(named) + r"(?!\w|\.\w)", folded) is not None


_PASSING_RE = re.compile(
    r"\b(?:almost|nearly|never (?:\w+ )?(?:switch|mov|migrat|chang|left|made)\w*|briefly"
    r"|once(?=\s*(?:[.,;!]|$)|\s+(?:\w+ed|tried|used|had|went)\b)|(?:didn'?t|did not|tried to) (?:switch|move|migrate)"
    r"|back in|last year"
    r"|years? ago|in (?:19|20)\d\d|for (?:a|one|two|three) (?:day|week|month|year|while)s?)\b"
)
"""What makes a switch "from X" no standing change: it did not happen ("nearly", "almost", "never", "tried to"), or
happened once or in the past ("once", "in 2015", "back in", "for a week"): breaker15 B15-17, B15-42. "Never" only
before a switch verb and "once" only at the end or before a past verb ("I once switched"): "I've never looked back
since switching", "... once the bill got too high" switched for good (breaker19 B19-8)."""


def passing_switch(text: str) -> bool:
    """Whether a line's "from <value>" names no value it replaces now (:data:`_PASSING_RE`): "I nearly switched from
    Vim to Emacs", "I moved from Lyon to Paris in 2015" leave "I use Vim", "I live in Lyon"."""
    return _PASSING_RE.search(fold(text)) is not None
