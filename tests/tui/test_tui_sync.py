"""The app's side of sync, driven by Pilot against a real bare remote: the header's
sync status, the ``s`` key, and merge conflicts resolved from the Inbox pane."""

from __future__ import annotations

import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings
from helpers.tui_helpers import RecordingApp, settle, wait_for
from textual.pilot import Pilot

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import conflicts as conflicts_module
from memrepo.engine.sync import sync as sync_mod
from memrepo.tui.commands import KeyCommands
from memrepo.tui.panes import InboxPane

SIZE = (80, 24)


@pytest.fixture
def machines(tmp_path: Path) -> tuple[MemoryStore, MemoryStore, Path]:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    a = MemoryStore.open(tmp_path / "a", plain_settings())
    sync_mod.set_remote(a.root, str(remote), confirmed_private=True)
    sync_mod.sync(a)
    subprocess.run(["git", "clone", "-q", str(remote), str(tmp_path / "b")], check=True)
    b = MemoryStore.open(tmp_path / "b", plain_settings())
    sync_mod.set_remote(b.root, str(remote), confirmed_private=True)
    return a, b, remote


def edit(store: MemoryStore, old: bytes, new: bytes) -> None:
    path = store.root / "me.md"
    path.write_bytes(path.read_bytes().replace(old, new))
    store.commit_hand_edits()


def conflict(a: MemoryStore, b: MemoryStore, text: str, old: bytes, on_a: bytes, on_b: bytes) -> None:
    """One entry both machines edited: B's sync merges it and keeps both versions with a ``conflict:`` key."""
    a.remember(Candidate(text=text, kind="preference", by="user"))
    sync_mod.sync(a)
    sync_mod.sync(b)
    edit(a, old, on_a)
    edit(b, old, on_b)
    sync_mod.sync(a)
    sync_mod.sync(b)


