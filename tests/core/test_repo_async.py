"""The awaitable MemoryRepo (docs/architecture.md §1, §3, §4): its API, one worker thread
for all git work, live change events, and hand edits seen by the watcher."""

from __future__ import annotations

import asyncio
import subprocess
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from helpers.repo_helpers import plain_settings
from helpers.watch_helpers import next_event, watching

import memrepo.engine.repo.repo
from memrepo.engine.errors import BlockedError, RefError
from memrepo.engine.git.store import GitStore
from memrepo.engine.models import Action, Candidate, ChangeEvent, RepoState
from memrepo.engine.repo.repo import FULL_SCAN_EVERY_S, MemoryRepo
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.repo.watch import is_ignored


@pytest.fixture
async def repo(repo_path: Path) -> AsyncIterator[MemoryRepo]:
    opened = await MemoryRepo.open(repo_path, plain_settings())
    try:
        yield opened
    finally:
        await opened.close()


class FakeClock:
    """Stands in for ``time`` inside memrepo.engine.repo.repo only (asyncio keeps the real one)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def monotonic(self) -> float:
        return self.now


def _fake_clock(monkeypatch: pytest.MonkeyPatch, now: float) -> FakeClock:
    clock = FakeClock(now)
    monkeypatch.setattr(memrepo.engine.repo.repo, "time", SimpleNamespace(monotonic=clock.monotonic))
    return clock


# -- the API ------------------------------------------------------------------------


async def test_open_remember_read_forget_status_log(repo: MemoryRepo) -> None:
    assert repo.root.name == "memory"
    assert [c.summary for c in await repo.log()] == ["Create memory repo"]
    files = dict(await repo.list_files())
    assert set(files) == {"MEMORY.md", "me.md", "lessons.md", "inbox.md"}
    assert files["me.md"] == (repo.root / "me.md").stat().st_size

    added = await repo.remember(Candidate(text="likes green tea", kind="preference"))
    assert added.action is Action.ADDED and added.path == "me.md"
    view = await repo.read_file("me.md")
    assert [(e.ref, e.text, e.by) for e in view.entries] == [(added.ref, "likes green tea", "agent")]
    assert view.size == (repo.root / "me.md").stat().st_size
    assert (await repo.head()) == added.commit
    assert (await repo.status()).state is RepoState.CLEAN

    (repo.root / "lessons.md").write_text("# Lessons\n\n- by hand\n")
    status = await repo.status()
    assert (status.state, status.changed) == (RepoState.HAND_EDITED, ["lessons.md"])
    assert await repo.commit_hand_edits() is not None
    assert (await repo.status()).state is RepoState.CLEAN

    forgotten = await repo.forget(added.ref or "")
    assert forgotten.action is Action.FORGOTTEN
    assert (await repo.read_file("me.md")).entries == []
    assert [c.summary for c in await repo.log(limit=3)] == [
        "Forget: likes green tea",
        "Hand edits",
        "Remember preference: likes green tea",
    ]
    assert [c.summary for c in await repo.log(limit=1, skip=1)] == ["Hand edits"]
    with pytest.raises(RefError):
        await repo.read_file("../outside.md")
    with pytest.raises(RefError):
        await repo.forget("repo:me.md#L1")


async def test_a_binary_file_reads_as_an_error_not_an_exception(repo: MemoryRepo) -> None:
    (repo.root / "blob.md").write_bytes(b"\x00\x01\x02")
    view = await repo.read_file("blob.md")
    assert view.text is None and view.entries == []
    assert "binary" in (view.error or "")


async def test_errors_reach_the_caller_and_the_repo_keeps_working(repo: MemoryRepo) -> None:
    (repo.root / ".git" / "index.lock").write_text("")
    with pytest.raises(BlockedError):
        await repo.remember(Candidate(text="blocked write"))
    (repo.root / ".git" / "index.lock").unlink()
    assert (await repo.remember(Candidate(text="unblocked write"))).action is Action.ADDED


async def test_close_ends_the_repo(repo_path: Path) -> None:
    async with await MemoryRepo.open(repo_path, plain_settings()) as repo:
        assert await repo.head() is not None
    with pytest.raises(RuntimeError, match="closed"):
        await repo.head()
    await repo.close()  # idempotent


# -- one worker thread ------------------------------------------------------------


async def test_all_git_and_file_work_runs_on_one_worker_thread(
    repo_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, str, int]] = []

    def record(cls: type, name: str) -> None:
        original = getattr(cls, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            current = threading.current_thread()
            seen.append((name, current.name, threading.get_ident()))
            return original(*args, **kwargs)

        monkeypatch.setattr(cls, name, wrapper)

    for name in ("__init__", "status", "commit_paths", "log", "head_id"):
        record(GitStore, name)
    for name in ("read_file", "list_files", "remember", "forget", "commit_hand_edits"):
        record(MemoryStore, name)

    async with await MemoryRepo.open(repo_path, plain_settings()) as repo:
        results = await asyncio.gather(
            *(repo.remember(Candidate(text=f"fact {i}")) for i in range(5)),
            repo.read_file("me.md"),
            repo.list_files(),
            repo.status(),
            repo.log(),
            repo.head(),
        )
        await repo.forget(results[0].ref)
        await repo.commit_hand_edits()

    called = {name for name, _, _ in seen}
    assert called >= {"__init__", "status", "commit_paths", "log", "read_file", "remember", "forget"}
    threads = {(thread, ident) for _, thread, ident in seen}
    assert len(threads) == 1, threads
    ((thread_name, ident),) = threads
    assert thread_name.startswith("memrepo-git")
    assert ident != threading.main_thread().ident


async def test_concurrent_remembers_commit_in_order_and_lose_nothing(repo: MemoryRepo) -> None:
    texts = [f"item {i:02d}" for i in range(20)]
    results = await asyncio.gather(*(repo.remember(Candidate(text=t)) for t in texts))
    assert [r.action for r in results] == [Action.ADDED] * 20
    assert len({r.commit for r in results}) == 20
    log = await repo.log(limit=21)
    assert [c.summary for c in reversed(log[:20])] == [f"Remember fact: {t}" for t in texts]
    assert [c.id for c in reversed(log[:20])] == [r.commit for r in results]
    assert [e.text for e in (await repo.read_file("me.md")).entries] == texts
    assert (await repo.status()).state is RepoState.CLEAN


# -- live changes -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "ignored"),
    [
        ("4913", True),
        ("workspaces/4913", True),
        ("me.md.swp", True),
        (".me.md.swp", True),
        (".me.md.swo", True),
        ("me.md~", True),
        (".#me.md", True),
        ("#me.md#", True),
        (".git/index", True),
        (".git/refs/heads/main", False),
        (".git/refs/heads/main.lock", True),
        (".git/HEAD", False),
        (".git/MERGE_HEAD", False),
        (".git/index.lock", False),
        (".git/objects/ab/cdef", True),
        (".git/memrepo/write.lock", True),
        (".memrepo-tmp-abc123", True),
        ("me.md", False),
        ("workspaces/billing.md", False),
        ("4913.md", False),
        ("topics/swap.md", False),
        ("notes.git/x.md", False),
    ],
)
def test_watch_filter(path: str, ignored: bool) -> None:
    assert is_ignored(path) is ignored


async def test_changes_reports_an_outside_edit(repo: MemoryRepo) -> None:
    """The edit arrives as an event naming only it (its latency is measured by benchmarks/bench_watch.py)."""
    async with watching(repo) as queue:
        (repo.root / "me.md").write_text("# About me\n\n- edited in an editor\n")
        seen = await next_event(queue, lambda e: "me.md" in e.paths)
        assert all(set(e.paths) <= {"me.md"} for e in seen)


async def test_changes_ignores_editor_scratch_files_and_git(repo: MemoryRepo) -> None:
    root = repo.root
    async with watching(repo) as queue:
        for name in ("4913", "me.md.swp", ".lessons.md.swp", "me.md~", ".#me.md"):
            (root / name).write_text("scratch")
        (root / "workspaces").mkdir()
        (root / "workspaces" / "4913").write_text("probe")
        (root / ".git" / "memrepo" / "scratch").write_text("engine state")
        (root / ".git" / "description").write_text("touched")
        for name in ("4913", "me.md.swp", ".lessons.md.swp", "me.md~", ".#me.md"):
            (root / name).unlink()
        # A real edit after all of that: every event up to it must be clean.
        (root / "lessons.md").write_text("# Lessons\n\n- real edit\n")
        seen = await next_event(queue, lambda e: "lessons.md" in e.paths)
        paths = {p for e in seen for p in e.paths}
        assert paths <= {"lessons.md", "workspaces"}, paths


async def test_a_commit_made_with_git_alone_is_a_git_event(repo: MemoryRepo) -> None:
    """HEAD moving by another process's commit reaches subscribers with no work-tree path."""
    root = repo.root
    (root / "me.md").write_text("# About me\n\n- committed with git\n")
    async with watching(repo) as queue:  # the edit's own event is drained by then
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "by hand"],
            cwd=root,
            check=True,
        )
        seen = await next_event(queue, lambda e: e.git)
        assert seen[-1].git and ".git/HEAD" not in seen[-1].paths


