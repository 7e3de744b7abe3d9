"""A merge memrepo blocks on names the way out git accepts in that state (engine/git/mergestate.py, §3).

Found by breaker3 (F12): a `git pull` merge raced a memrepo commit and left MERGE_HEAD with me.md staged at
the old version and the new entry unstaged ("MM me.md"). The blocked text said "finish it (git commit) or
abort it (git merge --abort)": the abort failed ("Entry 'me.md' not uptodate. Cannot merge.") and the commit
failed too (the merged commit was gone). `git merge --quit` worked. Each state here is made with real git.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import commit_by_hand, git, merge_conflict, plain_settings

from memrepo.engine.errors import BlockedError
from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore

USER = ["-c", "user.name=t", "-c", "user.email=t@example.com"]


def merge_stopped(root: Path) -> None:
    """A real merge of a side branch (topics/side.md) stopped before its commit: MERGE_HEAD is there."""
    git(root, "checkout", "-q", "-b", "side")
    (root / "topics").mkdir(exist_ok=True)
    (root / "topics" / "side.md").write_text("# Side\n\n- from the other machine\n")
    commit_by_hand(root, "side")
    git(root, "checkout", "-q", "main")
    git(root, *USER, "merge", "-q", "--no-ff", "--no-commit", "side")
    assert (root / ".git" / "MERGE_HEAD").exists()


def staged_and_unstaged(store: MemoryStore) -> None:
    """me.md staged at one version and changed again after (the race's "MM me.md")."""
    me = store.root / "me.md"
    me.write_text(me.read_text() + "- Staged line [by: user]\n")
    git(store.root, "add", "me.md")
    me.write_text(me.read_text() + "- Written after [by: user]\n")
    assert "MM me.md" in git(store.root, "status", "--porcelain")


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    s = MemoryStore.open(tmp_path / "memory", plain_settings())
    s.remember(Candidate(text="I water the plants on Sundays", by="user"))
    return s


def test_staged_and_unstaged_changes_name_git_merge_quit(store: MemoryStore) -> None:
    merge_stopped(store.root)
    staged_and_unstaged(store)
    status = store.status()
    assert status.state is RepoState.BLOCKED
    reason = status.reason or ""
    assert "me.md has staged and unstaged changes" in reason and "git merge --quit" in reason
    # What the text rules out really fails, and what it names works.
    abort = subprocess.run(["git", "merge", "--abort"], cwd=store.root, capture_output=True, text=True)
    assert abort.returncode != 0 and "not uptodate" in abort.stderr
    git(store.root, "merge", "--quit")
    assert store.status().state is RepoState.HAND_EDITED
    assert store.commit_hand_edits(confirm=True) is not None
    text = git(store.root, "show", "HEAD:me.md")
    assert "plants on Sundays" in text and "Written after" in text


def test_a_merge_head_whose_commit_is_gone_names_git_merge_quit(store: MemoryStore) -> None:
    merge_stopped(store.root)
    (store.root / ".git" / "MERGE_HEAD").write_text("1" * 40 + "\n")
    reason = store.status().reason or ""
    assert "MERGE_HEAD names a commit that is gone (111111111111)" in reason and "git merge --quit" in reason
    done = subprocess.run(["git", *USER, "commit", "-q", "-m", "x"], cwd=store.root, capture_output=True, text=True)
    assert done.returncode != 0  # `git commit` cannot finish it, as the text says
    with pytest.raises(BlockedError, match="git merge --quit"):
        store.remember(Candidate(text="I cycle to work", by="user"))


def test_a_plain_conflict_keeps_commit_or_abort_first(store: MemoryStore) -> None:
    merge_conflict(store.root)
    reason = store.status().reason or ""
    assert reason.startswith("a merge is in progress: finish it (git commit) or abort it (git merge --abort)")
    assert reason.endswith(
        "if neither works, `git merge --quit` ends the merge and keeps every file as it is "
        "(then `memrepo commit-hand-edits`)"
    )
    git(store.root, "merge", "--abort")  # the first way out works here
    assert store.status().state is RepoState.CLEAN
