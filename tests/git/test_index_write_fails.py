"""A write whose commit stands but whose index update failed is no hand edit (docs/architecture.md §3).

Found by breaker3 (F13) on a nearly full tmpfs: ``remember`` succeeded (the entry in HEAD and the work tree)
but git's index write after the commit failed with ENOSPC, silently, and ``memrepo status`` then said
``hand_edited me.md`` though nobody edited anything (``git status``: ``MM me.md``, ``git diff HEAD`` empty).
Status compares the work tree with HEAD: a path only the index disagrees on is clean.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pygit2
import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore


def index_write_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def full(_self: pygit2.Index) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pygit2.Index, "write", full)


def test_status_is_clean_when_only_the_index_write_failed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "memory"
    MemoryStore.open(root, plain_settings()).remember(Candidate(text="I water the plants on Sundays", by="user"))
    with monkeypatch.context() as m:
        index_write_fails(m)
        written = MemoryStore.open(root, plain_settings()).remember(Candidate(text="I cycle to work", by="user"))
    assert written.commit is not None
    assert "cycle to work" in git(root, "show", "HEAD:me.md")
    # The failure is real: git sees the index behind HEAD and the work tree.
    assert git(root, "status", "--porcelain").startswith("MM me.md")
    assert git(root, "diff", "HEAD") == ""
    # A new process (the next `memrepo status`) reports no hand edit, and nothing is committed as one.
    store = MemoryStore.open(root, plain_settings())
    status = store.status()
    assert status.state is RepoState.CLEAN, status
    head = store.head()
    assert store.commit_hand_edits() is None and store.head() == head
    assert git(root, "status", "--porcelain") == ""  # the hand-edit pass brought the index back in step


def test_a_real_edit_with_a_stale_index_is_still_a_hand_edit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "memory"
    MemoryStore.open(root, plain_settings()).remember(Candidate(text="I water the plants on Sundays", by="user"))
    with monkeypatch.context() as m:
        index_write_fails(m)
        MemoryStore.open(root, plain_settings()).remember(Candidate(text="I cycle to work", by="user"))
    me = root / "me.md"
    me.write_text(me.read_text() + "- Typed by hand [by: user]\n")
    status = MemoryStore.open(root, plain_settings()).status()
    assert status.state is RepoState.HAND_EDITED and status.changed == ["me.md"]
