"""A question naming the kind of value it asks for is answered by a line holding one (breaker20 B20-3, B20-16);
look-alikes stay unanswered (engine/read/recallversion.py, engine/read/recalltype.py).

"What day do we deploy?" over "We deploy on Tuesdays" and "Which database version does the shop API use?" over "The
shop API runs on Postgres 15" got nothing (the line did not hold "day", "database" or "version").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.read import coldrecall
from memrepo.engine.repo.store import MemoryStore

LINES = (
    "We deploy on Tuesdays",
    "The standup is on Mondays at 10",
    "Backups run on Sunday night",
    "The shop API runs on Postgres 15",
    "The blog is built with Hugo",
    "Ana reviews every pull request",
)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = MemoryStore.open(tmp_path_factory.mktemp("kinds") / "memory", plain_settings())
    for text in LINES:
        assert store.remember(Candidate(text=text, by="user")).commit
    store.close()
    return store.root


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("What day do we deploy?", "We deploy on Tuesdays"),
        ("Which day do we deploy?", "We deploy on Tuesdays"),
        ("What day is the standup?", "The standup is on Mondays at 10"),
        ("Which database version does the shop API use?", "The shop API runs on Postgres 15"),
        ("Which database does the shop API use?", "The shop API runs on Postgres 15"),
    ],
)
def test_the_line_holding_a_value_of_the_kind_answers(root: Path, query: str, answer: str) -> None:
    hits = coldrecall.recall(root, query)
    assert hits and hits[0].text == answer and hits[0].answer, [(h.text, h.answer) for h in hits]
    hook = coldrecall.recall(root, query, limit=3, quick=True)  # the prompt hook's look-up
    assert hook and hook[0].text == answer, [h.text for h in hook]


@pytest.mark.parametrize(
    "query",
    [
        "What day is the retro?",  # a weekday, but no line names the retro
        "Which Hugo version does the blog use?",  # the blog's line names Hugo with no version
        "Which Rust version does the shop API use?",  # "Postgres 15" is no Rust version
    ],
)
def test_a_look_alike_gets_no_answer(root: Path, query: str) -> None:
    assert not [h.text for h in coldrecall.recall(root, query) if h.answer]
    assert not coldrecall.recall(root, query, limit=3, quick=True)
