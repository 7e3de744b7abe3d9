"""Undo (DESIGN.md §8): any memrepo commit reverts in a new commit; a conflicting revert changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from repo_helpers import porcelain

from engine.errors import GitError
from engine.models import Action, Candidate
from engine.store import MemoryStore
from tui.cli import main


def test_undo_reverts_one_commit_and_keeps_later_ones(store: MemoryStore) -> None:
    first = store.remember(Candidate(text="Likes green tea", kind="preference"))
    store.remember(Candidate(text="Works in Berlin now", kind="preference"))
    result = store.undo(first.commit or "")
    assert result.action is Action.UNDONE
    text = (store.root / "me.md").read_text()
    assert "Likes green tea" not in text and "Works in Berlin now" in text
    last = store.log(1)[0]
    assert last.summary == "Undo: Remember preference: Likes green tea"
    assert last.origin == "cli" and last.trailers["Reverts"] == first.commit
    assert porcelain(store.root) == ""


def test_undoing_a_new_workspace_removes_its_file_and_index_link(store: MemoryStore) -> None:
    made = store.remember(Candidate(text="Deploys on Fridays", scope="workspace", workspace="billing"))
    store.undo((made.commit or "")[:7])
    assert not (store.root / "workspaces" / "billing.md").exists()
    assert "[[workspaces/billing]]" not in (store.root / "MEMORY.md").read_text()
    assert porcelain(store.root) == ""


def test_a_conflicting_undo_changes_nothing(store: MemoryStore) -> None:
    first = store.remember(Candidate(text="Deploy with make deploy", subject="deploy", kind="rule"))
    store.remember(Candidate(text="Deploy with the blue-green script", subject="deploy", kind="rule"))
    head, before = store.head(), (store.root / "lessons.md").read_bytes()
    with pytest.raises(GitError, match="conflict"):
        store.undo(first.commit or "")
    assert store.head() == head and (store.root / "lessons.md").read_bytes() == before
    assert porcelain(store.root) == ""


def test_undo_refuses_the_first_commit_and_unknown_ids(store: MemoryStore) -> None:
    root_commit = store.log(10)[-1].id
    with pytest.raises(GitError, match="first commit"):
        store.undo(root_commit)
    with pytest.raises(GitError, match="no commit"):
        store.undo("deadbeef")


def test_undo_of_an_undo_brings_the_entry_back(store: MemoryStore) -> None:
    first = store.remember(Candidate(text="Prefers short answers", kind="preference"))
    undone = store.undo(first.commit or "")
    store.undo(undone.commit or "")
    assert "Prefers short answers" in (store.root / "me.md").read_text()


def test_cli_undo(tmp_path: Path) -> None:
    repo = tmp_path / "mem"
    runner = CliRunner()
    runner.invoke(main, ["--repo", str(repo), "remember", "Uses ruff for linting", "--kind", "rule"])
    commit = runner.invoke(main, ["--repo", str(repo), "log", "-n", "1"]).output.split()[0]
    out = runner.invoke(main, ["--repo", str(repo), "undo", commit])
    assert out.exit_code == 0 and out.output.startswith(f"undid {commit}"), out.output
    assert "Uses ruff" not in (repo / "lessons.md").read_text()
    bad = runner.invoke(main, ["--repo", str(repo), "undo", "nope"])
    assert bad.exit_code == 1 and "no commit" in bad.output


def test_diff_shows_what_a_commit_changed(store: MemoryStore) -> None:
    made = store.remember(Candidate(text="Likes green tea", kind="preference"))
    patch = store.diff(made.commit or "")
    assert "diff --git a/me.md b/me.md" in patch and "+- Likes green tea [by: agent" in patch
    first = store.diff(store.log(10)[-1].id)
    assert "+# Memory" in first and "MEMORY.md" in first
    with pytest.raises(GitError, match="no commit"):
        store.diff("nope")
