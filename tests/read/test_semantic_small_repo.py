"""Hybrid recall's cosine floors drop in a small repo (docs/architecture.md §4, "Small repos").

The floors were tuned on repos of 135-185 entries; in a repo of fewer entries
(indexed, with a vector or not yet) both drop by ``size_slope × ln(135 / N)``. The embedder here
puts one entry at a chosen cosine to every query and the others at 0, so the
floors are tested exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import pytest

from memrepo.engine.config import SemanticSettings
from memrepo.engine.configpath import SIZE_MIN, SIZE_REF, SemanticKeys, size_shift
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallnear import search
from memrepo.engine.read.semantic_build import build_vectors
from memrepo.engine.read.semantic_fuse import SemanticRecall

TARGET = "Keeps the spare house keys with the neighbour downstairs"
QUERY = "where can I find a way in if locked out"  # no word in common with any entry


class AngleEmbedder:
    """The query at (1, 0, ...); :data:`TARGET` at ``cosine`` to it; every other entry orthogonal to it."""

    model_id = "test:angle"

    def __init__(self, cosine: float) -> None:
        self.cosine = cosine

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        out = []
        for text in texts:
            if query:
                out.append([1.0, 0.0, 0.0])
            elif TARGET in text:
                out.append([self.cosine, math.sqrt(1.0 - self.cosine**2), 0.0])
            else:
                out.append([0.0, 0.0, 1.0])
        return out


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others


def _repo(
    tmp_path: Path, entries: int, cosine: float, vectors: int | None = None
) -> tuple[RecallIndex, AngleEmbedder, Path]:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    lines = [f"- {TARGET}"] + [f"- Gardening note {n}: water tomatoes{n} every morning" for n in range(entries - 1)]
    if vectors:
        lines.reverse()  # a partial build embeds the newest ids first (semantic_store.reconcile): the target is one
    (root / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    emb = AngleEmbedder(cosine)
    assert build_vectors(root, emb, vectors or 10_000) == (vectors or entries)
    return index, emb, root


def _recall(
    tmp_path: Path,
    entries: int,
    cosine: float,
    related: bool = False,
    keys: bool = False,
    vectors: int | None = None,
    **settings: float,
):
    index, emb, root = _repo(tmp_path, entries, cosine, vectors)
    conf = SemanticKeys(**settings) if keys else SemanticSettings.model_validate(settings)  # keys: the prompt hook's
    sem = SemanticRecall(root, conf, emb, background=False)  # type: ignore[arg-type]
    try:
        found, _info, answered = search(index, sem, QUERY, (None, None, False), 5, related=related)
        return [index.row(iid)[3] for iid, _key in found], answered
    finally:
        sem.close()


def test_the_shift_falls_with_the_log_of_the_size_and_is_nothing_at_the_tuning_size() -> None:
    assert size_shift(SIZE_REF) == 0.0 and size_shift(10_000) == 0.0
    assert size_shift(22) == pytest.approx(0.018 * math.log(SIZE_REF / 22))
    assert size_shift(10) > size_shift(22) > size_shift(80) > size_shift(SIZE_REF - 1) > 0.0
    assert size_shift(1) == size_shift(0) == size_shift(SIZE_MIN)  # below the sizes measured: the smallest's
    assert size_shift(22, 0.0) == 0.0


def test_a_small_repo_answers_with_a_neighbour_under_the_tuned_answer_floor(tmp_path: Path) -> None:
    # 20 entries: the answer floor is 0.845 - 0.034; 0.83 answers (it did not before the rule)
    got, answered = _recall(tmp_path, 20, 0.83)
    assert answered and got[:1] == [TARGET]


def test_the_same_cosine_does_not_answer_at_the_tuning_size_or_with_the_rule_off(tmp_path: Path) -> None:
    got, answered = _recall(tmp_path / "large", SIZE_REF + 5, 0.83)
    assert got == [] and not answered
    got, answered = _recall(tmp_path / "off", 20, 0.83, size_slope=0.0)
    assert got == [] and not answered


def test_a_large_repo_whose_vectors_are_still_being_built_keeps_the_tuned_floors(tmp_path: Path) -> None:
    # doorwarm: with the build started at server start, the first prompts met 20 vectors in a repo of hundreds;
    # the floors dropped as if the repo had 20 entries and three unrelated neighbours answered. The repo's size,
    # not its vectors so far, sets the shift: 0.83 answers in a repo of 20, not in one of 140 with 20 vectors.
    got, answered = _recall(tmp_path, SIZE_REF + 5, 0.83, vectors=20)
    assert got == [] and not answered


def test_a_small_repo_lists_a_nearest_entry_under_the_tuned_neighbour_floor(tmp_path: Path) -> None:
    # 0.795 is under min_similarity (0.81) as tuned, over it in a repo of 20 (0.776), and under the answer floor
    got, answered = _recall(tmp_path, 20, 0.795, related=True)
    assert got == [TARGET] and not answered
    got, answered = _recall(tmp_path / "off", 20, 0.795, related=True, size_slope=0.0)
    assert got == []


def test_the_prompt_hook_s_light_keys_carry_the_slope(tmp_path: Path) -> None:
    assert SemanticKeys().size_slope == SemanticSettings().size_slope
    got, answered = _recall(tmp_path, 20, 0.83, keys=True)
    assert answered and got[:1] == [TARGET]
    got, answered = _recall(tmp_path / "off", 20, 0.83, keys=True, size_slope=0.0)
    assert got == [] and not answered
