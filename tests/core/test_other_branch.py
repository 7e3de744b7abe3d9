"""A branch other than memory's checked out blocks writes, and says so (breaker5 B5-13, docs/memory-repo.md).

After ``git checkout other`` in the memory repo, a write acknowledged on ``other`` left memory when
the user switched back. Now status and Health name the branch and the way back; the refused write
is kept and lands on memory's branch once it is checked out again.
"""

from __future__ import annotations

import pytest
from helpers.repo_helpers import git

from memrepo.engine.errors import BlockedError
from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.health import check
from memrepo.engine.repo.store import MemoryStore


def test_another_branch_blocks_writes_until_memory_s_branch_is_back(store: MemoryStore) -> None:
    store.remember(Candidate(text="On main about yaks", kind="preference"))
    git(store.root, "checkout", "-q", "-b", "other")
    status = store.status()
    assert status.state is RepoState.BLOCKED
    assert "branch other" in (status.reason or "") and "git checkout main" in (status.reason or "")
    [row] = [r for r in check(store) if r.name == "work tree"]
    assert "branch other" in row.reason
    with pytest.raises(BlockedError, match="branch other"):
        store.remember(Candidate(text="Written while on other about yaks", kind="preference"))
    assert "Written while on other" not in git(store.root, "show", "other:me.md")
    git(store.root, "checkout", "-q", "main")
    store.remember(Candidate(text="Back on main about yaks", kind="preference"))
    on_main = git(store.root, "show", "main:me.md")
    assert "Back on main about yaks" in on_main and "Written while on other about yaks" in on_main


def test_git_config_names_memory_s_branch(store: MemoryStore) -> None:
    git(store.root, "checkout", "-q", "-b", "trunk")
    assert store.status().state is RepoState.BLOCKED
    git(store.root, "config", "memrepo.branch", "trunk")
    assert store.status().state is not RepoState.BLOCKED
    store.remember(Candidate(text="On trunk by choice", kind="preference"))
    assert "On trunk by choice" in git(store.root, "show", "trunk:me.md")
