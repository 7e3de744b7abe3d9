"""The watcher's arm signal (docs/architecture.md §4): once watchfiles' watches are in place every
later change has an event, so a recall index walked after that moment needs only the paths events
name.

The first tests run the real watchfiles library: a file written inside the arm callback itself
must still come out as an event, which fails if the signal ran before the watches existed.
"""

from __future__ import annotations

import asyncio
import errno
import os
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from helpers.watch_helpers import HANG_GUARD_S, next_event, watching

import memrepo.engine.repo.watch as watch
from memrepo.engine.models import ChangeEvent
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallkeys import index_path
from memrepo.engine.repo.repo import MemoryRepo
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.repo.watch import WatchMode, watch_changes


async def _first_event_for(stream, name: str) -> ChangeEvent:
    async def look() -> ChangeEvent:
        async for event in stream:
            if name in event.paths:
                return event
        raise AssertionError("the stream ended")

    return await asyncio.wait_for(look(), HANG_GUARD_S)  # a hang guard, not a speed claim


@pytest.mark.parametrize("polling", [False, True], ids=["inotify", "polling"])
async def test_a_file_written_the_moment_the_watcher_arms_has_an_event(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, polling: bool
) -> None:
    monkeypatch.setattr(watch, "remote_mount", lambda root: "nfs4" if polling else None)
    (tmp_path / "notes").mkdir()
    calls: list[bool] = []

    def armed(ok: bool) -> None:
        calls.append(ok)
        if ok:  # the earliest moment a caller may trust events: write right then
            (tmp_path / "notes" / "written-at-arm.md").write_text("- arrived\n")

    stream = watch_changes(tmp_path, mode=WatchMode(), on_armed=armed)
    try:
        event = await _first_event_for(stream, "notes/written-at-arm.md")
    finally:
        await stream.aclose()
    assert calls == [True]
    assert "notes/written-at-arm.md" in event.paths


class FailingNative:
    """watchfiles.awatch whose native watch fails like notify at the inotify limit; polling works."""

    def __init__(self, root: Path) -> None:
        self.root = str(root)

    def __call__(self, *paths: object, force_polling: bool = False, stop_event=None, **kw: object):
        return self._run(force_polling, stop_event)

    async def _run(self, polling: bool, stop_event: asyncio.Event | None):
        if not polling:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        canary = Path(self.root) / watch.CANARY
        while not canary.exists():  # a poller reports only changes made after its first look: the canary's
            await asyncio.sleep(0.05)
        yield {(watch.watchfiles.Change.modified, str(canary))}
        yield {(watch.watchfiles.Change.modified, self.root + "/me.md")}


async def test_a_failed_native_watch_disarms_before_polling_arms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watch.watchfiles, "awatch", FailingNative(tmp_path))
    monkeypatch.setattr(watch, "remote_mount", lambda root: None)
    calls: list[bool] = []
    stream = watch_changes(tmp_path, mode=WatchMode(), on_armed=calls.append)
    event = await anext(stream)
    await stream.aclose()
    assert event.paths == ["me.md"]
    assert calls == [False, True]  # never armed by the stream that failed


# -- what the caches do with it ---------------------------------------------------------


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every full walk of the recall index (its ``_sync_all``)."""
    seen: list[float] = []
    real = RecallIndex._sync_all

    def counting(self: RecallIndex) -> int:
        seen.append(1.0)
        return real(self)

    monkeypatch.setattr(RecallIndex, "_sync_all", counting)
    return seen


@pytest.fixture
def never_settles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The old rule (trust a watcher after it ran 1 s) never applies: only the arm signal can spare a walk."""
    monkeypatch.setattr(MemoryStore, "WATCH_SETTLE_S", 3600.0)


def _texts(store: MemoryStore, query: str) -> str:
    return " ".join(hit.text for hit in store.recall(query))


def _hand_edit(store: MemoryStore, line: str) -> None:
    memory = store.root / "MEMORY.md"
    memory.write_text(memory.read_text() + f"\n- {line}\n")


@pytest.mark.usefixtures("never_settles")
def test_after_the_arm_and_one_walk_a_change_reaches_recall_without_another_walk(
    store: MemoryStore, walks: list[float]
) -> None:
    store.set_watched(True)
    store.set_armed(True)
    assert "zebra" not in _texts(store, "zebra")
    assert len(walks) == 1  # the reference walk, after the arm
    _hand_edit(store, "the zebra crossing is on Elm street")
    store.note_changed(["MEMORY.md"])  # the event
    assert "zebra crossing" in _texts(store, "zebra")
    assert len(walks) == 1


