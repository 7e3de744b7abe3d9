"""A query word no entry holds does not sink the line that holds the rest (breaker11 B11-15).

"Which React version?" over six "The X uses <product> <n>" lines: "version" is in no entry, so it weighed the most of
the query (the highest idf) and "The frontend uses React 18", which holds React, stayed under the confidence minimum:
recall and the prompt hook answered nothing. Such a word now counts as heavy as one held by a single entry, so the
line naming the product answers, and a question whose rare word no entry holds still gets nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.read import coldrecall
from memrepo.engine.repo.store import MemoryStore

LINES = (
    "The shop uses Django 5",
    "The blog uses Hugo 0.120",
    "The API runs Python 3.12",
    "The frontend uses React 18",
    "The CLI is written in Go 1.22",
    "Mobile app uses Flutter 3",
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for text in LINES:
        assert store.remember(Candidate(text=text, by="user")).commit
    store.close()
    return store.root


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("Which React version?", "The frontend uses React 18"),
        ("django version?", "The shop uses Django 5"),
        ("Flutter version?", "Mobile app uses Flutter 3"),
    ],
)
def test_the_line_naming_the_product_answers(root: Path, query: str, answer: str) -> None:
    hits = coldrecall.recall(root, query)
    assert hits and hits[0].text == answer and hits[0].answer, [h.text for h in hits]
    hook = coldrecall.recall(root, query, limit=3, quick=True)
    assert hook and hook[0].text == answer, [h.text for h in hook]


@pytest.mark.parametrize("query", ["Which Rust version?", "What is my passport number?"])
def test_a_question_no_line_answers_still_gets_nothing(root: Path, query: str) -> None:
    assert not [h for h in coldrecall.recall(root, query) if h.answer]
