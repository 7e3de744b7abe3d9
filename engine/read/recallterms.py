"""Recall's index terms of a query or an entry, and a term's weight (:mod:`.recallrank` ranks with them).

Split out of :mod:`.recallrank` so a rule the ranking calls (:mod:`.recallabsentterm`) reads them without importing
the ranking.
"""

from __future__ import annotations

import math

from memrepo.engine.format import stemming
from memrepo.engine.format.stemming import index_terms
from memrepo.engine.format.terms import MAX_QUERY_TERMS, fold, query_terms, split_folded

CONTEXT_KEY = "\x03"
"""Prefix of the posting lists of context terms (headings above an entry, link-only bullets of its section)."""


LONG_TERMS = 6
"""A prompt with more counted terms than this is long (the module docstring). Questions of the tuning splits count
2 to 5 (90th percentile 5, at most 8); task-style prompts 6 to 14 (median 9). Chosen leave-one-repo-out over repos
A (with its task prompts, split ``t-tune``), C, D, E, G and K: every fold chose 6, the lowest that adds no hit to a
no-answer query of the training repos (docs/benchmarks.md)."""


def query_index_terms(query: str) -> tuple[str, list[str]]:
    """The folded query and its distinct index terms (at most :data:`MAX_QUERY_TERMS`).

    Returns:
        tuple[str, list[str]]: the folded query; its index terms in first-seen order
        (empty for a query of stop words or punctuation only).
    """
    folded, raw = query_terms(query)
    return folded, list(dict.fromkeys(index_terms(stemming.query_variants(query, raw))))[:MAX_QUERY_TERMS]


def entry_index_terms(text: str) -> list[str]:
    """An entry's index terms in order, repeats kept, then its variants (:func:`.stemming.variant_terms`)."""
    return index_terms(split_folded(fold(text))) + stemming.variant_terms(text)


def meta_terms(value: str) -> frozenset[str]:
    """The index terms of a ``subject:`` or ``kind:`` value."""
    return frozenset(index_terms(split_folded(fold(value))))


def idf(df: int, n: int) -> float:
    """BM25's inverse document frequency of a term held by ``df`` of ``n`` entries (always > 0)."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))
