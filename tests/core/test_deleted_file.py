"""Deleting a memory file by hand is a question, never an automatic commit (docs/architecture.md §3, B5-12).

``rm me.md`` (a slip, a sync tool, an editor's move) removes every entry of the file at once: like
emptying it, memrepo keeps the committed text until the user answers, with the app's watcher running
or not, and the next write does not commit the deletion underneath it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from helpers.repo_helpers import commit_by_hand, git, plain_settings
from helpers.watch_helpers import watching

from memrepo.engine.config import Settings
from memrepo.engine.errors import MemrepoError
from memrepo.engine.models import Candidate
from memrepo.engine.repo.repo import MemoryRepo
from memrepo.engine.repo.store import MemoryStore

QUIET_S = 0.5
"""The watcher's quiet period before it commits hand edits (seconds)."""


def _store_with_entries(repo_path: Path) -> MemoryStore:
    store = MemoryStore.open(repo_path, plain_settings(), create=True)
    for i in range(5):
        store.remember(Candidate(text=f"Deleted-file preference {i} about kudus", kind="preference"))
    return store


def _hand_edits(root: Path) -> int:
    return git(root, "log", "--format=%s").splitlines().count("Hand edits")


@pytest.mark.parametrize("name", ["me.md", "MEMORY.md"])
def test_a_deleted_file_waits_for_an_answer(repo_path: Path, name: str) -> None:
    store = _store_with_entries(repo_path)
    committed = git(repo_path, "show", f"HEAD:{name}")
    (repo_path / name).unlink()
    [question] = store.status().questions
    assert question.path == name and question.deleted and "was deleted" in question.message
    assert store.commit_hand_edits() is None
    assert git(repo_path, "show", f"HEAD:{name}") == committed and _hand_edits(repo_path) == 0
    # The answer "put back" brings the committed file back; nothing is committed.
    assert store.answer_hand_edit(name, question.seen, commit=False) is None
    assert (repo_path / name).read_text() == committed
    assert store.status().questions == []


def test_the_next_write_does_not_commit_the_deletion(repo_path: Path) -> None:
    store = _store_with_entries(repo_path)
    committed = git(repo_path, "show", "HEAD:me.md")
    (repo_path / "me.md").unlink()
    with pytest.raises(MemrepoError, match=r"me\.md was deleted"):
        store.remember(Candidate(text="Written after the rm about gerenuks", kind="preference"))
    assert git(repo_path, "show", "HEAD:me.md") == committed and _hand_edits(repo_path) == 0
    # Yes commits the deletion, as the user said; the write refused meanwhile was kept, and lands after it.
    [question] = store.status().questions
    done = store.answer_hand_edit("me.md", question.seen, commit=True)
    assert done is not None
    assert "me.md" not in git(repo_path, "ls-tree", "--name-only", done)
    now = git(repo_path, "show", "HEAD:me.md")
    assert "gerenuks" in now and not any(line in now for line in committed.splitlines() if line.startswith("- "))


def test_deleting_a_file_with_no_entries_is_committed(repo_path: Path) -> None:
    store = MemoryStore.open(repo_path, plain_settings(), create=True)
    (repo_path / "topics").mkdir(exist_ok=True)
    (repo_path / "topics" / "empty.md").write_text("# Nothing yet\n")
    commit_by_hand(repo_path, "a header-only file")
    (repo_path / "topics" / "empty.md").unlink()
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None
    assert "topics/empty.md" not in git(repo_path, "ls-tree", "-r", "--name-only", "HEAD")


async def test_the_watcher_asks_instead_of_committing_a_deletion(repo_path: Path) -> None:
    _store_with_entries(repo_path).close()
    settings = Settings.model_validate({"writes": {"commit_hand_edits_after": QUIET_S}})
    repo = await MemoryRepo.open(repo_path, settings, commit_hand_edits=True)
    try:
        async with watching(repo):
            (repo_path / "me.md").unlink()
            await asyncio.sleep(QUIET_S * 6)  # several quiet periods pass
    finally:
        await repo.close()
    assert _hand_edits(repo_path) == 0, "the deletion was committed with no question"
    assert "Deleted-file preference 4" in git(repo_path, "show", "HEAD:me.md")
