"""A correction that names the value it replaces: "we switched from Stripe to Adyen", "Bugsnag replaced Sentry for
error tracking", "my manager is Dana Wu, not Alice" (corr10, docs/architecture.md §7).

Such a sentence says which stored line it corrects by the old value it names (:func:`said_values`): the one line of
the user's that names that value as a word and not yet the new one. When the sentence also names what it is about
("for error tracking", "as my editor", "the CDN", "my manager"), that line must name it too. A sentence that names
a value two stored lines hold corrects neither. Pure text: no file, no repo.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from .claims import ExistingEntry
from .samesubject import clauses, statement
from .subjectwords import SCOPING

_W = r"[\w'’.+#/@-]+"
_REPLACED_RE = re.compile(
    rf"^(?P<new>{_W}(?:\s+{_W}){{0,2}}?)\s+(?:has\s+|have\s+)?(?:now\s+)?replaced\s+(?P<old>{_W}(?:\s+{_W}){{0,2}}?)"
    rf"(?:\s+(?:as|for|in|on)\s+(?P<what>(?:{_W}\s+){{0,3}}?{_W}))?$",
    re.IGNORECASE,
)
""""Bugsnag replaced Sentry for error tracking", "Helix replaced vim as my editor"."""
_FROM_TO_RE = re.compile(
    rf"^(?:we|i)(?:['’]ve|\s+have)?\s+(?:since\s+|now\s+|just\s+|already\s+|finally\s+|recently\s+)?"
    rf"(?:switched|moved|migrated|changed|went)\s+(?:(?P<what>(?:{_W}\s+){{0,3}}?{_W})\s+)?"
    rf"(?:over\s+)?(?:from|off(?:\s+of)?)\s+(?P<old>(?:{_W}\s+){{0,2}}?{_W})\s+(?:over\s+)?to\s+(?P<new>(?:{_W}\s+){{0,2}}?{_W})$",
    re.IGNORECASE,
)
""""We switched from Stripe to Adyen", "We switched the CDN from Cloudflare to Fastly", "we moved push off OneSignal
to Firebase Cloud Messaging" (sess19)."""
_NOT_RE = re.compile(rf"^(?P<said>.+?),?\s+(?:not|instead\s+of)\s+(?P<old>{_W}(?:\s+{_W})?)$", re.IGNORECASE)
""""My manager is Dana Wu, not Alice", "the payment provider is Adyen instead of Stripe"."""
_NO_VALUE = frozenset(
    [
        "it",
        "that",
        "this",
        "them",
        "those",
        "these",
        "one",
        "ones",
        "the",
        "a",
        "an",
        "our",
        "my",
        "their",
        "your",
        "its",
        "there",
        "here",
        "anymore",
        "again",
        "now",
        "any",
        "nothing",
        "something",
        "everything",
    ]
)
"""Words that are no value of their own ("switched from that to ...")."""
_SCOPES = (
    frozenset(
        [
            "for",
            "in",
            "on",
            "at",
            "with",
            "when",
            "while",
            "during",
            "except",
            "only",
            "sometimes",
            "but",
            "and",
            "or",
            "at",
        ]
    )
    | SCOPING
)
"""Words that scope a value to a part ("Helix for Rust", "Adyen in staging"): no new value of the whole."""
_WHAT_STOP = frozenset(["the", "a", "an", "our", "my", "their", "your", "its", "we", "i"])


class Values(NamedTuple):
    """What a sentence that names the value it replaces says (:func:`said_values`).

    Attributes:
        old: the replaced value's words, folded.
        new: the new value's words, folded.
        what: the words of what it is about ("error tracking", "editor", "cdn"), folded; () when it names nothing.
    """

    old: tuple[str, ...]
    new: tuple[str, ...]
    what: tuple[str, ...]


def _fold(text: str) -> tuple[str, ...]:
    return tuple(w.casefold().replace("’", "'").strip(".") for w in re.findall(_W, text))


def said_values(text: str) -> Values | None:
    """The old value, the new value and what they are of, of a sentence of the forms above, or None.

    Args:
        text: one sentence, less its lead-in and end mark.

    Returns:
        Values | None: the reading, or None.
    """
    text = " ".join(text.split()).rstrip(".!")
    if any(mark in text for mark in ';:()"“”?'):
        return None
    found = _REPLACED_RE.match(text) or _FROM_TO_RE.match(text)
    if found is not None:
        if "," in text:
            return None
        what = found["what"] or ""
    else:
        found = _NOT_RE.match(text)
        if found is None:
            return None
        read = statement(found["said"])
        if read is None:
            return _own_words(found["said"], _fold(found["old"]))
        what = " ".join(read.subject)  # every word of it must be the stored line's ("the blog CDN" is no "shop CDN")
        new = read.value
        old = _fold(found["old"])
        return _values(old, new, what)
    return _values(_fold(found["old"]), _fold(found["new"]), what)


