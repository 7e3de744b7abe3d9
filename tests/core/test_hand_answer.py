"""The user's answer to a mass-deletion question: commit the edit or keep the committed text (engine/write/handanswer.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import commit_by_hand, git, plain_settings

from memrepo.engine.errors import RefError
from memrepo.engine.models import RepoState
from memrepo.engine.repo.health import check
from memrepo.engine.repo.store import MemoryStore


def _store_with_twelve(repo_path: Path) -> tuple[MemoryStore, bytes]:
    store = MemoryStore.open(repo_path, plain_settings(), create=True)
    memory = repo_path / "MEMORY.md"
    lines = "".join(f"- kept fact number {i}\n" for i in range(12))
    memory.write_bytes(memory.read_bytes() + lines.encode())
    commit_by_hand(repo_path, "twelve entries")
    return store, memory.read_bytes()


def test_keep_the_old_text_puts_the_committed_file_back_and_commits_nothing(repo_path: Path) -> None:
    store, full = _store_with_twelve(repo_path)
    head = store.head()
    (repo_path / "MEMORY.md").write_bytes(b"")
    [question] = store.status().questions
    assert question.path == "MEMORY.md" and question.empty and question.seen
    [row] = [r for r in check(store) if r.name == "work tree"]  # Health says it waits, not that it will be committed
    assert row.reason == question.message and "before the next write" not in row.reason
    assert store.answer_hand_edit("MEMORY.md", question.seen, commit=False) is None
    assert (repo_path / "MEMORY.md").read_bytes() == full
    assert store.head() == head
    status = store.status()
    assert status.state is RepoState.CLEAN and status.questions == []


def test_commit_the_edit_commits_exactly_that_file(repo_path: Path) -> None:
    store, _full = _store_with_twelve(repo_path)
    kept = "".join(f"- kept fact number {i}\n" for i in range(2))
    (repo_path / "MEMORY.md").write_text("# Memory\n\n" + kept)
    [question] = store.status().questions
    assert question.entries_now == 2 and question.entries_before >= 12
    commit = store.answer_hand_edit("MEMORY.md", question.seen, commit=True)
    assert commit is not None and store.head() == commit
    assert git(repo_path, "show", "HEAD:MEMORY.md") == "# Memory\n\n" + kept
    assert store.status().questions == []


def test_a_file_saved_again_since_the_question_is_left_alone(repo_path: Path) -> None:
    store, full = _store_with_twelve(repo_path)
    head = store.head()
    (repo_path / "MEMORY.md").write_bytes(b"")
    [question] = store.status().questions
    finished = full + b"- the slow save finished after all\n"
    (repo_path / "MEMORY.md").write_bytes(finished)  # the save the question was about is over
    for commit in (False, True):
        with pytest.raises(RefError, match="changed since the question was asked"):
            store.answer_hand_edit("MEMORY.md", question.seen, commit=commit)
    assert (repo_path / "MEMORY.md").read_bytes() == finished
    assert store.head() == head
