"""Exact identifiers in recall (docs/architecture.md §4, engine/read/recallorder.py ``id_terms``/``ids_first``): a
query's identifier ("4041", "node18") matches whole, and the line holding it is never outranked by a line
holding fewer of the query's identifiers, neither lexically nor by fusion with semantic neighbours (breaker4 F2:
"item 4041" lost its line to "project-0041 workspace" lines once vectors existed)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from memrepo.engine.config import SemanticSettings
from memrepo.engine.read import coldrecall
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallorder import id_terms, ids_first
from memrepo.engine.read.semantic_build import build_vectors
from memrepo.engine.read.semantic_fuse import DEPTH, SemanticRecall

TARGET = "Team requires feature flags for risky changes for auth (item 4041)"
DECOYS = [f"project-{n:04} workspace" for n in range(30, 50)]
"""More lookalikes than the semantic list holds (``limit + DEPTH``): the line holding the number is not in it."""


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others


class NumberLookalikes:
    """An embedder that does what multilingual-e5-small does with numbers (measured on a make_corpus repo):
    "item 4041" lands nearer "project-0041 workspace" (0.88) than the line holding "item 4041" (0.86)."""

    model_id = "test:number-lookalikes"

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        out = []
        for text in texts:
            if query or text.startswith("project-"):
                out.append([1.0, 0.0])
            elif "4041" in text:
                out.append([0.8, 0.6])
            else:
                out.append([0.0, 1.0])
        return out


def _repo(tmp_path: Path) -> tuple[Path, RecallIndex]:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    lines = [f"- {TARGET}"] + [f"- {d}" for d in DECOYS]
    lines += [f"- Team uses squash merges for cache (item {n})" for n in (14041, 5641, 4164)]
    lines += ["- Docs build notes (docs-3941)", "- Old ticket 0041 closed"]
    lines += [f"- Team {('owns', 'runs', 'keeps')[n % 3]} the release notes (item {n})" for n in range(100, 160)]
    (root / "topics").mkdir()
    (root / "topics" / "work.md").write_text("# work\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    return root, index


def _texts(index: RecallIndex, hits: list[tuple[int, tuple]]) -> list[str]:
    return [index.row(iid)[3] for iid, _key in hits]


def test_identifiers_are_terms_of_three_or_more_characters_with_a_digit() -> None:
    assert id_terms("item 4041") == {"4041"}
    assert id_terms("what does node18 need on k8s") == {"node18", "k8s"}
    assert id_terms("project-0041") == {"0041"}  # cut at the hyphen: project and 0041
    assert id_terms("do we indent YAML with 2 spaces or 4, Postgres 16, q2?") == frozenset()  # quantities


def test_an_identifier_matches_whole(tmp_path: Path) -> None:
    _root, index = _repo(tmp_path)
    try:
        assert _texts(index, index.search("4041", limit=10)) == [TARGET]  # not 14041, 0041 nor docs-3941
    finally:
        index.close()


def test_ids_first_orders_by_identifiers_held_and_brings_back_a_dropped_line() -> None:
    text = {1: "item 4041 and 5641", 2: "project-0041", 3: "item 4041", 4: "item 5641", 5: "nothing"}
    ids = id_terms("4041 5641")
    assert ids_first([2, 5, 4, 3], ids, text.get) == [4, 3, 2, 5]  # one each: their order stands
    assert ids_first([2, 5], ids, text.get, more=[3, 1]) == [1, 3, 2, 5]  # both, then one, from the lexical list
    assert ids_first([2, 5], frozenset(), text.get, more=[3]) == [2, 5]  # no identifier: unchanged


def test_lexically_an_identifier_line_is_above_lines_holding_the_other_words(tmp_path: Path) -> None:
    # 100 lines of 2,100 hold every other word of the query: together those words weigh more than "5641",
    # so the line holding it was not even among the candidates scored.
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    lines = [f"- Team prefers feature flags for risky changes for cache (item {n})" for n in range(100, 200)]
    lines += [f"- Note {n} about the weekly {('sync', 'demo', 'retro')[n % 3]} meeting" for n in range(2000)]
    lines.append("- Team uses squash merges for cache (item 5641)")
    (root / "lessons.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    try:
        got = _texts(index, index.search("feature flags for risky changes item 5641", limit=3))
    finally:
        index.close()
    assert got[0] == "Team uses squash merges for cache (item 5641)"


def test_fusion_never_puts_lookalike_numbers_above_the_identifier_line(tmp_path: Path) -> None:
    root, index = _repo(tmp_path)
    emb = NumberLookalikes()
    build_vectors(root, emb, 100)
    sem = SemanticRecall(root, SemanticSettings.model_validate({"min_similarity": 0.5, "answer_similarity": 0.6}), emb)
    try:
        for limit in (3, 5):
            found = index.search("item 4041", limit=limit + DEPTH)
            pool = index.search("item 4041", limit=limit + DEPTH, min_confidence=0.0)
            hits, info = sem.fuse(
                index, "item 4041", found, workspace_file=None, workspace_id=None, scoped=False, limit=limit, pool=pool
            )
            assert info.mode == "hybrid"
            assert _texts(index, hits)[0] == TARGET
            assert len(hits) == limit
    finally:
        sem.close()
        index.close()


def test_the_prompt_hook_fusing_keeps_the_identifier_line_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, index = _repo(tmp_path)
    index.close()
    emb = NumberLookalikes()
    build_vectors(root, emb, 100)
    monkeypatch.setattr("memrepo.engine.read.semantic_once.make_embedder", lambda _settings: emb)
    settings = SemanticSettings.model_validate({"min_similarity": 0.5, "answer_similarity": 0.6})
    hits = coldrecall.recall(root, "item 4041", limit=3, quick=True, semantic=settings)
    assert hits and hits[0].mode == "hybrid"
    assert hits[0].text == TARGET


def test_the_prompt_hook_takes_no_lookalike_number_for_an_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The lookalikes are over the semantic answer floor (cosine 1.0 here, 0.88 under the real model), but a query
    # naming an identifier is answered by lines holding it: in the hook a hit without it needs its confidence.
    root, index = _repo(tmp_path)
    index.close()
    emb = NumberLookalikes()
    build_vectors(root, emb, 100)
    monkeypatch.setattr("memrepo.engine.read.semantic_once.make_embedder", lambda _settings: emb)
    settings = SemanticSettings.model_validate({"min_similarity": 0.5, "answer_similarity": 0.6})
    listed = coldrecall.recall(root, "item 4041", limit=3, semantic=settings)
    assert [h.text for h in listed][1:] and all(h.text in DECOYS for h in listed[1:])  # MCP, recall: listed
    hook = coldrecall.recall(root, "item 4041", limit=3, quick=True, semantic=settings)
    assert [h.text for h in hook] == [TARGET]
