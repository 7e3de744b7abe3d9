"""Hybrid recall gives no answer to a question naming a thing no line holds (:mod:`memrepo.engine.read.recallabsentterm`).

The embedder puts every query at (1, 0, 0) and the repo's last line well out of the others, so the semantic leg
answers every query alike; only the words the query names differ.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from memrepo.engine.config import SemanticSettings
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallabsentterm import absent_things, held_prefix, is_specific, names_absent, spelled
from memrepo.engine.read.recallnear import search
from memrepo.engine.read.recallview import scoped_view
from memrepo.engine.read.semantic_build import build_vectors
from memrepo.engine.read.semantic_fuse import SemanticRecall

TOP = 0.87
"""The best neighbour's cosine: over the answer's floor and well out of the other lines' (0.70-0.76)."""


class SpreadEmbedder:
    """Every query at (1, 0, 0); entry ``n`` (``note n:``) at the cosine ``cosines[n]`` to it."""

    model_id = "test:spread"

    def __init__(self, cosines: list[float]) -> None:
        self.cosines = cosines

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        out = []
        for text in texts:
            found = None if query else re.search(r"note (\d+):", text)
            c = 1.0 if query else self.cosines[int(found.group(1))] if found else 0.0
            out.append([c, math.sqrt(max(0.0, 1.0 - c * c)), 0.0])
        return out


LINES = (
    "- route-planner is a FastAPI service on PostgreSQL 16, deployed with Helm",
    "- The driver app is Flutter with Riverpod; crashes go to Crashlytics",
    "- Codes in PyCharm Professional with the Catppuccin theme",
    "- Pull requests need one review; the api-gateway Dockerfile pins python:3.11-slim",
    "- 大阪の現場責任者は田中さん",
)


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others


@pytest.fixture
def index(tmp_path: Path):
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    (root / "MEMORY.md").write_text("\n".join(LINES) + "\n", encoding="utf-8")
    idx = RecallIndex(root)
    idx.sync()
    yield idx
    idx.close()


def _specific(index: RecallIndex, query: str) -> list[str]:
    view = scoped_view(index, False, None, None)
    return [w for w, specific in absent_things(view, query, lambda t: held_prefix(index.db, t)) if specific]


def test_a_product_no_line_names_is_an_absent_specific_word(index: RecallIndex) -> None:
    assert _specific(index, "which Kubernetes cluster runs the route planner") == ["Kubernetes"]
    assert _specific(index, "which Sentry project collects the driver app's crashes") == ["Sentry"]
    assert names_absent(index, "which Kubernetes cluster runs the route planner")


def test_a_number_or_identifier_no_line_holds_is_specific(index: RecallIndex) -> None:
    assert _specific(index, "who reviews PR #5000") == ["PR", "5000"]  # no known abbreviations: "pull request"
    assert is_specific("arm64", first=False) and is_specific("utils/strings.py", first=True)
    assert not is_specific("cluster", first=False) and not is_specific("Which", first=True)


def test_words_the_repo_holds_name_nothing_absent(index: RecallIndex) -> None:
    assert _specific(index, "which Flutter state library does the driver app use") == []
    assert not names_absent(index, "where do the driver app's crashes go")


def test_a_term_begun_or_beginning_a_held_one_is_held(index: RecallIndex) -> None:
    # "Postgres" begins postgresql, "Dockerfiles" stems to dockerfil, which a held term begins
    assert _specific(index, "which Postgres version does the route planner run") == []
    view = scoped_view(index, False, None, None)
    assert [w for w, s in absent_things(view, "which Postgres version does the route planner run") if s] == [
        "Postgres"
    ]  # whole terms only: not held
    assert held_prefix(index.db, "postgr") and not held_prefix(index.db, "kubernet")


def test_a_language_is_held_by_a_line_in_its_script(index: RecallIndex) -> None:
    assert _specific(index, "who runs the Japanese site") == []  # a line in kana
    assert _specific(index, "who runs the Korean site") == ["Korean"]  # no line in hangul


def test_a_date_or_the_asked_kind_is_not_a_specific_thing(index: RecallIndex) -> None:
    assert _specific(index, "when does the route planner ship in January") == []
    assert _specific(index, "what IDE does the user program in") == []  # the answer's kind: PyCharm answers it
    assert _specific(index, "which iOS version does the driver app support") == ["iOS"]  # the thing whose version


def _answered(tmp_path: Path, query: str) -> bool:
    root = tmp_path / "crowd"
    (root / ".git").mkdir(parents=True)
    n = 100
    cosines = [0.70 + 0.06 * i / (n - 2) for i in range(n - 1)] + [TOP]  # the last line stands out
    lines = [f"- Gardening note {i}: water tomatoes{i} every morning" for i in range(n)]
    (root / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    idx = RecallIndex(root)
    idx.sync()
    emb = SpreadEmbedder(cosines)
    assert build_vectors(root, emb, 10_000) == n
    sem = SemanticRecall(root, SemanticSettings(), emb, background=False)  # type: ignore[arg-type]
    try:
        found, info, answered = search(idx, sem, query, (None, None, False), 10)
        assert info is not None and info.mode == "hybrid"
        return answered and bool(found)
    finally:
        sem.close()
        idx.close()


def test_hybrid_gives_no_answer_to_a_question_naming_an_absent_thing(tmp_path: Path) -> None:
    assert _answered(tmp_path / "a", "where can I find a way in if locked out") is True
    assert _answered(tmp_path / "b", "where can I find the Kubernetes way in if locked out") is False


def test_hybrid_still_answers_a_question_whose_date_no_line_names(tmp_path: Path) -> None:
    assert _answered(tmp_path, "where can I find a way in if locked out in January") is True


def test_an_acronym_a_hit_spells_by_its_words_initials_is_held() -> None:
    assert spelled("JS", "Prefers pnpm over npm for JavaScript projects")  # a word's capitalised parts
    assert spelled("PRs", "Pull requests need one review")  # consecutive words, a plural aside
    assert not spelled("SD", "40 AudioMoth recorders record 1 minute in every 10 at 48 kHz")
    assert not spelled("Jo", "Jane owns the billing service")  # a name, not an acronym


def test_names_absent_reads_the_hits_for_a_spelled_acronym(index: RecallIndex) -> None:
    query = "who reviews my PR"
    assert names_absent(index, query)
    assert not names_absent(index, query, [LINES[3]])  # "Pull requests need one review"
