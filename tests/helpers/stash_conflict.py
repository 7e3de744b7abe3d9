"""A real `git stash pop` stopped on a conflict in a memory repo (breaker8 B8-6), for the tests that need one."""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers.repo_helpers import USER, git, plain_settings
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

CELLO = "- I am learning the cello [by: user; added: 2026-12-05; kind: fact]"
CHESS = "- I play chess on Sundays [by: user; added: 2026-12-05; kind: fact]"
MARKERS = ("<<<<<<<", "=======", ">>>>>>>")


def stash_pop_conflict(tmp_path: Path) -> Path:
    """The classic sequence: a hand edit git pull refuses over, stashed, pulled, popped onto a conflict."""
    root = tmp_path / "memory"
    store = MemoryStore.open(root, plain_settings())
    store.remember(Candidate(text="First fact about tea", by="user"))
    store.close()
    laptop = tmp_path / "laptop"
    git(tmp_path, "clone", "-q", str(root), str(laptop))
    with (root / "me.md").open("a") as fh:
        fh.write(CELLO + "\n")  # a hand edit, not committed yet
    with (laptop / "me.md").open("a") as fh:
        fh.write(CHESS + "\n")
    git(laptop, *USER, "commit", "-qam", "laptop")
    refused = subprocess.run(["git", "pull", "-q", "--no-rebase", str(laptop), "main"], cwd=root, capture_output=True)
    assert refused.returncode != 0 and b"local changes" in refused.stderr
    git(root, *USER, "stash", "-q")
    git(root, *USER, "pull", "-q", "--no-rebase", str(laptop), "main")
    popped = subprocess.run(["git", *USER, "stash", "pop"], cwd=root, capture_output=True, text=True)
    assert popped.returncode != 0 and "CONFLICT" in popped.stdout
    assert not (root / ".git" / "MERGE_HEAD").exists()
    assert "UU me.md" in git(root, "status", "--porcelain")
    return root


def head_me(root: Path) -> str:
    """me.md as HEAD has it."""
    return git(root, "show", "HEAD:me.md")
