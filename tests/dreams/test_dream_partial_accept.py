"""Accepting a dream's review operations one by one (issue 16): the chosen ones merge, the rest are dropped."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.dream_helpers import alias, make_repo, run_with
from helpers.repo_helpers import git, porcelain

from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.errors import RefError


def three_reviews(din):
    return {
        "operations": [
            {
                "op": "edit",
                "line": alias(din, "Never force-push main"),
                "text": "Never force-push main or release branches",
                "reason": "wider",
            },
            {"op": "delete", "line": alias(din, "Always run the full test suite before pushing"), "reason": "dup"},
            {"op": "move", "line": alias(din, "Name is Sam"), "path": "people/sam.md", "reason": "own file"},
        ]
    }


def test_accept_two_of_three_review_operations_merges_only_those(repo_path: Path) -> None:
    store = make_repo(repo_path)
    record = run_with(store, three_reviews)
    review = [i for i, op in enumerate(record.operations) if op.classification == "review"]
    assert len(review) == 3 and record.status == "pending_review"
    edit, delete, move = review

    done = Dreamer(store).accept(record.id, operations=[edit, move])

    lessons = (repo_path / "lessons.md").read_text()
    assert "- Never force-push main or release branches [by: user" in lessons
    assert "- Never force-push main [by: user]" not in lessons
    assert "- Always run the full test suite before pushing [by: user]" in lessons  # not chosen: stays
    assert "Name is Sam" not in (repo_path / "me.md").read_text()
    assert "Name is Sam" in (repo_path / "people" / "sam.md").read_text()
    assert "[[people/sam]]" in (repo_path / "MEMORY.md").read_text()  # the new file's index link came along
    assert git(repo_path, "log", "-1", "--format=%s").strip() == f"Accept dream {record.id}: 2 of 3 changes"
    assert len(git(repo_path, "log", "-1", "--format=%P").split()) == 2  # one merge
    assert git(repo_path, "branch", "--list", "dream/*").strip() == ""  # the rest were dropped with the branch
    assert porcelain(repo_path) == ""
    assert done.status == "accepted" and done.merge_commit
    decisions = [done.operations[i].decision for i in (edit, delete, move)]
    assert decisions == ["accepted", "declined", "accepted"]
    assert Dreamer(store).show(record.id).operations[delete].decision == "declined"  # recorded


def test_all_review_operations_is_the_whole_branch(repo_path: Path) -> None:
    store = make_repo(repo_path)
    record = run_with(store, three_reviews)
    review = [i for i, op in enumerate(record.operations) if op.classification == "review"]
    done = Dreamer(store).accept(record.id, operations=review)
    assert git(repo_path, "log", "-1", "--format=%s").strip() == f"Accept dream {record.id}: 3 changes"
    assert all(op.decision is None for op in done.operations)


def test_a_choice_outside_the_review_operations_is_refused_and_changes_nothing(repo_path: Path) -> None:
    store = make_repo(repo_path)
    record = run_with(store, three_reviews)
    head = store.head()
    for wrong in ([], [99]):
        with pytest.raises(RefError, match="choose among its review operations"):
            Dreamer(store).accept(record.id, operations=wrong)
    assert store.head() == head and Dreamer(store).show(record.id).status == "pending_review"
