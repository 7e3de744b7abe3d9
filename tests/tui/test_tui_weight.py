"""What keeps the app light: a diff drawn only where it is on screen, a footer that frees its old keys."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from helpers.tui_helpers import RecordingApp, build_repo, settle, wait_for
from textual.app import App, ComposeResult
from textual.widgets._footer import FooterKey

from memrepo.tui.widgets.diff_view import DIFF_MAX_LINES, DiffView, diff_lines, line_kind

BIG_PATCH = "--- a/x.md\n+++ b/x.md\n@@ -1,5000 +1,5000 @@\n" + "".join(
    f"+- line {n} [by: user]\n" for n in range(6000)
)


class CountingDiff(DiffView):
    """A DiffView that counts the rows it was asked to draw."""

    drawn: set[int]

    def render_line(self, y: int):  # type: ignore[no-untyped-def]
        self.drawn.add(self.scroll_offset.y + y)
        return super().render_line(y)


class DiffApp(App[None]):
    def compose(self) -> ComposeResult:
        view = CountingDiff("hint", id="diff")
        view.drawn = set()
        yield view


async def test_a_long_diff_draws_only_the_rows_on_screen() -> None:
    app = DiffApp()
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.query_one(CountingDiff)
        view.show_diff(BIG_PATCH)
        await pilot.pause()
        view.drawn.clear()
        view.refresh()
        await pilot.pause()
        assert view.line_count == DIFF_MAX_LINES + 1  # cut, with a line saying so
        assert view.virtual_size.height == view.line_count
        assert view.drawn and max(view.drawn) < 24, sorted(view.drawn)[-5:]
        view.scroll_to(y=3000, animate=False)
        await pilot.pause()
        assert 3000 in view.drawn and not any(100 < row < 2990 for row in view.drawn)


def test_diff_lines_are_cut_cleaned_and_classified() -> None:
    lines = diff_lines("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\x1b\n+new\tx\n ctx", limit=5)
    assert lines == ["--- a/x", "+++ b/x", "@@ -1 +1 @@", "-old\u241b", "+new    x", "… cut at 5 lines"]
    assert [line_kind(line) for line in lines[:6]] == ["file", "file", "hunk", "removed", "added", "context"]


async def test_pane_switches_leave_no_old_footer_keys_alive(tmp_path: Path) -> None:
    """Each pane switch draws the footer's keys again; the old ones must be freed, not kept by a watcher."""
    root = tmp_path / "memory"
    build_repo(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key in "2121":
            await pilot.press(key)
            await pilot.pause()
        await settle(pilot)
        gc.collect()
        alive = sum(1 for obj in gc.get_objects() if isinstance(obj, FooterKey))
        shown = len(app.screen.query(FooterKey))
        assert alive <= shown + 30, (alive, shown)  # each switch kept ~20 more before


async def test_the_start_up_heap_is_frozen_so_a_full_collection_walks_only_what_came_after(
    tmp_path: Path, monkeypatch
) -> None:
    """A full collection walked everything the start built: 110 ms at 20,000 files, landing in the middle of a key.
    Once the recall index is warm the app freezes the heap, lets the panes not shown yet read what they show in
    the background, and freezes again; a pane shown later adds nothing; the exit unfreezes (what it froze can
    then be collected)."""
    import asyncio

    from memrepo.tui import app as app_module
    from memrepo.tui.panes import HistoryPane

    freezes: list[int] = []

    def counted_freeze() -> None:
        freezes.append(1)
        real_freeze()

    real_freeze = app_module.freeze_heap
    monkeypatch.setattr(app_module, "freeze_heap", counted_freeze)
    monkeypatch.setattr(app_module, "AFTER_START_S", 0.01)
    monkeypatch.setattr(app_module, "FREEZE_AFTER_FIRST_SHOW_S", 0.01)
    build_repo(tmp_path / "memory")
    gc.unfreeze()
    app = RecordingApp(tmp_path / "memory", watch=False)
    async with app.run_test(size=(80, 24)) as pilot:

        async def pause() -> None:
            await settle(pilot)
            await asyncio.sleep(0.1)
            await settle(pilot)

        await pause()
        assert len(freezes) == 2  # after the start, and after the hidden panes' reads
        assert all(pane.loaded for pane in app.panes())
        assert app.main_screen.query_one(HistoryPane).commits  # read in the background, never shown
        assert len(gc.get_objects()) < gc.get_freeze_count()  # what a full collection walks now
        await pilot.press("4", "1")  # read before: nothing new to freeze
        await pause()
        assert len(freezes) == 2
    assert gc.get_freeze_count() == 0


def test_trimming_gives_freed_c_heap_pages_back() -> None:
    """What the app's timer does (tui/heap.py): memory freed in the middle of glibc's heap comes back."""
    from memrepo.tui.heap import trim_heap

    def rss_kb() -> int:
        status = Path("/proc/self/status").read_text()
        return int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1])

    blocks = [bytes(2000) for _ in range(50_000)]  # over pymalloc's 512 bytes: glibc's heap, about 100 MB
    kept = blocks[::50]  # one block in 50 stays: the heap's top is not free, so free() alone gives nothing back
    del blocks
    before = rss_kb()
    assert trim_heap()
    assert rss_kb() < before - 50_000
    assert len(kept) == 1_000


async def test_the_app_trims_the_c_heap_on_a_timer_once_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    from memrepo.tui import app as app_module
    from memrepo.tui import heap

    trims: list[int] = []
    monkeypatch.setattr(app_module, "AFTER_START_S", 0.01)
    monkeypatch.setattr(heap, "TRIM_EVERY_S", 0.05)
    monkeypatch.setattr(heap, "trim_heap", lambda: trims.append(1) or True)
    build_repo(tmp_path / "memory")
    app = RecordingApp(tmp_path / "memory", watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)  # a loaded machine runs the timer late: waited for, not 0.4 s of sleep
        await wait_for(pilot, lambda: len(trims) >= 2, what="a second trim")
        assert len(trims) >= 2  # more than once: on a timer, not only at the start