@asynccontextmanager
async def opened(store: MemoryStore) -> AsyncIterator[tuple[RecordingApp, Pilot]]:
    """The app on ``store``'s repo at 80x24, its start settled."""
    app = RecordingApp(store.root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        yield app, pilot


def header_sync(app: RecordingApp) -> str:
    label = app.header.query_one("#header-sync")
    return str(label.render()) if label.display else ""


async def test_conflicts_show_in_the_inbox_and_o_keeps_the_highlighted_version(machines) -> None:
    a, b, remote = machines
    conflict(a, b, "My editor is vim", b"editor is vim", b"editor is neovim", b"editor is helix")
    async with opened(b) as (app, pilot):
        await pilot.press("2")
        await settle(pilot)
        inbox = app.main_screen.query_one(InboxPane)
        table = inbox.conflict_table
        assert table.display and table.row_count == 2
        assert [str(table.get_row_at(i)[1]) for i in range(2)] == ["My editor is helix", "My editor is neovim"]
        assert "Merge conflicts 1" in str(table.border_title)
        assert "⇅ ↑0 ↓0" in header_sync(app)
        table.focus()
        await pilot.press("down", "o")
        await settle(pilot)
        await wait_for(pilot, lambda: table.row_count == 0, what="the conflict to go")
        assert not table.display
        text = (b.root / "me.md").read_text()
        assert "My editor is neovim" in text and "helix" not in text and "conflict" not in text
        assert git(b.root, "log", "-1", "--format=%s").startswith("Resolve conflict")
        # A sync the resolving commit started may still run ("⇅ syncing…") on a loaded machine: wait for its end.
        await wait_for(pilot, lambda: "⇅ ↑" in header_sync(app), what=f"the sync counts (now {header_sync(app)!r})")
        # s syncs now: the resolution reaches the remote and the header says nothing is left to push.
        await pilot.press("s")
        await settle(pilot)
        await wait_for(
            pilot,
            lambda: (
                git(remote, "rev-parse", "main") == git(b.root, "rev-parse", "HEAD") and "⇅ ↑0 ↓0" in header_sync(app)
            ),
            what=f"the push (header {header_sync(app)!r})",
        )
        assert any("pushed" in n for n in app.notices)


async def test_b_keeps_both_versions(machines) -> None:
    a, b, _remote = machines
    conflict(a, b, "Deploys on Friday", b"on Friday", b"on Thursday", b"on Monday")
    async with opened(b) as (app, pilot):
        await pilot.press("2")
        await settle(pilot)
        table = app.main_screen.query_one(InboxPane).conflict_table
        table.focus()
        await pilot.press("b")
        await settle(pilot)
        await wait_for(pilot, lambda: table.row_count == 0, what="the conflict to go")
    texts = [e.text for e in b.read_file("me.md").entries]
    assert texts == ["Deploys on Monday", "Deploys on Thursday"]


async def test_the_palette_keeps_a_version_from_any_pane_and_says_when_there_is_no_conflict(machines) -> None:
    """``o`` and ``b`` act on the conflicts box's highlighted version; the palette offers them too, from any pane."""
    a, b, _remote = machines
    conflict(a, b, "Deploys on Friday", b"on Friday", b"on Thursday", b"on Monday")
    async with opened(b) as (app, pilot):
        assert app.main_screen.query_one("#panes").current == "folder"
        hits = [hit async for hit in KeyCommands(app.screen).search("Inbox: Keep both versions")]
        assert hits and hits[0].text == "Inbox: Keep both versions"
        hits[0].command()
        await settle(pilot)
        table = app.main_screen.query_one(InboxPane).conflict_table
        await wait_for(pilot, lambda: table.row_count == 0, what="the conflict to go")
        assert app.main_screen.query_one("#panes").current == "inbox"
        assert [e.text for e in b.read_file("me.md").entries] == ["Deploys on Monday", "Deploys on Thursday"]
        hits = [hit async for hit in KeyCommands(app.screen).search("Inbox: Keep this version")]
        hits[0].command()
        await settle(pilot)
        assert any("No merge conflicts" in n for n in app.notices)


async def test_s_takes_the_other_machines_commits_and_no_remote_is_a_notice(machines, tmp_path: Path) -> None:
    a, b, _remote = machines
    async with opened(b) as (app, pilot):
        a.remember(Candidate(text="Written on A", kind="preference", by="user"))
        sync_mod.sync(a)
        await pilot.press("s")
        await settle(pilot)
        assert "Written on A" in (b.root / "me.md").read_text()
        assert any("took 1 commit(s)" in n for n in app.notices)
    alone = MemoryStore.open(tmp_path / "alone", plain_settings())
    app = RecordingApp(alone.root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert header_sync(app) == ""
        await pilot.press("s")
        await settle(pilot)
        assert any("No remote is set" in n for n in app.notices)


async def test_conflicts_in_a_file_changed_by_hand_show_without_reading_every_file(machines) -> None:
    """Each .md change used to walk and read every file of the repo for conflict keys; now the files an
    event names are read again and the other files' conflicts stay as shown."""
    a, b, _remote = machines
    conflict(a, b, "My editor is vim", b"editor is vim", b"editor is neovim", b"editor is helix")
    conflicted = [ln for ln in (b.root / "me.md").read_text().splitlines() if "conflict:" in ln]
    assert len(conflicted) == 2
    walks: list[int] = []
    real = conflicts_module.list_files

    def counted(root: Path) -> list[tuple[str, int]]:
        walks.append(1)
        return real(root)

    app = RecordingApp(b.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        table = app.main_screen.query_one(InboxPane).conflict_table
        assert table.row_count == 2
        conflicts_module.list_files = counted  # type: ignore[assignment]
        try:
            copy = "\n".join(ln.replace("conflict: ", "conflict: x") for ln in conflicted)
            (b.root / "copied.md").write_text(f"# Copied\n\n{copy}\n", encoding="utf-8")
            await wait_for(pilot, lambda: table.row_count == 4, what="the copied file's conflict")
            assert "Merge conflicts 2" in str(table.border_title)
            assert sorted({c.path for c in table.conflicts}) == ["copied.md", "me.md"]
            (b.root / "copied.md").unlink()
            await wait_for(pilot, lambda: table.row_count == 2, what="the copied file's conflict to go")
            assert [c.path for c in table.conflicts] == ["me.md"]
            assert walks == []
        finally:
            conflicts_module.list_files = real  # type: ignore[assignment]


async def test_a_change_during_the_read_of_every_file_waits_for_it_instead_of_reading_every_file_again(
    machines, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found timing hand edits at 20,000 files: each event during the Inbox pane's first read of every file
    started another read of every file (seconds each), side by side on spare threads."""
    import threading

    _a, b, _remote = machines
    calls: list[list[str] | None] = []
    release = threading.Event()
    real = conflicts_module.conflicts_in

    def slow(root: Path, paths: list[str] | None = None):  # type: ignore[no-untyped-def]
        calls.append(paths)
        if paths is None:
            release.wait(120)
        return real(root, paths)

    monkeypatch.setattr(conflicts_module, "conflicts_in", slow)
    events: list[str] = []
    seen = InboxPane.work_tree_changed

    def record(self: InboxPane, paths: list[str]) -> None:
        events.extend(paths)
        seen(self, paths)

    monkeypatch.setattr(InboxPane, "work_tree_changed", record)
    app = RecordingApp(b.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: None in calls, what="the read of every file")
        (b.root / "notes.md").write_text(
            "# Notes\n\n- Tea at four [by: user; conflict: c1]\n- Tea at five [by: user; conflict: c1]\n"
        )
        await wait_for(pilot, lambda: "notes.md" in events, what="the event")
        await pilot.pause(0.2)
        assert calls.count(None) == 1
        release.set()
        table = app.main_screen.query_one(InboxPane).conflict_table
        # The full read may show the new file's conflict itself; the event's own read comes after it.
        await wait_for(pilot, lambda: table.row_count == 2 and ["notes.md"] in calls, what="the event's read")
        assert calls.count(None) == 1
