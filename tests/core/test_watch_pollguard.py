"""The polling fallback sees a second change made in the same second (engine/repo/pollguard.py).

notify's poller compares modification times in whole seconds, so a file rewritten within the second
of its last look was never reported: ``test_the_polling_fallback_arms_only_once_the_poller_sees_changes``
hung for 60 s whenever its two writes fell in one second (9 of 30 runs under two CPU hogs). The first
test pins the two writes into one second with ``os.utime`` so the real poller misses it every time.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from helpers.watch_helpers import HANG_GUARD_S

import memrepo.engine.repo.watch as watch
from memrepo.engine.repo.pollguard import AT_RISK_S, SameSecondGuard


def _set_mtime(path: Path, seconds: int, nanos: int) -> None:
    ns = seconds * 1_000_000_000 + nanos
    os.utime(path, ns=(ns, ns))


async def test_a_second_write_in_the_same_second_comes_out_of_the_real_poller(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / ".git").mkdir()
    note = tmp_path / "notes" / "a.md"
    note.write_text("- a line\n")
    second = int(time.time()) + 100  # a second that cannot end during the test: the poller's blind spot
    _set_mtime(note, second, 100_000_000)
    stop = asyncio.Event()

    def armed(ok: bool) -> None:
        if ok:
            note.write_text("- a line\n- edited in the same second\n")
            _set_mtime(note, second, 600_000_000)

    got: list[str] = []

    async def collect() -> None:
        async for event in watch._stream(tmp_path, stop, 400, polling=True, on_armed=armed):
            got.extend(event.paths)
            if "notes/a.md" in got:
                stop.set()

    await asyncio.wait_for(collect(), HANG_GUARD_S)  # a hang guard: without the guard it never comes
    assert got == ["notes/a.md"]


def test_the_guard_reports_a_changed_file_and_lets_it_go_once_its_second_is_over(tmp_path: Path) -> None:
    note = tmp_path / "a.md"
    note.write_text("one\n")
    now = [time.time()]
    guard = SameSecondGuard(tmp_path, lambda rel: False, clock=lambda: now[0])
    guard.seed()
    assert guard.watched == {"a.md"}
    assert guard.changed() == set()  # nothing new since the seed
    stamp = note.stat().st_mtime_ns
    note.write_text("two\n")
    os.utime(note, ns=(stamp, stamp))  # same size, same time to the nanosecond: the change time differs
    assert guard.changed() == {"a.md"}
    assert guard.changed() == set()  # reported once
    now[0] += AT_RISK_S + 0.1
    guard.changed()
    assert guard.watched == frozenset(), "a file whose second is over is the poller's again"


def test_the_seed_skips_old_files_ignored_paths_and_git_internals(tmp_path: Path) -> None:
    (tmp_path / ".git" / "objects").mkdir(parents=True)
    (tmp_path / ".git" / "objects" / "ab").write_text("x")
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / "old.md").write_text("old\n")
    os.utime(tmp_path / "old.md", (time.time() - 60, time.time() - 60))
    (tmp_path / "new.md").write_text("new\n")
    (tmp_path / "new.md.swp").write_text("swap\n")
    guard = SameSecondGuard(tmp_path, watch.is_ignored)
    guard.seed()
    assert guard.watched == {"new.md", ".git/HEAD"}


def test_a_file_removed_while_watched_is_reported_once(tmp_path: Path) -> None:
    note = tmp_path / "a.md"
    note.write_text("one\n")
    guard = SameSecondGuard(tmp_path, lambda rel: False)
    guard.saw(["a.md"])
    note.unlink()
    assert guard.changed() == {"a.md"}
    assert guard.changed() == set()
    assert guard.watched == frozenset()
