"""Text only in git's index (staged by hand, the work tree back at HEAD's version) is left there by memrepo's
writes (breaker21 B21-12; engine/git/commit.py ``_staged_by_hand``, docs/architecture.md §3).

A path only the index disagrees on is clean. The status also marked its index entry to be put back in step, as
for an index left behind by a failed write (breaker3 F13), so the next write reset it: the staged line was then
only a dangling blob, with no word. An index entry holding text no recent commit had is the user's ``git add``:
it stays for their own commit, while a lagging entry is still put back (tests/git/test_index_write_fails.py).
"""

from __future__ import annotations

from pathlib import Path

from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore


def test_a_line_only_in_the_index_survives_the_next_write(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    store = MemoryStore.open(root, plain_settings())
    store.remember(Candidate(text="I water the plants on Sundays", by="user"))
    lessons = root / "lessons.md"
    head = lessons.read_text()
    lessons.write_text(head + "- L2 staged only [by: user]\n")
    git(root, "add", "lessons.md")
    lessons.write_text(head)  # the work tree back at HEAD's version: the line is only in the index
    assert store.status().state is RepoState.CLEAN
    assert store.remember(Candidate(text="I cycle to work", by="user")).commit
    assert store.commit_hand_edits() is None
    assert "L2 staged only" in git(root, "show", ":lessons.md")  # still staged for the user's own commit
    assert "L2 staged only" not in git(root, "show", "HEAD:lessons.md")
    assert "cycle to work" in git(root, "show", "HEAD:me.md")
    assert MemoryStore.open(root, plain_settings()).status().state is RepoState.CLEAN  # a new process: the same
