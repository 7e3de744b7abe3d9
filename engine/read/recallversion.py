"""Lexical recall's "which X version" rule: a version word no entry holds is held by a line naming X and a number.

"Which React version?" over "The frontend uses React 18" and five lines like it: "version" is in no entry, so it
weighed the most of the query (the highest idf) and the line naming React stayed under the confidence minimum
(:data:`.recallrank.MIN_CONFIDENCE`): recall and the prompt hook answered nothing (breaker11 B11-15). Such a line now
holds the version word (:func:`names_version`); a question whose product no line names still gets nothing.

Measured on the tuning splits of benchmarks/recall_quality (A, C, D, E, G, K, T; docs/benchmarks.md): leaving every
word no entry holds out of the confidence gained hit@1 on each split but cost the no-answer queries of four (A
empty 0.875 -> 0.688); leaving out "url", "port", "host" and "address" too lost "what is the staging URL of the
invoicing app" (C, no answer): a line naming the product does not hold its URL, while one naming it with a number
holds a version.
"""

from __future__ import annotations

from collections.abc import Callable, Set

from memrepo.engine.format.stemming import index_term
from memrepo.engine.format.terms import fold

VERSION_WORDS = ("version",)
"""The query words that ask for the version of what the rest of the query names."""


def absent_versions(qterms: list[str], held: Callable[[str], bool]) -> frozenset[str]:
    """The query's terms of :data:`VERSION_WORDS` no entry holds (``held``: in an entry's text or context), when
    the query has another term; else empty (the usual case)."""
    words = {index_term(w) for w in VERSION_WORDS}
    absent = frozenset(t for t in qterms if t in words and not held(t))
    return absent if absent and any(t not in absent for t in qterms) else frozenset()


def names_version(text: str, qset: Set[str]) -> bool:
    """Whether ``text`` names a word of the query (its index terms ``qset``) with a version number right after it
    (``React 18``, ``Python 3.12``, ``Go 1.22``, ``Hugo v0.120``)."""
    import re  # only for a query with an absent version word

    return any(index_term(m[1]) in qset for m in re.finditer(r"([^\W\d_]+)[ -]v?\d+(?:\.\d+)*\b", fold(text)))
