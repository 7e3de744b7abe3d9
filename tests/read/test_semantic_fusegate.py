"""Hybrid recall answers by meaning alone only with a neighbour that stands out of the repo or a lexical hit's backing
(:mod:`memrepo.engine.read.semantic_fusegate`).

The embedder puts the query at (1, 0, 0) and each entry at a chosen cosine to it, so the best neighbour's cosine is
over the answer's floor in both repos; only how the other lines' cosines spread around it differs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from memrepo.engine.config import SemanticSettings
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallabsent import SMALL_REPO
from memrepo.engine.read.recallnear import search
from memrepo.engine.read.semantic_build import build_vectors
from memrepo.engine.read.semantic_fuse import SemanticRecall
from memrepo.engine.read.semantic_fusegate import LEXICAL_SUPPORT, answers_alone, expected_max, stands_out

TOP = 0.87
"""The best neighbour's cosine: over the answer's floor (0.845, less a small shift) in every repo here."""
QUERY = "where can I find a way in if locked out"  # no word in common with any entry


class SpreadEmbedder:
    """The query at (1, 0, 0); entry ``n`` (``note n:``) at the cosine ``cosines[n]`` to it."""

    model_id = "test:spread"

    def __init__(self, cosines: list[float]) -> None:
        self.cosines = cosines

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        out = []
        for text in texts:
            if query:
                out.append([1.0, 0.0, 0.0])
                continue
            found = re.search(r"note (\d+):", text)
            c = self.cosines[int(found.group(1))] if found else 0.0
            out.append([c, math.sqrt(1.0 - c * c), 0.0])
        return out


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others


def _answered(tmp_path: Path, cosines: list[float]) -> bool:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    lines = [f"- Gardening note {n}: water tomatoes{n} every morning" for n in range(len(cosines))]
    (root / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    emb = SpreadEmbedder(cosines)
    assert build_vectors(root, emb, 10_000) == len(cosines)
    sem = SemanticRecall(root, SemanticSettings(), emb, background=False)  # type: ignore[arg-type]
    try:
        found, info, answered = search(index, sem, QUERY, (None, None, False), 10)
        assert info is not None and info.mode == "hybrid"
        return answered and bool(found)
    finally:
        sem.close()
        index.close()


def test_a_neighbour_in_a_crowd_of_near_lines_does_not_answer(tmp_path: Path) -> None:
    # 100 lines from 0.80 to 0.87 evenly: the best is as near as the best of 100 unrelated lines would be
    n = 100
    cosines = [0.80 + 0.07 * i / (n - 1) for i in range(n)]
    assert _answered(tmp_path, cosines) is False


def test_a_neighbour_standing_out_of_the_repo_answers(tmp_path: Path) -> None:
    n = 100
    cosines = [0.70 + 0.06 * i / (n - 2) for i in range(n - 1)] + [TOP]
    assert _answered(tmp_path, cosines) is True


def test_a_small_repo_keeps_the_cosine_floor_alone(tmp_path: Path) -> None:
    n = SMALL_REPO
    cosines = [0.80 + 0.07 * i / (n - 1) for i in range(n)]  # the crowd that does not answer in a larger repo
    assert _answered(tmp_path, cosines) is True


def test_a_lexical_hit_backs_a_neighbour_in_a_crowd() -> None:
    crowd = np.linspace(0.80, TOP, 100, dtype=np.float32)
    assert not answers_alone(100, [0.0, LEXICAL_SUPPORT - 0.01], lambda: crowd, TOP)
    assert answers_alone(100, [LEXICAL_SUPPORT], lambda: crowd, TOP)


def test_stands_out_reads_the_expected_maximum_of_that_many_lines() -> None:
    assert expected_max(185) == pytest.approx(2.71, abs=0.01)
    assert expected_max(24) == pytest.approx(1.95, abs=0.01)
    assert expected_max(1) == 0.0
    sims = np.array([0.0] * 99 + [1.0], dtype=np.float32)  # z of the one: 9.9
    assert stands_out(sims, 1.0)
    assert not stands_out(np.linspace(0.0, 1.0, 100, dtype=np.float32), 1.0)  # z 1.72 under 2.46
