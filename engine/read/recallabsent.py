"""Lexical recall's small-repo rule: in a repo of few entries, a query word no entry holds weighs in the confidence
no more than the rarest word that some entry holds.

A hit's confidence is the share of the query's term weight (idf, :func:`.recallrank.idf`) it holds. A word no entry
holds gets the highest idf of all; in a repo of a few dozen lines it weighs far more than the words the entries do
hold, since every one of those is in a line or two of few: "Can I push this straight to main?" held 0.293 of its
weight against "Never push directly to main; always open a pull request" ("straight" in no entry), under the minimum
(:data:`.recallrank.MIN_CONFIDENCE`, 0.38), so the prompt hook of a new user's repo added nothing (sess12). In a
repo of :data:`SMALL_REPO` entries or fewer such a word's weight is capped at the highest weight of a query word some
entry holds (:func:`absent_capped`); the ranking's scores are unchanged, and a query none of whose words an entry
holds is unchanged (it has no hit).

Only small repos: leaving the words no entry holds out of the confidence in every repo cost the no-answer questions
of four tuning splits (round 11, :mod:`.recallversion`); measured in docs/benchmarks.md (rec13).
"""

from __future__ import annotations

from collections.abc import Callable

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