async def test_close_ends_changes_iterators(repo_path: Path) -> None:
    repo = await MemoryRepo.open(repo_path, plain_settings())
    got: list[ChangeEvent] = []

    async def consume() -> None:
        async for event in repo.changes():
            got.append(event)

    task = asyncio.create_task(consume())
    await asyncio.sleep(0)  # let it subscribe
    await repo.close()
    await asyncio.wait_for(task, 60)
    assert task.done() and task.exception() is None


# -- hand edits while the watcher runs ------------------------------------------------


async def test_a_watched_hand_edit_is_committed_before_the_next_write(repo: MemoryRepo) -> None:
    root = repo.root
    async with watching(repo) as queue:
        await repo.remember(Candidate(text="first write"))  # the first write scans everything
        (root / "lessons.md").write_text("# Lessons\n\n- edited while watched\n")
        (root / "topics" / "sql").mkdir(parents=True)
        (root / "topics" / "sql" / "joins.md").write_text("- prefer explicit joins\n")
        # The note, or only its new folder: files made in a folder before the
        # watcher watches it are not reported on their own.
        note = {"topics", "topics/sql", "topics/sql/joins.md"}
        missing = {"lessons.md": {"lessons.md"}, "note": note}

        def take(event: ChangeEvent) -> bool:
            for key, names in list(missing.items()):
                if names & set(event.paths):
                    del missing[key]
            return not missing

        await next_event(queue, take)
        result = await repo.remember(Candidate(text="second write"))
    log = await repo.log(limit=3)
    assert [c.summary for c in log[:2]] == ["Remember fact: second write", "Hand edits"]
    assert log[0].id == result.commit
    assert log[1].origin == "hand_edit"
    assert "lessons.md" in log[1].message and "topics/sql/joins.md" in log[1].message
    assert (await repo.status()).state is RepoState.CLEAN


