"""Compaction keeps the branch's name (docs/architecture.md §2: memrepo works on whatever branch HEAD names)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings, porcelain

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


@pytest.mark.parametrize("branch", ["trunk", "master"])
def test_compaction_keeps_the_branch_name(repo_path: Path, branch: str) -> None:
    store = MemoryStore.open(repo_path, plain_settings(), create=True)
    git(repo_path, "branch", "-m", branch)
    store = MemoryStore.open(repo_path, plain_settings())
    store.remember(Candidate(text="kept across compaction", kind="preference", by="user"))
    store.remember(Candidate(text="forgotten before compaction", kind="preference", by="user"))
    ref = next(e.ref for e in store.read_file("me.md").entries if e.text.startswith("forgotten"))
    store.forget(ref)
    store.compact()
    assert git(repo_path, "symbolic-ref", "HEAD").strip() == f"refs/heads/{branch}"
    assert git(repo_path, "for-each-ref", "--format=%(refname)", "refs/heads").split() == [f"refs/heads/{branch}"]
    assert "kept across compaction" in git(repo_path, "show", f"{branch}:me.md")
    assert porcelain(repo_path) == ""
    store.remember(Candidate(text="written after compaction", kind="preference", by="user"))
    assert "written after compaction" in git(repo_path, "show", f"{branch}:me.md")