@pytest.mark.usefixtures("never_settles")
def test_without_the_arm_a_young_watcher_still_walks_every_time(store: MemoryStore, walks: list[float]) -> None:
    store.set_watched(True)
    _texts(store, "zebra")
    _texts(store, "zebra")
    assert len(walks) == 2
    store.set_armed(True)
    _texts(store, "zebra")  # a walk that began before the arm is no reference
    _texts(store, "zebra")
    assert len(walks) == 3


@pytest.mark.usefixtures("never_settles")
def test_a_failed_stream_or_a_stopped_watcher_makes_the_next_recall_walk(
    store: MemoryStore, walks: list[float]
) -> None:
    store.set_watched(True)
    store.set_armed(True)
    _texts(store, "zebra")
    store.set_armed(False)  # events may have been missed
    _hand_edit(store, "a zebra nobody reported")
    assert "nobody reported" in _texts(store, "zebra")
    assert len(walks) == 2
    store.set_armed(True)
    _texts(store, "zebra")
    store.set_watched(False)
    _texts(store, "zebra")
    assert len(walks) == 4
    store.set_watched(True)  # a new watcher, not armed yet: the old arm vouches for nothing
    _texts(store, "zebra")
    _texts(store, "zebra")
    assert len(walks) == 6


def _built_elsewhere(root: Path) -> RecallIndex:
    """An index built and walked the way ``warm_recall`` does it, beside the store's caches."""
    index = RecallIndex(root, index_path(root))
    index.sync(None)
    return index


@pytest.mark.usefixtures("never_settles")
def test_an_index_walked_after_the_arm_is_adopted_without_a_second_walk(store: MemoryStore, walks: list[float]) -> None:
    store.set_watched(True)
    store.set_armed(True)
    index = _built_elsewhere(store.root)
    assert len(walks) == 1
    _hand_edit(store, "a zebra written while the index was handed over")
    store.note_changed(["MEMORY.md"])  # its event came before the adoption
    store.adopt_recall_index(index)
    assert "handed over" in _texts(store, "zebra")
    assert len(walks) == 1


@pytest.mark.usefixtures("never_settles")
def test_an_index_walked_before_the_arm_is_walked_again(store: MemoryStore, walks: list[float]) -> None:
    store.set_watched(True)
    index = _built_elsewhere(store.root)
    _hand_edit(store, "a zebra edited before any watch existed")  # no event can cover it
    store.set_armed(True)
    store.adopt_recall_index(index)
    assert "before any watch" in _texts(store, "zebra")
    assert len(walks) == 2


@pytest.mark.usefixtures("never_settles")
async def test_a_running_repo_arms_its_store_so_a_hand_edit_costs_no_walk(repo_path: Path, walks: list[float]) -> None:
    repo = await MemoryRepo.open(repo_path, plain_settings())
    try:
        async with watching(repo) as queue:  # the watcher reports, so it has armed
            await repo.recall("zebra")
            assert len(walks) == 1
            memory = repo.root / "MEMORY.md"
            memory.write_text(memory.read_text() + "\n- the zebra crossing is on Elm street\n")
            await next_event(queue, lambda e: "MEMORY.md" in e.paths)
            hits = await repo.recall("zebra")
            assert "zebra crossing" in " ".join(h.text for h in hits)
            assert len(walks) == 1
    finally:
        await repo.close()


async def test_the_polling_fallback_arms_only_once_the_poller_sees_changes(tmp_path: Path) -> None:
    """With the real poller: an edit made right when the stream says armed arrives (the poller's first look
    comes after ``awatch`` starts; arming at once lost 3 of 5 such edits)."""
    (tmp_path / "notes").mkdir()
    (tmp_path / ".git").mkdir()
    (tmp_path / "notes" / "a.md").write_text("- a line\n")
    stop = asyncio.Event()

    def armed(ok: bool) -> None:
        if ok:
            (tmp_path / "notes" / "a.md").write_text("- a line\n- edited right at arming\n")

    got: list[str] = []

    async def collect() -> None:
        async for event in watch._stream(tmp_path, stop, 400, polling=True, on_armed=armed):
            got.extend(event.paths)
            if "notes/a.md" in got:
                stop.set()

    await asyncio.wait_for(collect(), timeout=60)
    assert got == ["notes/a.md"]
