"""A new user's small repo answers a question holding its line's words, and still says nothing when the question asks
for what no line holds (engine/read/recallabsent.py, engine/read/recallasked.py).

In a repo of one line a word of the prompt no line holds ("straight") weighed nearly five times a held word, so "Can I
push this straight to main?" held 0.29 of its weight against "Never push directly to main; always open a pull
request" and the prompt hook added nothing (sess12, the session benchmark's t-rule-pr).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.read import coldrecall
from memrepo.engine.read.recallabsent import SMALL_REPO, absent_capped
from memrepo.engine.read.recallasked import asked_terms, holds_asked
from memrepo.engine.repo.store import MemoryStore


def _repo(tmp_path: Path, *lines: str) -> Path:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for text in lines:
        assert store.remember(Candidate(text=text, by="user")).commit
    store.close()
    return store.root


@pytest.mark.parametrize(
    ("line", "query"),
    [
        ("Never push directly to main; always open a pull request", "Can I push this straight to main?"),
        ("The blog's Hugo theme is PaperMod", "Which Hugo theme does the blog use?"),
    ],
)
def test_a_one_line_repo_answers_a_question_holding_its_words(tmp_path: Path, line: str, query: str) -> None:
    root = _repo(tmp_path, line)
    hits = coldrecall.recall(root, query)
    assert hits and hits[0].text == line and hits[0].answer, [(h.text, h.answer) for h in hits]
    hook = coldrecall.recall(root, query, limit=3, quick=True)  # the prompt hook's look-up
    assert [h.text for h in hook] == [line]


@pytest.mark.parametrize(
    ("line", "query"),
    [
        ("The blog theme is PaperMod", "Who maintains the blog?"),
        ("The blog theme is PaperMod", "What is the blog's domain?"),
        ("The route planner is a FastAPI service on Postgres", "Which Kubernetes cluster runs the route planner?"),
        ("The billing service is written in Go", "Who owns the billing service?"),
    ],
)
def test_a_line_holding_only_the_subject_is_no_answer(tmp_path: Path, line: str, query: str) -> None:
    root = _repo(tmp_path, line)
    assert not [h.text for h in coldrecall.recall(root, query) if h.answer]
    assert not coldrecall.recall(root, query, limit=3, quick=True)


@pytest.mark.parametrize("subject", ["editor", None])
def test_the_asked_word_held_by_the_subject_answers(tmp_path: Path, subject: str | None) -> None:
    line = "Nadia moved to Zed for everything; GoLand only for the debugger"
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    assert store.remember(Candidate(text=line, by="user", subject=subject)).commit
    assert store.remember(Candidate(text="Nadia's team ships on Thursdays", by="user")).commit
    store.close()
    answers = [h.text for h in coldrecall.recall(store.root, "Which editor does Nadia use now?") if h.answer]
    assert answers == ([line] if subject else []), answers  # no subject: the line holds only who is asked about


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("which Kubernetes cluster runs the route planner", {"cluster"}),
        ("what is the staging URL of the invoicing app", {"url"}),
        ("Who owns the billing service?", {"own"}),
        ("What's the shop's payment provider?", {"provid"}),
        ("which Kotlin version does the scanner app use", {"kotlin"}),  # the thing whose version is asked
        ("how do I deploy the shop", set()),
    ],
)
def test_what_is_asked(query: str, asked: set[str]) -> None:
    assert asked_terms(query) == asked


def test_a_stem_of_the_asked_word_holds_it() -> None:
    assert holds_asked("which Kubernetes cluster runs the route planner", "Both clusters run in eu-west")
    assert not holds_asked("which Kubernetes cluster runs the route planner", "The route planner runs on Postgres")


def test_only_a_small_repo_caps_a_word_no_entry_holds() -> None:
    weights = {"push": 0.3, "main": 0.3, "straight": 1.4}
    held = {"push", "main"}.__contains__
    assert absent_capped(weights, held, 1) == {"push": 0.3, "main": 0.3, "straight": 0.3}
    assert absent_capped(weights, held, SMALL_REPO + 1) == weights
    assert absent_capped(weights, lambda _t: False, 1) == weights  # nothing held: no hit to judge


def test_a_version_question_about_another_product_gets_nothing_in_a_small_repo(tmp_path: Path) -> None:
    root = _repo(tmp_path, "The shop API runs on Postgres 15", "The shop API is deployed on Fridays")
    assert not [h.text for h in coldrecall.recall(root, "Which Rust version does the shop API use?") if h.answer]


def test_the_asked_word_of_another_thing_does_not_answer(tmp_path: Path) -> None:
    # breaker23 B23-3: "host" is held by the staging line, "blog" by the Giscus line; neither says who hosts the blog
    lines = (
        "The shop API runs on Postgres 15 and listens on port 8080",
        "The staging host is staging.shop.internal",
        "The blog's comments are handled by Giscus",
    )
    assert not holds_asked("Who hosts the blog?", *lines[1:])
    assert holds_asked("Who hosts the blog?", "Netlify hosts the blog", lines[1])
    assert holds_asked("Where is the staging host?", lines[1])
    root = _repo(tmp_path, *lines)
    assert [h for h in coldrecall.recall(root, "Who hosts the blog?") if h.answer] == []
    assert [h.text for h in coldrecall.recall(root, "Who handles the blog's comments?") if h.answer] == [lines[2]]
