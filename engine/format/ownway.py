"""The user's own way of working, said as the reason for an order (issue 30, sess17).

"btw I review most PRs on my phone, so keep the diffs small, one concern per PR": the user says how they usually work
and, from it, how the agent should work for them. That is a standing preference of the user's (me.md), read by its
form, not by a list of verbs of liking: a first clause with the user as subject in the simple present and a word of
habit (usually, mostly, always, often, most, every, all ...), then "so" (or "which is why", "that's why") and an order
(a clause that opens with a verb, not a subject). Never a past ("I broke the build, so revert it"), a verb of thinking,
seeing, having, wanting or needing ("I think ...", "I need it by Friday, so hurry"), a modal or a progressive, the
moment ("today", "now", "this PR"), a question, someone else's words, or an order about the thing at hand ("... so
fix it"). Pure text: no file.
"""

from __future__ import annotations

import re

from .irony import hedged, under_review
from .pasted import pasted_lines
from .remembering import OTHER_PERSON_RE, retraction, said, scoped

_LEAD_RE = re.compile(
    r"^(?:(?:btw|by\s+the\s+way|fyi|also|oh|and|ok|okay|just\s+so\s+you\s+know)(?:\s*[,:])?\s+)+", re.I
)
_OWN_RE = re.compile(
    r"^i\s+(?:(?:usually|mostly|always|often|generally|normally|typically|only|never|rarely|tend\s+to)\s+)?"
    r"(?P<verb>[a-z]+)\b(?P<rest>[^,;]*?)\s*(?:,\s*|\s+|;\s*)(?:so|which\s+is\s+why|that['’]s\s+why)\s+(?P<order>\S.*)$",
    re.IGNORECASE,
)
_HABIT_RE = re.compile(
    r"\b(?:usually|mostly|always|often|generally|normally|typically|only|never|rarely|most|every|all|each|any)\b", re.I
)
"""A word of habit in the user's clause: what they do as a rule, not once."""
_NOT_HABIT_WORDS = (
    "am was were have had has do did don't can can't could will would should might must need needed want wanted "
    "think thought guess suppose believe know knew see saw hear heard feel felt understand agree trust mean meant "
    "hope wish like love hate prefer got get made make broke wrote ran went took found forgot left lost sent put set "
    "said told asked just also really"
)
_NOT_HABIT_VERB = frozenset(_NOT_HABIT_WORDS.split())
"""Verbs and words after "I" that are no habit of working: being, having, thinking, wanting, a modal, a common past;
a verb of liking is :mod:`.preferences`' reading."""
_SUBJECT_RE = re.compile(
    r"^(?:i|you|we|he|she|they|it|this|that|these|those|there|the|a|an|my|your|our|his|her|their|its|can|could|would"
    r"|will|should|do|does|did|is|are|was|were|let['’]?s)\b",
    re.IGNORECASE,
)
"""What an order does not open with: a subject, a determiner, a modal or an auxiliary (a statement or a question)."""
_AT_HAND_RE = re.compile(
    r"\b(?:it|this|that|them|now|today|tonight|right\s+away|asap|first|this\s+(?:one|time|pr|branch|file|change))\b"
    r"|\b(?:yesterday|last\s+\w+)\b",
    re.IGNORECASE,
)
"""The thing or the moment at hand: "... so fix it", "... so do that first"."""


def own_way(texts: list[str]) -> list[str]:
    """The user's way of working said as the reason for an order (the module docstring), each sentence as said.

    Args:
        texts: the user's messages.

    Returns:
        list[str]: the statements, less their lead-in and end mark, in order.
    """
    out: list[str] = []
    for text in texts:
        holds = "\n" in text.strip() or ":" in text  # the text to review is in the message ("Proofread this: ...")
        if (under_review(text) and holds) or retraction(text) is not None or pasted_lines(text):
            continue
        for sentence in said(text):
            rest = _LEAD_RE.sub("", sentence.strip())
            found = _OWN_RE.match(rest)
            if found is None or found["verb"].casefold() in _NOT_HABIT_VERB or found["verb"].casefold().endswith("ed"):
                continue
            clause = rest[: found.start("order")]
            if not _HABIT_RE.search(clause) or found["verb"].casefold().endswith("ing"):
                continue
            order = found["order"]
            if _SUBJECT_RE.match(order) or _AT_HAND_RE.search(rest) or len(order.split()) < 3:
                continue
            if hedged(rest) or scoped(rest) or OTHER_PERSON_RE.match(rest):
                continue
            out.append(rest[:1].upper() + rest[1:])
    return out


__all__ = ["own_way"]
