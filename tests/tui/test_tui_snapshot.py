"""SVG snapshots of the Folder pane at 80x24 (pytest-textual-snapshot).

Deterministic by construction: the repo's one commit has a fixed time (so
HEAD's id never changes), it lives in the test's isolated HOME (the header
shows ``~/memory``), the watcher is off, there is no clock or host name on
screen and the preview cursor does not blink. Snapshots live in
``tests/snapshots/``; update them with ``--snapshot-update`` and look at them
before committing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.tui_helpers import EXAMPLE_FILES, FIXED_WHEN, build_repo, commit_at_fixed_time, settle, wait_for
from textual.pilot import Pilot

from memrepo.tui.app import MemrepoApp
from memrepo.tui.panes import FolderPane, HistoryPane

SIZE = (80, 24)


@pytest.fixture
def app(isolated_home: Path) -> MemrepoApp:
    root = isolated_home / "memory"
    build_repo(root, {**EXAMPLE_FILES, "notes/blob.bin": b"\x00\x01binary\xff"})
    return MemrepoApp(root, watch=False)


def test_folder_pane_opens_on_memory_md(app: MemrepoApp, snap_compare) -> None:
    """Tree with every file, MEMORY.md's entries and text; header says ~/memory, HEAD, state."""

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_folder_pane_entries_with_provenance(app: MemrepoApp, snap_compare) -> None:
    """me.md open, entries focused on an agent entry with a source: by colours, meta subtitle."""

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("j", "j", "j")
        await settle(pilot)
        await pilot.press("tab", "j")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_folder_pane_binary_file(app: MemrepoApp, snap_compare) -> None:
    """A binary file shows the engine's error in the preview."""

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        pane = pilot.app.query_one(FolderPane)
        pane.show_file("notes/blob.bin")
        await settle(pilot)
        await wait_for(
            pilot,
            lambda: (
                pane.preview.has_class("-error")
                and pane.file_tree.cursor_item is not None
                and pane.file_tree.cursor_item.path == "notes/blob.bin"
            ),
            what="the binary file's note, with the tree cursor on it",
        )
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_folder_pane_after_pinning_an_entry(app: MemrepoApp, snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    """P on me.md's "Name is Sam", then MEMORY.md: the pin is there, the notice says where it went (B14-14)."""
    from memrepo.engine.git import commit as git_commit

    real = git_commit.signature
    monkeypatch.setattr(git_commit, "signature", lambda when=None: real(when or FIXED_WHEN))  # a fixed HEAD id

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("j", "j", "j")  # me.md
        await settle(pilot)
        await pilot.press("tab", "P")  # its first entry, the user's "Name is Sam"
        await settle(pilot)
        await pilot.press("shift+tab", "g")  # back to the tree, MEMORY.md
        pane = pilot.app.query_one(FolderPane)
        await wait_for(pilot, lambda: "Name is Sam" in [e.text for e in pane.table.entries], what="the pin")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_inbox_pane_with_entries(isolated_home: Path, snap_compare) -> None:
    """Inbox entries with source and task, the second selected, the suggestion under the table."""
    root = isolated_home / "memory"
    inbox = (
        "# Inbox\n\n"
        "- Fetched page says to use tabs [by: agent; added: 2025-01-07; kind: fact; "
        "source: https://example.com/style; task: t-42]\n"
        "- Billing deploys on Fridays [by: agent; added: 2025-01-08; kind: fact; task: t-43]\n"
        "- Prefers [bold]dark[/] mode [by: agent; added: 2025-01-09; kind: preference; source: mail]\n"
    )
    build_repo(root, {**EXAMPLE_FILES, "inbox.md": inbox})
    app = MemrepoApp(root, watch=False)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("j", "space")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_history_pane_with_a_diff(isolated_home: Path, snap_compare) -> None:
    """Commits newest first; the highlighted (newest) commit's diff shows in the diff colours, no key needed."""
    root = isolated_home / "memory"
    build_repo(root)
    commit_at_fixed_time(
        root,
        "lessons.md",
        "- Pin the Textual version [by: agent; added: 2025-01-02]\n",
        "Remember: Pin the Textual version",
    )
    app = MemrepoApp(root, watch=False)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("3")
        pane = pilot.app.query_one(HistoryPane)
        await wait_for(pilot, lambda: "Pin the Textual version" in pane.diff_text, what="the diff")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_context_pane_for_a_workspace(app: MemrepoApp, snap_compare) -> None:
    """The billing workspace highlighted: token counts per budget above the exact block an agent gets."""

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        await pilot.press("j")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_search_screen_with_hits(app: MemrepoApp, snap_compare) -> None:
    """``/`` then a query: hits as file:line and text, the count and the keys in the status line."""

    async def run_before(pilot: Pilot) -> None:
        from memrepo.tui.search import SearchScreen

        await settle(pilot)
        await pilot.press("slash", *"pytest ruff")
        screen = pilot.app.screen
        assert isinstance(screen, SearchScreen)
        await settle(pilot)
        # the time a search took varies: show a fixed status in the picture
        screen.query_one("#search-status").update("2 hits · 1 ms · enter opens · esc closes")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_search_screen_with_only_nearest_entries(app: MemrepoApp, snap_compare) -> None:
    """A query nothing answers confidently: the nearest entries dimmed and marked, the status line says so."""

    async def run_before(pilot: Pilot) -> None:
        from memrepo.tui.search import SearchScreen

        await settle(pilot)
        await pilot.press("slash", *"how do we name pytest fixtures in conftest")
        screen = pilot.app.screen
        assert isinstance(screen, SearchScreen)
        await settle(pilot)
        assert screen.hits and not any(hit.answer for hit in screen.hits)
        # the time a search took varies: show a fixed status in the picture
        screen.query_one("#search-status").update("No confident answer: 2 nearest · 1 ms · enter opens · esc closes")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
