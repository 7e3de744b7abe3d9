"""Hybrid recall's gate for an answer by meaning alone: a neighbour no lexical hit backs must stand out of the repo.

When lexical recall answers nothing, :meth:`.semantic_fuse.SemanticRecall.fuse` answers with the best semantic
neighbour at ``[semantic] answer_similarity`` (less the small-repo shift) or above. A fixed cosine does not say whether
a line answers: a task prompt about a thing the repo never mentions ("Refactor the React component in src/Header.tsx to
use hooks", "Find out why my Spotify playlist export script returns a 401") has a best neighbour at 0.85-0.86 under the
local model, as high as a true paraphrase's, because some line of 185 is always that near. Of the tuning splits'
no-answer questions, 22 were answered this way, 9 of them the prompt hook's task prompts (rec14, /work/notes).

The rule (:func:`answers_alone`), in a repo of more than :data:`.recallabsent.SMALL_REPO` entries: the semantic answer
stands when the lexical leg backs it, some lexical hit holding at least :data:`LEXICAL_SUPPORT` of the query's weight,
or when its cosine stands out of the query's cosines to every line with a vector more than the best of that many
unrelated lines would: a z-score (cosine less their mean, over their standard deviation) at or above the expected
maximum of ``N`` draws of a normal distribution (:func:`expected_max`, Blom's approximation; 2.71 at 185 lines). The bar
is measured on the repo and the query themselves, so it follows the model and the repo's size with no cosine tuned
on our sets. A small repo keeps the cosine floor alone: its paraphrase answers share no word with the question and
stand out less ("what IDE does the user program in" -> "Codes in PyCharm Professional", z 1.73 of 24 lines).

Measured on the tuning splits (benchmarks/hybrid_noanswer_study.py): the prompt tuning split's no-answer prompts 6 of 9
left empty, answerable answers by meaning alone unchanged on every split (98 with a gold line in the top 5); the bar
:data:`LEXICAL_SUPPORT` holds anywhere in 0.12-0.15. benchmarks/bench_recall_quality.py: the prompt split's no-answer
empty 0.591 -> 0.864 (hybrid) and 0.773 -> 0.864 (the prompt hook through the recall door); every other cell of every
tuning split and the held-out totals unchanged. The other no-answer questions answered by meaning alone ("what is the
budget for the GopherCon trip", z 4.73) stand out as much as true answers ("who is her boss right now", z 5.14).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from statistics import NormalDist
from typing import Any

from .recallabsent import SMALL_REPO

LEXICAL_SUPPORT = 0.15
"""The confidence (share of the query's weight) a lexical hit under the answer's minimum must hold to back a
semantic-only answer (the task prompts with no answer held 0.08-0.13; their answered kin 0.17-0.37, one 0.08)."""


def cosines(store: Any, query: Any) -> Any:
    """The query's cosines to every line with a vector (numpy float32), as :meth:`.semantic_store.VectorStore.nearest`
    computes them; an empty array when the vectors are of another size."""
    import numpy as np

    _ids, mat, scales = store.matrix()
    q = np.asarray(query, dtype=np.float32)
    if not len(mat) or mat.shape[1] != len(q):
        return np.empty(0, dtype=np.float32)
    sims = np.empty(len(mat), dtype=np.float32)
    step = 2048  # converted to float32 a slice at a time, as nearest does: 3 MB whatever the count
    for start in range(0, len(mat), step):
        sims[start : start + step] = (mat[start : start + step].astype(np.float32) @ q) * scales[start : start + step]
    return sims


def expected_max(n: int) -> float:
    """The expected largest of ``n`` draws of a standard normal distribution (Blom's approximation), 0.0 under 2."""
    if n < 2:
        return 0.0
    return NormalDist().inv_cdf((n - 0.375) / (n + 0.25))


def stands_out(sims: Any, top: float) -> bool:
    """Whether the cosine ``top`` stands out of ``sims`` (a numpy array of the query's cosines to every line with a
    vector) more than the best of that many unrelated lines would: z-score at or above :func:`expected_max`."""
    n = len(sims)
    if n < 3:
        return True
    std = float(sims.std())
    if std <= 0.0:
        return True
    return (top - float(sims.mean())) / std >= expected_max(n)


def answers_alone(n_items: int, lexical_confidences: Iterable[float], sims: Callable[[], Any], top: float) -> bool:
    """Whether hybrid recall's best semantic neighbour (cosine ``top``, already over the answer's floor) answers a
    query lexical recall does not answer (the module's rule).

    Args:
        n_items: the entries of the recall index.
        lexical_confidences: the lexical hits' confidences, under the answer's minimum (the fusion's pool).
        sims: a callable giving the query's cosines to every line with a vector (numpy array), called only when
            needed.
        top: the best neighbour's cosine.
    """
    if n_items <= SMALL_REPO:
        return True
    if max(lexical_confidences, default=0.0) >= LEXICAL_SUPPORT:
        return True
    return stands_out(sims(), top)