_OWN_START_RE = re.compile(r"^(?:i|we|i['’]m|we['’]re)\s", re.IGNORECASE)
_TIME_WORDS = frozenset(["now", "these", "days", "nowadays", "anymore"])


def _own_words(said: str, old: tuple[str, ...]) -> Values | None:
    """ "I use zsh now, not fish": a sentence of the user's own ("I ...", "we ...") that is no subject and value; the
    words it says besides the stored line's are its new value (:func:`names_old` checks the rest)."""
    if not _OWN_START_RE.match(said) or len(said.split()) > 8:
        return None
    words = tuple(w for w in _fold(said) if w not in _TIME_WORDS)
    return _values(old, words, "*") and Values(old, words, ("*",))


def _values(old: tuple[str, ...], new: tuple[str, ...], what: str) -> Values | None:
    if not old or not new or all(w in _NO_VALUE for w in old) or set(old) <= set(new) or set(new) <= set(old):
        return None
    if any(w in _SCOPES or re.fullmatch(r"(?:19|20)\d\d", w) for w in (*old, *new)) and what != "*":
        return None  # "from Lyon to Paris in 2015", "to Emacs once": a past or one-off move (breaker15 B15-17)
    if any(w in _SCOPES for w in old) or (what != "*" and any(w in _SCOPES for w in new)):
        return None  # "from vim to Helix for Rust": a value for a part, not the value
    if re.search(r"\b(?!it['’]s)[\w-]+['’]s\b|\b(?:his|her|their|your)\b", what, re.IGNORECASE):
        return None  # "as Bob's editor", "for their team": someone else's
    return Values(old, new, tuple(w for w in _fold(what) if w not in _WHAT_STOP))


def _names(words: tuple[str, ...], text: str) -> bool:
    """Whether ``text`` holds ``words`` in a row, as words (a plural ``s`` allowed on the last)."""
    pattern = r"\s+".join(re.escape(w) for w in words)
    return bool(re.search(rf"(?<![\w.-]){pattern}s?(?![\w-])", text, re.IGNORECASE))


def names_old(text: str, old_text: str) -> bool:
    """Whether ``text`` (:func:`said_values`) replaces a value the stored line ``old_text`` names: the line (or one
    clause of it) names the old value, not the new one, and what the sentence is about, when it says.

    Args:
        text: the user's sentence, less its lead-in.
        old_text: a stored line's text.

    Returns:
        bool: True when it does.
    """
    said = said_values(text)
    if said is None:
        return False
    parts = clauses(old_text)
    if not parts and re.search(r"[,;]|\s(?:and|but)\s", old_text):
        return False  # a line of more than one value that cannot be split: correcting it would hide the rest
    for part in parts or [old_text]:
        if said.what == ("*",):  # the user's own words: the line is those words with the old value
            line = set(_fold(part))
            new = [w for w in said.new if w not in line]
            at = [i for i, w in enumerate(said.new) if w not in line]
            if not at or at[0] < 2 or at != list(range(at[0], at[0] + len(at))):
                continue  # the verb changed ("I work in Paris" for "I live in Lyon"), or words around the value
                # ("We use Adyen for the blog"): not the line with its value swapped (breaker15 B15-16)
            mine = said.new[0].split("'")[0] in {w.split("'")[0] for w in line}  # "I ..." of "I use fish", not "we"
            scoped = any(w in _SCOPES for w in new)  # "I use zsh at work, not fish"
            if mine and not scoped and _names(said.old, part) and 1 <= len(new) <= 3 and len(new) < len(said.new):
                return True
            continue
        if _names(said.old, part) and not _names(said.new, part):
            words = {w.removesuffix("'s").removesuffix("s") for w in _fold(part)}
            if all(w.removesuffix("s") in words for w in said.what):
                return True
    return False


def names_one(text: str, existing: Iterable[ExistingEntry]) -> ExistingEntry | None:
    """The one stored line whose value ``text`` says it replaces (:func:`names_old`), or None (none, or two).

    Args:
        text: the user's sentence, less its lead-in.
        existing: the stored lines the checkpoint listed (the caller drops other people's lines).

    Returns:
        ExistingEntry | None: the corrected line.
    """
    found = [old for old in existing if names_old(text, old.text)]
    return found[0] if len({old.text.casefold() for old in found}) == 1 else None


__all__ = ["Values", "names_old", "names_one", "said_values"]
