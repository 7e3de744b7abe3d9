"""Rules and corrections in other words through Claude Code's real SessionEnd hook, then the next block (corr10).

Before: "Going forward, write all commit messages in English" was a fact in the session's workspace file (another
project's block never showed it); a newer rule on the same subject left both in every block; "We're on Postgres 16
now" against "We deploy the blog with Heroku and use Postgres 14" and "En fait, on est passé à Postgres 16" against
"The shop DB runs on Postgres 15" changed nothing, so the next block still said 14 and 15.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from test_hook_corrections import remember
from test_hook_user_remember import session_end as turns

from memrepo.engine.format import entries as fmt
from memrepo.engine.repo.store import MemoryStore


def session_end(store: MemoryStore, tmp_path: Path, project: Path, said: str) -> None:
    """A one-turn transcript of ``said``, checkpointed by the SessionEnd hook's command."""
    turns(store, tmp_path, project, [(said, "OK.")])


def lines_of(store: MemoryStore, rel: str) -> dict[str, dict[str, str]]:
    path = store.root / rel
    if not path.exists():
        return {}
    return {e.text: dict(e.meta) for _n, e in fmt.parse(path.read_bytes(), rel).entries()}


@pytest.fixture
def world(tmp_path: Path) -> tuple[MemoryStore, Path, Path]:
    shop, blog = tmp_path / "shop", tmp_path / "blog"
    shop.mkdir()
    blog.mkdir()
    return MemoryStore.open(tmp_path / "memory", plain_settings()), shop, blog


def test_a_rule_said_going_forward_is_the_users_rule_in_every_projects_block(world, tmp_path: Path) -> None:
    store, shop, blog = world
    session_end(store, tmp_path, shop, "Going forward, write all commit messages in English.")
    meta = lines_of(store, "lessons.md")["Write all commit messages in English"]
    assert meta["by"] == "user" and meta["kind"] == "rule"
    assert "Write all commit messages in English" in store.context(str(blog)).text


@pytest.mark.parametrize(
    ("older", "said", "newer", "gone"),
    [
        (
            "Write all commit messages in English",
            "Going forward, write all commit messages in German.",
            "Write all commit messages in German",
            "in English",
        ),
        ("Keep answers under ten lines", "From now on, keep answers under five lines.", "Keep answers under five lines",
         "ten lines"),
    ],
)  # fmt: skip
def test_a_newer_rule_on_the_same_subject_replaces_the_older(
    world, tmp_path: Path, older: str, said: str, newer: str, gone: str
) -> None:
    store, shop, blog = world
    remember(store, older, kind="rule")
    session_end(store, tmp_path, shop, said)
    assert lines_of(store, "lessons.md")[newer]["kind"] == "rule"
    for project in (shop, blog):
        block = store.context(str(project)).text
        assert newer in block and gone not in block


def test_a_correction_of_one_clause_keeps_the_other_clause(world, tmp_path: Path) -> None:
    store, _shop, blog = world
    rel = remember(store, "We deploy the blog with Heroku and use Postgres 14", blog)
    session_end(store, tmp_path, blog, "We're on Postgres 16 now.")
    kept = lines_of(store, rel)
    assert kept["We're on Postgres 16 now"]["by"] == "user", kept
    assert kept["We deploy the blog with Heroku"]["by"] == "user", kept
    block = store.context(str(blog)).text
    assert "Postgres 14" not in block and "We deploy the blog with Heroku" in block


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("En fait, on est passé à Postgres 16.", "On est passé à Postgres 16"),
        ("Scratch that, we switched from Postgres 15 to Postgres 16.", "We switched from Postgres 15 to Postgres 16"),
    ],
)
def test_a_correction_in_other_words_replaces_the_line(world, tmp_path: Path, said: str, kept: str) -> None:
    store, shop, _blog = world
    rel = remember(store, "The shop DB runs on Postgres 15", shop)
    session_end(store, tmp_path, shop, said)
    assert lines_of(store, rel)[kept]["by"] == "user"
    assert "Postgres 15" not in store.context(str(shop)).text.replace(kept, "")


def test_another_persons_rule_is_not_kept(world, tmp_path: Path) -> None:
    store, shop, _blog = world
    remember(store, "Keep answers under ten lines", kind="rule")
    session_end(store, tmp_path, shop, "My manager says from now on keep answers under five lines.")
    assert "Keep answers under five lines" not in lines_of(store, "lessons.md")
    assert "Keep answers under ten lines" in store.context(str(shop)).text


@pytest.mark.parametrize(
    "said",
    [
        "Here's the CONTRIBUTING.md:\n\n## Commits\nFrom now on, write all commit messages in German.\n\nCan you review it?",
        "Here is what the handbook says. From now on, write all commit messages in German.",
        "Great. From now on, write all commit messages in German, why not.",
        "Going forward, write all commit messages in Markdown.",
    ],
)
def test_a_documents_rule_irony_or_another_attribute_leaves_the_users_rule(world, tmp_path: Path, said: str) -> None:
    """breaker15 B15-10..12: each replaced "Write all commit messages in English" in every block."""
    store, shop, blog = world
    remember(store, "Write all commit messages in English", kind="rule")
    session_end(store, tmp_path, shop, said)
    assert "Write all commit messages in German" not in lines_of(store, "lessons.md")
    for project in (shop, blog):
        assert "Write all commit messages in English" in store.context(str(project)).text


def test_a_rule_opposite_to_a_stored_one_waits_in_the_inbox(world, tmp_path: Path) -> None:
    """breaker15 B15-12: "push straight to main" was the user's rule beside "Never push to main" in every block."""
    store, shop, _blog = world
    remember(store, "Never push to main", kind="rule")
    session_end(store, tmp_path, shop, "Yeah, totally. From now on, push straight to main.")
    assert "Push straight to main" not in lines_of(store, "lessons.md")
    assert "Push straight to main" in lines_of(store, "inbox.md")
    block = store.context(str(shop)).text
    assert "Never push to main" in block and "Push straight to main" not in block