async def test_an_edit_from_before_the_watcher_is_committed_by_the_first_write(
    repo: MemoryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A machine booted a few seconds ago: the monotonic clock is still small.
    _fake_clock(monkeypatch, 5.0)
    (repo.root / "lessons.md").write_text("# Lessons\n\n- edited before the watcher\n")
    async with watching(repo):
        await repo.remember(Candidate(text="first write after start"))
    assert [c.summary for c in await repo.log(limit=2)] == [
        "Remember fact: first write after start",
        "Hand edits",
    ]
    assert (await repo.status()).state is RepoState.CLEAN


async def test_an_unreported_edit_is_caught_by_the_periodic_full_scan(
    repo: MemoryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = _fake_clock(monkeypatch, 1000.0)
    root = repo.root
    async with watching(repo) as queue:
        await repo.remember(Candidate(text="full scan now"))
        (root / "lessons.md").write_text("# Lessons\n\n- the watcher's event gets lost\n")
        await next_event(queue, lambda e: "lessons.md" in e.paths)
        repo._dirty.discard("lessons.md")  # as if the event were dropped (inotify overflow)
        # Within the interval only hinted paths are checked: the edit waits...
        clock.now += FULL_SCAN_EVERY_S / 2
        await repo.remember(Candidate(text="hinted write"))
        assert (await repo.status()).changed == ["lessons.md"]
        # ...and the next write after the interval scans everything and commits it.
        clock.now += FULL_SCAN_EVERY_S
        await repo.remember(Candidate(text="after the interval"))
    assert [c.summary for c in await repo.log(limit=2)] == [
        "Remember fact: after the interval",
        "Hand edits",
    ]
    assert (await repo.status()).state is RepoState.CLEAN


async def test_a_failed_full_scan_write_does_not_drop_seen_edits(
    repo: MemoryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = _fake_clock(monkeypatch, 1000.0)
    root = repo.root
    async with watching(repo) as queue:
        await repo.remember(Candidate(text="first"))
        (root / "lessons.md").write_text("# Lessons\n\n- seen by the watcher\n")
        await next_event(queue, lambda e: "lessons.md" in e.paths)
        clock.now += FULL_SCAN_EVERY_S + 1  # this write is due for a full scan...
        (root / ".git" / "index.lock").write_text("")
        with pytest.raises(BlockedError):  # ...and fails
            await repo.remember(Candidate(text="blocked write"))
        (root / ".git" / "index.lock").unlink()
        await repo.remember(Candidate(text="after the block"))
    # The blocked write was kept and is applied (after the hand edits) before the new one.
    assert [c.summary for c in await repo.log(limit=3)] == [
        "Remember fact: after the block",
        "Remember fact: blocked write",
        "Hand edits",
    ]
    assert (await repo.status()).state is RepoState.CLEAN
