"""Whose words a statement is: the user's own fact, or someone else's (breaker9 B9-1 to B9-6, B9-15).

A checkpoint keeps a user's statement ``by: user``, and a correction of theirs hides the line it replaces
(docs/architecture.md §7). Neither may come from hearsay ("my colleague said ...", "the log says ...", "You said
X"), quoted words or code, a hedge ("apparently", "I don't remember that ..."), a proposal ("we should ...") or a
statement scoped to a place or a time ("only in my branch", "for this task"); and a line about someone else
("Bob's editor is Helix") never replaces the user's own ("My editor is vim"). Pure text: no file, no repo.
"""

from __future__ import annotations

import re

from memrepo.engine.format.entries import Entry
from memrepo.engine.format.remembering import (
    ABOUT_AGENT_RE,
    ABOUT_USER_RE,
    OTHER_PERSON_RE,
    readable,
    without_leadin,
)

_HEARSAY_RE = re.compile(
    r"\b(?:say|says|said|saying|tell|tells|told|(?:write|writes)(?=\s*(?::|that\b))|wrote|"
    r"written(?!\s+(?:in|with)\s+(?-i:[A-Z]))|claim|claims|claimed|"
    r"report|reports|reported|mention|mentions|mentioned|heard|hear|according\s+to|thinks|believes|insists|swears|"
    r"reckons)\b",
    re.IGNORECASE,
)
"""Words that report someone else's words ("my colleague said ...", "Bob told me ...", "the log says ...", "You
said X", "Claude wrote: X"): the sentence is hearsay, never the user's own correction (breaker9 B9-1, B9-4). "Write"
reports only before ":" or "that" ("the docs write that ..."): "I write tests with Vitest now" and "Write commit
messages in German" say what the user does (breaker14 B14-6); not "written in Rust", a thing's language (breaker17
B17-1)."""
_HEDGE_RE = re.compile(
    r"\b(?:apparently|probably|possibly|maybe|perhaps|presumably|supposedly|allegedly|likely|seemingly|seems?|"
    r"might|would|could|i\s+(?:think|guess|believe|suppose|assume|reckon|doubt|wonder|feel)|not\s+sure|unsure|"
    r"i\s+(?:do\s*n['’]?o?t|don['’]t|can['’]?t|cannot|never)\s+(?:remember|recall|know|think|believe)|"
    r"if|unless|whether)\b",
    re.IGNORECASE,
)
"""A hedge, a doubt or a condition anywhere in a sentence ("apparently", "I think", "I don't remember that",
"would ... if"): it says no fact (breaker9 B9-2, b07)."""
_PROPOSAL_RE = re.compile(
    r"\b(?:should|shall|ought|let['’]?s|lets|how\s+about|what\s+about|why\s+not|why\s+don['’]t|could\s+we|can\s+we|"
    r"we\s+(?:could|might|need\s+to|have\s+to|must)|i\s+(?:want|would\s+like|suggest|propose|plan)|plan\s+to|going\s+to)\b",
    re.IGNORECASE,
)
"""A proposal or a plan ("we should move the window", "let's", "how about"): what may be, not what is (B9-6)."""
_SCOPED_RE = re.compile(
    r"\b(?:for\s+now|temporar(?:y|ily)|throwaway|throw-away|one[- ]off|for\s+the\s+time\s+being|at\s+the\s+moment|"
    r"right\s+now|today|tonight|this\s+(?:week|session|conversation|chat|task|branch|run)|"
    r"for\s+(?:this|the|my|that)\s+(?:\w+\s+)?(?:task|session|test|tests|pr|ticket|demo|experiment|run|sprint|spike)|"
    r"(?:in|on)\s+(?:my|the|this|our|a|your)\s+(?:\w+\s+){0,2}?(?:branch|fixtures?|tests?|sandbox|experiment|mocks?|"
    r"local\s+copy|fork|worktree|region|example|draft|prototype|scratch\s+\w+)|"
    r"(?:branch|fixture|locally)\s+only|only\s+(?:in|on|for)\s+(?:my|the|this)|"
    r"next\s+(?:week|month|quarter|year|sprint|release)|until\b|nothing\s+here\s+matters)\b",
    re.IGNORECASE,
)
"""A statement scoped to a place or a time ("only in my branch", "for this task", "in the test fixture", "for now",
"this is a throwaway branch"): true of now or of a part, never a standing fact (B9-6, b04, b05, B9-19)."""
_NAMED_RE = re.compile(r"^(?P<who>[A-Z][\w-]*)(?:['’]s\b|\s+(?:prefers|uses|likes|wants|has|says|said|thinks)\b)")
"""A statement about a named person: "Bob's editor is Helix", "Alice prefers tabs"."""
_NOT_NAMES = frozenset(
    [
        "the",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "our",
        "your",
        "their",
        "there",
        "here",
        "what",
        "who",
        "which",
        "a",
        "an",
        "we",
        "they",
    ]
)


def owner(text: str) -> str | None:
    """Who a statement is about: ``"user"`` ("I ...", "my editor ..."), ``"person:<who>"`` ("my colleague ...",
    "Bob's editor ..."), or None (the project, a thing).

    Args:
        text: a statement (its lead-in is dropped first, :func:`without_leadin`).

    Returns:
        str | None: the owner, as above.
    """
    rest = without_leadin(text)
    other = OTHER_PERSON_RE.match(rest)
    if other:
        return "person:" + other.group("who").lower()
    named = _NAMED_RE.match(rest)
    if named and named.group("who").lower() not in _NOT_NAMES and not ABOUT_USER_RE.match(rest):
        return "person:" + named.group("who").lower()
    return "user" if ABOUT_USER_RE.match(rest) else None


def reported(text: str) -> bool:
    """Whether a statement reports someone else's words or is not said as a plain fact: hearsay
    (:data:`_HEARSAY_RE`), quotes or code in it, a hedge or condition (:data:`_HEDGE_RE`), a proposal
    (:data:`_PROPOSAL_RE`), a place or time it is scoped to (:data:`_SCOPED_RE`), or words about the agent ("You ...").

    Args:
        text: one sentence of the user's.

    Returns:
        bool: True when the sentence must not be kept as the user's own fact that replaces a stored line.
    """
    rest = without_leadin(text)
    if readable(text).split() != text.split():
        return True  # quotes or code inside: someone else's words
    if ABOUT_AGENT_RE.match(rest):
        return True  # about the agent or its words ("You said X")
    return any(rx.search(text) for rx in (_HEARSAY_RE, _HEDGE_RE, _PROPOSAL_RE, _SCOPED_RE))


def hearsay(text: str) -> bool:
    """Whether a statement reports someone else's words (:data:`_HEARSAY_RE`, or quotes in it): "Alice said X",
    "the log says X", "You wrote "X"" (breaker9 B9-4)."""
    return bool(_HEARSAY_RE.search(text)) or readable(text).split() != text.split()


def users_hearsay(entry: Entry) -> bool:
    """Whether a stored line is the user's (``by: user``) and reports someone else's words (:func:`hearsay`):
    "Alice said the shop DB is on Postgres 12 now", kept as asked, replaces no line by its words (breaker9 B9-4).

    Args:
        entry: a parsed entry.

    Returns:
        bool: True for such a line.
    """
    return entry.by == "user" and hearsay(entry.text)


__all__ = ["hearsay", "owner", "reported", "users_hearsay"]
