"""Lexical recall's "what is asked": a question naming the thing it asks for ("which Kubernetes cluster runs the route
planner", "what is the staging URL of the invoicing app") is answered by a line only when the line holds a word of
that thing.

The no-answer questions that lexical recall answered name the repo's own things and ask what no line holds: "which
Kubernetes cluster runs the route planner" over "The route planner is a FastAPI service on Postgres" (repo G's tuning
split, once a small repo's absent words weigh no more than its held ones: :mod:`.recallabsent`). The thing asked for
is plain from an English question's words: the words between "which"/"what" and the verb ("which Kubernetes cluster
runs", "what IDE does"), or after "what is the" up to "of", "for", "in" ("what is the staging URL of"). A line holding
none of them (index terms, so stems count: "clusters" holds "cluster") holds only the question's subject; it is no
lexical answer (:func:`holds_asked`). Hybrid recall then answers by meaning alone, at its floor ("what IDE does the
user program in" -> "Codes in PyCharm Professional" stays answered by the semantic leg).

A kind word a line holds by a value (day, database: :mod:`.recallversion`) and the answer types' words (version,
address ...: :mod:`.recalltype`) are left to those rules. Measured in docs/benchmarks.md (rec13).
"""

from __future__ import annotations

import re
from typing import Protocol

from memrepo.engine.format import stemming
from memrepo.engine.format.stemming import index_terms
from memrepo.engine.format.terms import fold, split_folded

from .recallabsent import SMALL_REPO
from .recalltype import answers_type
from .recallversion import KIND_TERMS, VERSION_WORDS


class Lined(Protocol):
    """What :func:`answers_lexical` reads of a hit (:class:`.recallrank.Candidate` gives it)."""

    @property
    def text(self) -> str:
        """The hit's line."""
        ...

    @property
    def subject(self) -> str | None:
        """Its ``subject:`` (None: none)."""
        ...

    @property
    def context(self) -> str:
        """The headings above it and its section's links."""
        ...


VERBS = (
    r"does|do|did|is|are|was|were|will|would|should|can|could|has|have|had|runs?|holds?|gets?|goes|go|comes?|"
    r"lives?|sits?|hosts?|stores?|keeps?|uses?|needs?|belongs?"
)
"""The verbs that end the asked thing's words after "which"/"what"."""

ASKED = re.compile(
    rf"\b(?:which|what)\s+(?:kind\s+of\s+|type\s+of\s+|sort\s+of\s+)?((?:[\w.+#-]+\s+){{0,2}}?[\w.+#-]+)\s+(?:{VERBS})\b"
    r"|\bwhat(?:'s|\s+is|\s+are|\s+was)\s+(?:the|his|her|their|its|our|my)\s+((?:[\w.+#-]+\s+){0,3}?[\w.+#-]+)"
    r"(?:\s+(?:of|for|in|on|at|that|we|I|to|from)\b|\s*\?*\s*$)"
    r"|\bwho\s+(?!(?:is|are|was|were|will|would|should|can|could|does|do|did|has|have|had|else|of)\b)([a-z]+)\b"
    r"|\bwho(?:'s|\s+is|\s+are|\s+was)\s+(?:the|our|their|his|her|my)\s+((?:[\w.+#-]+\s+){0,2}?[\w.+#-]+)"
    r"(?:\s+(?:of|for|in|on|at|that|to|from)\b|\s*\?*\s*$)"
    r"|\b(?:what|when|where|which)\b.*?'s\s+((?:[\w.+#-]+\s+){0,2}?[\w.+#-]+)\s*\?*\s*$",
    re.IGNORECASE,
)
"""An English question's asked thing: "which/what X [Y [Z]] <verb>", or "what is the X [Y ...] of/for/in"."""

LEFT_TO_TYPES = frozenset(
    stemming.index_term(w)
    for w in ("version", "versions", "address", "birthday", "password", "number", "email", "phone", "day", "time")
)
"""Asked words other rules judge (:mod:`.recalltype`, :mod:`.recallversion`): a phrase holding one is left to them."""


def asked_terms(query: str) -> frozenset[str]:
    """The index terms of what ``query`` asks for (:data:`ASKED`), empty when it names none or a word another rule
    judges (:data:`LEFT_TO_TYPES`, a kind word of :mod:`.recallversion`); for "which X version" it is X, the thing
    whose version is asked ("Which Rust version does the shop API use?" is not answered by "Postgres 15")."""
    found = ASKED.search(query)
    if found is None:
        return frozenset()
    words = index_terms(split_folded(fold(next(g for g in found.groups() if g))))
    versions = {stemming.index_term(w) for w in VERSION_WORDS} | {stemming.index_term("version")}
    if len(words) > 1 and words[-1] in versions:  # "which Rust version": the thing whose version is asked
        words = words[:-1]
    terms = frozenset(words[-1:])  # the head noun
    skip = LEFT_TO_TYPES | frozenset(KIND_TERMS) | versions
    return frozenset() if terms & skip else terms


def holds_asked(query: str, *texts: str) -> bool:
    """Whether one of ``texts`` (a query's best hit and the next ones holding as much of it) holds a word of what
    ``query`` asks for, or the query names no asked thing (module docstring).

    When one of them holds the query's other words (its subject: "blog" in "Who hosts the blog?"), the one holding
    the asked word must hold one of those too: "The staging host is staging.shop.internal" holds "host" of another
    thing, and beside "The blog's comments are handled by Giscus" neither answers (breaker23 B23-3)."""
    asked = asked_terms(query)
    if not asked:
        return True
    held = [set(index_terms(split_folded(fold(text))) + stemming.variant_terms(text)) for text in texts]
    rest = set(index_terms(split_folded(fold(query)))) - asked - stemming.filler_terms()
    if not any(rest & terms for terms in held):
        return any(asked & terms for terms in held)
    return any(asked & terms and rest & terms for terms in held)


def answers_lexical(query: str, n_items: int, best: Lined, *tied: Lined) -> bool:
    """Whether lexical recall's best hit ``best`` (with ``tied``, the next hits holding as much of the query) answers
    ``query`` in a repo of ``n_items`` entries: its text holds the expected answer type
    (:func:`.recalltype.answers_type`), and in a small repo (:data:`.recallabsent.SMALL_REPO`) its text, ``subject:`` or
    context (the headings above it) holds what is asked (:func:`holds_asked`: "which editor does Nadia use now" is
    answered by "Moved to Zed for everything" with ``subject: editor``)."""
    if not answers_type(query, best.text, *(hit.text for hit in tied)):
        return False
    if n_items > SMALL_REPO:
        return True
    return holds_asked(query, *(" ".join((hit.text, hit.subject or "", hit.context or "")) for hit in (best, *tied)))
