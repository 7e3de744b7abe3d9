"""A token in a new memory file's name waits for the user's word too (breaker21 B21-11, engine/write/handsecret.py).

Before, the hand-edit guard read only the lines an edit added: a file named
after a token was committed by the next write (git's tree, every remote) and
recall printed the token in its refs. A plain new file and an old name stay as
they were.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import commit_by_hand, plain_settings

from memrepo.engine.errors import RefError
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

TOKEN = "ghp_" + "Vx9qLm2Tz8RpKa7Wc3Yh" + "5NbQwErTyUiOpAs1"
BODY = "# notes\n\n- topic line [by: user]\n"


def _tree(root: Path) -> str:
    return subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "HEAD"], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def _store(root: Path) -> MemoryStore:
    return MemoryStore.open(root, plain_settings(), create=True)


def test_a_plain_new_file_is_committed_as_before(repo_path: Path) -> None:
    store = _store(repo_path)
    (repo_path / "topics").mkdir(exist_ok=True)
    (repo_path / "topics" / "release-train-2026.md").write_text(BODY, encoding="utf-8")
    assert store.status().questions == []
    store.remember(Candidate(text="The release train leaves on Thursdays"))
    assert "topics/release-train-2026.md" in _tree(repo_path)


def test_a_token_in_a_new_files_name_is_asked_about_and_never_committed_unasked(repo_path: Path) -> None:
    store = _store(repo_path)
    (repo_path / "topics").mkdir(exist_ok=True)
    (repo_path / "topics" / f"{TOKEN}.md").write_text(BODY, encoding="utf-8")
    [q] = store.status().questions
    assert q.secrets == ["file name: github-token"] and TOKEN not in q.message
    assert store.commit_hand_edits() is None
    store.remember(Candidate(text="The release train leaves on Thursdays"))
    assert TOKEN not in _tree(repo_path)
    with pytest.raises(RefError, match="rename the file"):
        store.answer_hand_edit(f"topics/{TOKEN}.md", q.seen, commit=False, redact=True)
    assert TOKEN not in _tree(repo_path)
    store.answer_hand_edit(f"topics/{TOKEN}.md", q.seen, commit=True)  # the user's word: committed as named
    assert f"topics/{TOKEN}.md" in _tree(repo_path)
    assert store.status().questions == []


def test_a_name_head_holds_is_not_asked_again(repo_path: Path) -> None:
    store = _store(repo_path)
    (repo_path / "topics").mkdir(exist_ok=True)
    (repo_path / "topics" / f"{TOKEN}.md").write_text(BODY, encoding="utf-8")
    commit_by_hand(repo_path, "by hand")
    with (repo_path / "topics" / f"{TOKEN}.md").open("a", encoding="utf-8") as f:
        f.write("- another line [by: user]\n")
    assert store.status().questions == []


def test_the_question_names_no_command_it_cannot_run(repo_path: Path) -> None:
    """breaker24 B24-8: the question said `commit-hand-edits --redact [REDACTED:github-token]`, which did nothing."""
    store = _store(repo_path)
    (repo_path / "topics").mkdir(exist_ok=True)
    (repo_path / "topics" / f"{TOKEN}.md").write_text(BODY + f"- and a token {TOKEN} in a line\n", encoding="utf-8")
    [q] = store.status().questions
    assert "rename the file" in q.message and "commit-hand-edits" not in q.message and TOKEN not in q.message
