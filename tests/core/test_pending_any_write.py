"""Writes kept while the repo was blocked are applied by any later write, not only ``remember``
(docs/architecture.md §3: blocked states lose nothing)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from helpers.repo_helpers import git, merge_conflict, plain_settings, porcelain
from helpers.watch_helpers import HANG_GUARD_S, drain, next_event, watching

from memrepo.engine.config import Settings
from memrepo.engine.errors import BlockedError
from memrepo.engine.models import Candidate
from memrepo.engine.repo.repo import MemoryRepo
from memrepo.engine.repo.store import MemoryStore


def _keep_one(store: MemoryStore, text: str = "written while blocked") -> None:
    lock = store.root / ".git" / "index.lock"
    lock.write_text("")
    with pytest.raises(BlockedError, match="kept"):
        store.remember(Candidate(text=text, kind="preference"))
    lock.unlink()
    assert [c.text for c in store.pending()] == [text]


def test_an_accept_applies_the_kept_writes(store: MemoryStore) -> None:
    _keep_one(store)
    store.remember(Candidate(text="an agent's guess", kind="preference", by="agent", untrusted=True))
    inbox = store.read_file("inbox.md").entries
    assert inbox and store.pending() == []  # that remember applied it already; keep another and accept
    _keep_one(store, "also written while blocked")
    store.accept(f"{inbox[0].ref}@{inbox[0].seen}")
    assert store.pending() == []
    assert "also written while blocked" in (store.root / "me.md").read_text()


def test_a_forget_leaves_the_kept_writes_kept(store: MemoryStore) -> None:
    """A kept write may quote the text being forgotten: a forget never applies it first."""
    added = store.remember(Candidate(text="likes green tea", kind="preference"))
    _keep_one(store)
    store.forget(added.ref or "")
    assert [c.text for c in store.pending()] == ["written while blocked"]


def test_committing_hand_edits_applies_the_kept_writes(repo_path: Path) -> None:
    """The app's quiet timer commits hand edits: that applies the kept writes too."""
    store = MemoryStore.open(repo_path, plain_settings())
    _keep_one(store)
    (repo_path / "lessons.md").write_text("# Lessons\n\n- by hand\n")
    assert store.commit_hand_edits() is not None
    assert store.pending() == []
    assert "written while blocked" in (repo_path / "me.md").read_text()


def test_apply_pending_still_reports_what_it_applied(store: MemoryStore) -> None:
    _keep_one(store)
    assert [r.path for r in store.apply_pending()] == ["me.md"]


def _applied(root: Path) -> bool:
    """True once the kept write is in me.md and its record in .git/memrepo/pending is gone."""
    pending = root / ".git" / "memrepo" / "pending"
    return "written while blocked" in (root / "me.md").read_text() and not any(pending.glob("*.json"))


async def test_the_apps_quiet_timer_applies_the_kept_writes_once_the_block_goes(
    repo_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memrepo.engine.files import lock as gitlocks

    # An unheld lock file 10 s old is a crashed git's and goes: the wait for the quiet timers may take that.
    monkeypatch.setattr(gitlocks, "STALE_LOCK_S", 3600.0)
    """No write follows: the index.lock removal (a git state event) starts the quiet timer, which applies them."""
    MemoryStore.open(repo_path, plain_settings())
    settings = Settings.model_validate({"writes": {"commit_hand_edits_after": 0.2}})
    repo = await MemoryRepo.open(repo_path, settings, commit_hand_edits=True)
    try:
        async with watching(repo) as queue:
            lock = repo_path / ".git" / "index.lock"
            lock.write_text("")
            with pytest.raises(BlockedError, match="kept"):
                await repo.remember(Candidate(text="written while blocked", kind="preference"))
            await drain(queue)  # late events of the readiness edits: their timers run (and fail) while blocked
            quiet = repo._quiet_task
            while quiet is not None and not quiet.done():
                await asyncio.sleep(0.05)
            assert "written while blocked" not in (repo_path / "me.md").read_text()
            lock.unlink()
            await next_event(queue, lambda e: e.git)
            deadline = time.monotonic() + HANG_GUARD_S  # a hang guard, not a speed claim
            # The file is written before the kept write's record is removed and the commit made: wait for both.
            while time.monotonic() < deadline and not _applied(repo_path):
                await asyncio.sleep(0.05)
        assert "written while blocked" in (repo_path / "me.md").read_text()
        assert not any((repo_path / ".git" / "memrepo" / "pending").glob("*.json"))
    finally:
        await repo.close()


async def _wait_applied(root: Path, text: str) -> None:
    pending = root / ".git" / "memrepo" / "pending"
    deadline = time.monotonic() + HANG_GUARD_S  # a hang guard, not a speed claim
    # The record is removed inside the write's transaction, before its commit: wait for the commit too (a loaded
    # machine read `git status` between the two: "MM lessons.md").
    while time.monotonic() < deadline and (
        text not in (root / "lessons.md").read_text() or any(pending.glob("*.json")) or porcelain(root) != ""
    ):
        await asyncio.sleep(0.05)


async def test_a_watching_repo_with_no_quiet_commit_applies_the_kept_writes_when_the_merge_is_aborted(
    repo_path: Path,
) -> None:
    """The MCP server and ``memrepo watch`` commit hand edits only before a write: the merge's end applies them."""
    MemoryStore.open(repo_path, plain_settings())
    repo = await MemoryRepo.open(repo_path, plain_settings())
    assert repo.commit_hand_edits_after == 0
    try:
        async with watching(repo) as queue:
            merge_conflict(repo_path)
            with pytest.raises(BlockedError, match="kept"):
                await repo.remember(Candidate(text="Learned during the merge", kind="lesson"))
            await drain(queue)  # the merge's own events: their tries run (and fail) while blocked
            assert "Learned during the merge" not in (repo_path / "lessons.md").read_text()
            git(repo_path, "merge", "--abort")
            await next_event(queue, lambda e: e.git)
            await _wait_applied(repo_path, "Learned during the merge")
        assert "Learned during the merge" in (repo_path / "lessons.md").read_text()
        assert not any((repo_path / ".git" / "memrepo" / "pending").glob("*.json"))
        assert porcelain(repo_path) == ""
    finally:
        await repo.close()


async def test_a_repo_that_starts_watching_after_the_block_went_applies_the_kept_writes(repo_path: Path) -> None:
    """Kept by an earlier process, the merge aborted while nothing watched: the next watcher applies them."""
    store = MemoryStore.open(repo_path, plain_settings())
    merge_conflict(repo_path)
    with pytest.raises(BlockedError, match="kept"):
        store.remember(Candidate(text="Learned during the merge", kind="lesson"))
    git(repo_path, "merge", "--abort")
    repo = await MemoryRepo.open(repo_path, plain_settings())
    try:
        repo.start_watching()
        await _wait_applied(repo_path, "Learned during the merge")
        assert "Learned during the merge" in (repo_path / "lessons.md").read_text()
        assert not any((repo_path / ".git" / "memrepo" / "pending").glob("*.json"))
    finally:
        await repo.close()
