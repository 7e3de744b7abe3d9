"""The compaction question names only dream branches that exist (issue 16: it named a pending dream's missing branch)."""

from __future__ import annotations

import json

from helpers.repo_helpers import git

from memrepo.engine.repo.store import MemoryStore
from memrepo.tui.compact_text import loss_summary


def _record(store: MemoryStore, name: str, status: str, branch: str | None) -> None:
    folder = store.state_dir / "dreams"
    folder.mkdir(exist_ok=True)
    data = {"id": name, "trigger": "manual", "started": "2026-03-01T00:00:00Z", "status": status, "branch": branch}
    (folder / f"{name}.json").write_text(json.dumps(data))


def test_a_pending_dream_without_a_branch_is_not_said_to_have_one(store: MemoryStore) -> None:
    _record(store, "a1", "applied", None)  # its changes were applied: no review branch
    _record(store, "k1", "running", "dream/k1")  # killed before it made its branch
    preview = store.compact_preview()
    assert preview.dream_branches == [] and preview.pending_dreams == 2 and preview.pending_without_branch == 2
    text = loss_summary(preview)
    assert "branch will be deleted" not in text and "branches will be deleted" not in text and "dream/" not in text
    assert "2 other dream runs still open (applied, or marked running) will be marked stale" in text


def test_the_branches_that_exist_are_named(store: MemoryStore) -> None:
    git(store.root, "branch", "dream/r1")
    git(store.root, "branch", "dream/r2")
    _record(store, "r1", "pending_review", "dream/r1")
    _record(store, "gone", "pending_review", "dream/gone")  # its branch was deleted by hand
    preview = store.compact_preview()
    assert preview.pending_without_branch == 1
    text = loss_summary(preview)
    assert "2 dream review branches will be deleted and their dreams marked stale: dream/r1, dream/r2." in text
    assert "dream/gone" not in text
    assert (
        "1 other dream run still open (applied, or marked running) will be marked stale; it has no review branch."
        in text
    )
