"""Lexical recall gives no answer to a question naming a thing no line holds (:mod:`.recallabsentterm`, rec16).

The repo is over :data:`memrepo.engine.read.recallabsent.SMALL_REPO` entries, so only this rule tells the questions
apart: "Upgrade the Django route planner service" and "Upgrade the route planner service" hold the same line's words.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallabsent import SMALL_REPO
from memrepo.engine.read.recallabsentterm import held_prefix, keys_prefixed

LINES = [
    "- The route planner service is a FastAPI app on PostgreSQL 16, deployed with Helm",
    "- Prefers pnpm over npm for JavaScript projects",
    "- The api-gateway Dockerfile pins python:3.11-slim",
    "- 大阪の現場責任者は田中さん",
] + [f"- Tomato bed {n} gets basil and marigold companions" for n in range(SMALL_REPO + 5)]


@pytest.fixture
def index(tmp_path: Path):
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    (root / "MEMORY.md").write_text("\n".join(LINES) + "\n", encoding="utf-8")
    idx = RecallIndex(root)
    idx.sync()
    yield idx
    idx.close()


def _texts(index: RecallIndex, query: str, **kw: float) -> list[str]:
    return [index.row(iid)[3] for iid, _key in index.search(query, **kw)]


def test_lexical_recall_answers_without_the_absent_thing(index: RecallIndex) -> None:
    assert _texts(index, "Upgrade the route planner service")[:1] == [LINES[0][2:]]


def test_lexical_recall_gives_no_answer_to_a_question_naming_an_absent_thing(index: RecallIndex) -> None:
    assert _texts(index, "Upgrade the Django route planner service") == []
    assert _texts(index, "Which route planner service listens on port 8443?") == []


def test_all_still_lists_the_hits_none_an_answer(index: RecallIndex) -> None:
    found = index.search("Upgrade the Django route planner service", min_confidence=0.0)
    assert [index.row(iid)[3] for iid, _key in found][:1] == [LINES[0][2:]]
    assert found.answer_floor == math.inf


def test_an_acronym_the_best_hit_spells_is_held(index: RecallIndex) -> None:
    assert _texts(index, "pnpm or npm for JS projects")[:1] == [LINES[1][2:]]


@pytest.mark.parametrize("term", ["dockerfil", "dock", "postgr", "japanes", "kubernet", "tomatoes", "planner"])
def test_keys_in_memory_are_prefixed_as_the_index_is(index: RecallIndex, term: str) -> None:
    keys = [row[0] for row in index.db.execute("SELECT key FROM post")]
    assert keys_prefixed(keys, term) == held_prefix(index.db, term)
