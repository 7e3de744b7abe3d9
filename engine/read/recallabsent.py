"""The term weights a lexical confidence counts (:func:`confidence_weights`), and the small-repo rule for the
answer's gate: in a repo of few entries, a query word no entry holds weighs no more than the rarest held word.

A hit's confidence is the share of the query's term weight (idf, :func:`.recallrank.idf`) it holds. A word no entry
holds gets the highest idf of all; in a repo of a few dozen lines it weighs far more than the words the entries do
hold, since every one of those is in a line or two of few: "Can I push this straight to main?" held 0.293 of its
weight against "Never push directly to main; always open a pull request" ("straight" in no entry), under the minimum
(:data:`.recallrank.MIN_CONFIDENCE`, 0.38), so the prompt hook of a new user's repo added nothing (sess12). In a
repo of :data:`SMALL_REPO` entries or fewer such a word's weight is capped at the highest weight of a query word some
entry holds (:func:`absent_capped`) in the confidence the answer's gate reads; the ranking's scores, each hit's own
confidence and the floor a hit needs are unchanged (a weak hit holding one word of a question stays out), and a
query none of whose words an entry holds is unchanged (it has no hit).

Only small repos: leaving the words no entry holds out of the confidence in every repo cost the no-answer questions
of four tuning splits (round 11, :mod:`.recallversion`); measured in docs/benchmarks.md (rec13).
"""

from __future__ import annotations

from collections.abc import Callable

from memrepo.engine.format.stemming import filler_terms

SMALL_REPO = 60
"""The most entries a repo may hold for :func:`absent_capped` to cap a word no entry holds."""


def absent_capped(weights: dict[str, float], held: Callable[[str], bool], n_items: int) -> dict[str, float]:
    """The query's term weights for the confidence, a word no entry holds capped in a small repo (module docstring).

    Args:
        weights: the query's index terms and their weights (idf).
        held: whether some entry holds a term (in its text or its context).
        n_items: how many entries the index holds.

    Returns:
        dict[str, float]: ``weights`` itself in a repo of more than :data:`SMALL_REPO` entries or when no term is
        held; else ``weights`` with each term no entry holds at most the highest weight of a held one.
    """
    if n_items > SMALL_REPO:
        return weights
    top = max((w for t, w in weights.items() if held(t)), default=None)
    if top is None:
        return weights
    return {t: w if held(t) else min(w, top) for t, w in weights.items()}


def confidence_weights(weights: dict[str, float]) -> dict[str, float]:
    """The query terms a confidence counts, with their weights: all but the filler words, or all when none is left.

    Args:
        weights: the query's index terms and their weights (idf).

    Returns:
        dict[str, float]: ``weights`` without the terms of :func:`~memrepo.engine.format.stemming.filler_terms`
        ("how often is Lena on night duty" counts lena, night, duti); ``weights`` itself for a query of filler only.
    """
    filler = filler_terms()
    return {t: w for t, w in weights.items() if t not in filler} or weights
