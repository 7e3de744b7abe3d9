"""The session's own workspace file wins recall's ties (engine/read/recallhome.py; breaker14 B14-12)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memrepo.engine.models import Candidate
from memrepo.engine.read.recallhome import home_first
from memrepo.engine.repo.store import MemoryStore

WINDOW = "Ships from main after a review; the deploy window is Thursday afternoon"
SYSTEMS = ("database", "search", "billing", "auth", "cache", "queue", "mailer", "images", "reports", "payments")


def texts(hits) -> list[str]:
    return [h.text for h in hits]


@pytest.fixture
def week(store: MemoryStore, tmp_path: Path) -> tuple[MemoryStore, Path]:
    """B14-12's shape: the shop's own line, then a hundred newer "deploy" lines of topic notes and a correction."""
    shop = tmp_path / "b14shop"
    shop.mkdir()
    done = store.remember(Candidate(text=WINDOW, scope="workspace", workspace=str(shop)))
    assert done.path is not None
    own = store.root / done.path  # written weeks before the topic notes, as in the breaker's repo
    own.write_text(re.sub(r"added: [0-9-]+", "added: 2026-11-01", own.read_text(encoding="utf-8")), encoding="utf-8")
    topics = store.root / "topics"
    topics.mkdir()
    for n in range(20):
        lines = "".join(
            f"- Team prefers the blue-green deploy script for {SYSTEMS[(n + k) % 10]} (item {n * 5 + k})"
            " [by: agent; added: 2026-11-20]\n"
            for k in range(5)
        )
        (topics / f"topic-{n:04d}.md").write_text(f"# Topic {n}\n\n{lines}", encoding="utf-8")
    (store.root / "MEMORY.md").write_text(
        "# Memory\n\n"
        "- Always run the full test suite before a deploy [by: user; added: 2026-11-21]\n"
        "- The deploy window for billing is Monday morning [by: user; added: 2026-11-21]\n"
        "- Run only the fast tests before a deploy now; the full suite runs nightly"
        " [by: user; added: 2026-11-22; supersedes: L6]\n",
        encoding="utf-8",
    )
    return store, shop


def test_the_sessions_workspace_line_answers_a_one_word_question_first(week: tuple[MemoryStore, Path]) -> None:
    store, shop = week
    hits = store.recall("When do we deploy?", workspace=str(shop), limit=3)
    assert texts(hits)[0] == WINDOW
    # control: unscoped, the shop's line is one of a hundred at full confidence and not in the first three
    assert WINDOW not in texts(store.recall("When do we deploy?", limit=3))


def test_a_workspace_line_holding_less_of_the_question_keeps_its_place(week: tuple[MemoryStore, Path]) -> None:
    store, shop = week
    hits = store.recall("deploy window for billing", workspace=str(shop), limit=5)
    assert texts(hits)[:2] == ["The deploy window for billing is Monday morning", WINDOW]
    assert hits[0].confidence > hits[1].confidence


def test_home_first_moves_only_the_workspace_hits_at_the_best_confidence() -> None:
    out = [(1, 1.0), (2, 1.0), (3, 0.5), (4, 1.0)]

    def moved(home: set[int]) -> list[int]:
        return [i for i, _c in home_first(out, frozenset(home), lambda h: h[0], lambda h: h[1])]

    assert moved({4}) == [4, 1, 2, 3]
    assert moved({3}) == [1, 2, 3, 4]  # under the best confidence: left in place
    assert moved({2, 4}) == [2, 4, 1, 3]
    assert moved(set()) == [1, 2, 3, 4]  # unscoped: unchanged


@pytest.fixture
def shop_and_me(store: MemoryStore, tmp_path: Path) -> tuple[MemoryStore, Path]:
    """breaker19 B19-11's shape: the user's own editor in me.md, the shop's editor config in its workspace file."""
    shop = tmp_path / "b19shop"
    shop.mkdir()
    store.remember(Candidate(text="I use Neovim as my editor", by="user"))
    for text in ("The editor config for this repo lives in .editorconfig", "The deploy window is Tuesday morning"):
        store.remember(Candidate(text=text, scope="workspace", workspace=str(shop), by="user"))
    return store, shop


def test_a_question_about_the_user_keeps_their_own_line_first(shop_and_me: tuple[MemoryStore, Path]) -> None:
    """ "What editor do I use?" asked in the shop listed the shop's .editorconfig line first (B19-11): a question in
    the first person is about the user, so their own line (me.md, MEMORY.md) at the best confidence stays first."""
    store, shop = shop_and_me
    got = texts(store.recall("What editor do I use?", workspace=str(shop), limit=3))
    assert got[0] == "I use Neovim as my editor", got
    assert "The editor config for this repo lives in .editorconfig" in got


def test_a_question_not_about_the_user_still_puts_the_workspace_line_first(
    shop_and_me: tuple[MemoryStore, Path],
) -> None:
    """The control: without "I" / "my" / "me" the session's project wins the tie, as before."""
    store, shop = shop_and_me
    got = texts(store.recall("Which editor?", workspace=str(shop), limit=3))
    assert got[0] == "The editor config for this repo lives in .editorconfig", got


@pytest.fixture
def blog_and_shop(store: MemoryStore, tmp_path: Path) -> tuple[MemoryStore, Path]:
    """breaker22 B22-8's shape: the user's own blog deploy and dotfiles tests in me.md, the shop's own in its file."""
    shop = tmp_path / "b22shop"
    shop.mkdir()
    for text in ("I deploy my blog with Netlify", "I run the tests with make test in my dotfiles repo"):
        store.remember(Candidate(text=text, by="user"))
    for text in ("Shop deploys with fly deploy from the main branch", "Run the tests with pytest -n 4 in this repo"):
        store.remember(Candidate(text=text, scope="workspace", workspace=str(shop), by="user"))
    return store, shop


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("How do I deploy?", "Shop deploys with fly deploy from the main branch"),
        ("How should I run the tests here?", "Run the tests with pytest -n 4 in this repo"),
        ("How do we deploy?", "Shop deploys with fly deploy from the main branch"),
        ("How do I deploy my blog?", "I deploy my blog with Netlify"),  # "my": about the user's own things
    ],
)
def test_a_task_question_in_the_first_person_is_about_the_project(
    blog_and_shop: tuple[MemoryStore, Path], question: str, first: str
) -> None:
    """ "How do I deploy?" asked in the shop listed "I deploy my blog with Netlify" first (B22-8): how to do a task
    is about the project the session is in; only a question about the user's own things prefers me.md."""
    store, shop = blog_and_shop
    got = texts(store.recall(question, workspace=str(shop), limit=3))
    assert got[0] == first, got
