"""The Inbox pane driven by Pilot at 80x24: accept, move, edit, discard, bulk, undo, empty state."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import EXAMPLE_FILES, RecordingApp, build_repo, settle, wait_for

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.tui.app import MemrepoApp
from memrepo.tui.panes import InboxPane
from memrepo.tui.panes.inbox import EMPTY, STILL_READING
from memrepo.tui.widgets.dialogs import EditText, FilePicker, fuzzy_match

SIZE = (80, 24)
TEXTS = ["Use pnpm for the web app", "Prefers dark mode", "Billing deploys on Fridays"]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The example repo with an inbox of the example entry and three from an untrusted task."""
    root = tmp_path / "memory"
    build_repo(root, {**EXAMPLE_FILES, "inbox.md": "# Inbox\n\n"})
    store = MemoryStore.open(root, plain_settings())
    for text in TEXTS:
        store.remember(Candidate(text=text, untrusted=True, source="https://ex.com/p", task="t1"))
    return root


def commits(root: Path) -> list[str]:
    out = subprocess.run(["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def inbox_text(root: Path) -> str:
    return (root / "inbox.md").read_text(encoding="utf-8")


def pane(app: MemrepoApp) -> InboxPane:
    return app.main_screen.query_one(InboxPane)


async def open_inbox(pilot: Any) -> InboxPane:
    await settle(pilot)
    await pilot.press("2")
    await settle(pilot)
    return pane(pilot.app)


async def test_a_triage_key_before_the_first_read_says_so_and_writes_nothing(repo: Path) -> None:
    """`2 a` at once acted on an empty table before the inbox was read and said nothing (a helper found it);
    the key now says the pane is still reading, not that the inbox is empty, and nothing is written."""
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = commits(repo)
        inbox = pane(app)
        assert not inbox.loaded  # not shown yet, and the background reads have not started
        inbox.action_accept()
        inbox.action_discard()
        await pilot.pause()
        assert app.notices.count(STILL_READING) == 2 and EMPTY not in app.notices
        assert commits(repo) == before
        await open_inbox(pilot)
        assert [e.text for e in inbox.entries] == TEXTS


async def test_lists_entries_with_source_task_and_suggestion(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        inbox = await open_inbox(pilot)
        assert [e.text for e in inbox.entries] == TEXTS
        assert inbox.table.has_focus
        assert str(inbox.table.border_title) == "Inbox 3"
        row = [str(c) for c in inbox.table.get_row_at(0)]
        assert row[1:] == ["Use pnpm for the web app", "https://ex.co…", "t1"]
        await wait_for(pilot, lambda: "me.md" in str(inbox.note.visual), what="the suggestion")
        await pilot.press("j")
        assert inbox.highlighted is not None and inbox.highlighted.text == "Prefers dark mode"
        assert not app.notices


async def test_accept_moves_the_entry_to_the_suggested_file(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        inbox = await open_inbox(pilot)
        before = len(commits(repo))
        await pilot.press("a")
        await settle(pilot)
        assert "Use pnpm for the web app" in (repo / "me.md").read_text()
        assert "Use pnpm" not in inbox_text(repo)
        assert len(commits(repo)) == before + 1
        assert [e.text for e in inbox.entries] == TEXTS[1:]
        assert str(inbox.table.border_title) == "Inbox 2"


async def test_move_to_a_file_picked_in_the_fuzzy_picker(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        inbox = await open_inbox(pilot)
        await pilot.press("j", "j", "m")
        await wait_for(pilot, lambda: isinstance(app.screen, FilePicker), what="the picker")
        picker = app.screen
        assert isinstance(picker, FilePicker)
        assert "inbox.md" not in picker.shown and "notes/db/active_users.sql" not in picker.shown
        await pilot.press(*"wsbil")
        assert picker.shown == ["workspaces/billing.md"]
        await pilot.press("enter")
        await settle(pilot)
        assert "Billing deploys on Fridays" in (repo / "workspaces" / "billing.md").read_text()
        assert "Billing deploys" not in inbox_text(repo)
        assert [e.text for e in inbox.entries] == TEXTS[:2]


async def test_escape_in_the_picker_changes_nothing(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot)
        before = commits(repo)
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, FilePicker), what="the picker")
        await pilot.press("escape")
        await settle(pilot)
        assert commits(repo) == before


async def test_edit_then_accept(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot)
        await pilot.press("j", "e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditText), what="the edit box")
        await pilot.press("end", "space", *"everywhere", "enter")
        await settle(pilot)
        assert "Prefers dark mode everywhere" in (repo / "me.md").read_text()
        assert "Prefers dark mode" not in inbox_text(repo)


async def test_discard_removes_the_entry(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        inbox = await open_inbox(pilot)
        await pilot.press("d")
        await settle(pilot)
        assert "Use pnpm" not in inbox_text(repo)
        assert "Use pnpm" not in (repo / "me.md").read_text()
        assert commits(repo)[0].startswith("Discard")
        assert [e.text for e in inbox.entries] == TEXTS[1:]


async def test_bulk_accept_of_selected_entries_is_one_commit(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        inbox = await open_inbox(pilot)
        before = len(commits(repo))
        await pilot.press("space", "space")  # selects the first two, the cursor moves on
        assert [e.text for e in inbox.selected] == TEXTS[:2]
        assert "2 selected" in str(inbox.table.border_title)
        await pilot.press("a")
        await settle(pilot)
        assert len(commits(repo)) == before + 1
        me = (repo / "me.md").read_text()
        assert "Use pnpm for the web app" in me and "Prefers dark mode" in me
        assert [e.text for e in inbox.entries] == TEXTS[2:]
        assert inbox.selected == []


async def test_bulk_discard_is_one_commit(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        inbox = await open_inbox(pilot)
        before = len(commits(repo))
        await pilot.press("j", "space", "space", "d")
        await settle(pilot)
        assert len(commits(repo)) == before + 1
        assert [e.text for e in inbox.entries] == TEXTS[:1]


async def test_undo_reverts_the_last_triage(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        inbox = await open_inbox(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert "Use pnpm" in (repo / "me.md").read_text()
        await pilot.press("u")
        await settle(pilot)
        assert commits(repo)[0].startswith("Undo")
        assert "Use pnpm" not in (repo / "me.md").read_text()
        assert [e.text for e in inbox.entries] == TEXTS
        await pilot.press("u")  # nothing left to undo in this session
        await settle(pilot)
        assert app.notices[-1] == "No triage to undo in this session"


async def test_empty_inbox_says_so(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root, {**EXAMPLE_FILES, "inbox.md": "# Inbox\n\n"})
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        inbox = await open_inbox(pilot)
        assert inbox.entries == []
        assert str(inbox.note.visual) == EMPTY
        assert str(inbox.table.border_title) == "Inbox 0"
        before = commits(root)
        await pilot.press("a", "d")
        await settle(pilot)
        assert commits(root) == before


async def test_markup_in_an_entry_is_shown_as_written(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root, {**EXAMPLE_FILES, "inbox.md": "# Inbox\n\n- Use [bold]x[/] and [/] [by: agent; source: [red]s]\n"})
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        inbox = await open_inbox(pilot)
        assert str(inbox.table.get_row_at(0)[1]).startswith("Use [bold]x[/] and [/]")


def test_fuzzy_match() -> None:
    assert fuzzy_match("wsbil", "workspaces/billing.md")
    assert fuzzy_match("", "me.md")
    assert not fuzzy_match("zz", "me.md")


async def test_edit_then_accept_names_what_was_redacted(repo: Path) -> None:
    """The notice said only "Edited and accepted" while a token was taken out of the text."""
    token = "ghp_" + "A1b2C3d4" * 4 + "Zz9y"
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot)
        await pilot.press("j", "e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditText), what="the edit box")
        await pilot.press("end", *f" with token {token}", "enter")
        await settle(pilot)
        assert token not in (repo / "me.md").read_text()
        said = [n for n in app.notices if n.startswith("Edited and accepted")]
        assert len(said) == 1 and "redacted: github-token" in said[0], app.notices


async def test_accept_acts_only_on_the_text_shown(repo: Path) -> None:
    """Another process discards the highlighted line: `a` must not accept the line that moved into its ref."""
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        inbox = await open_inbox(pilot)
        shown = inbox.highlighted
        assert shown is not None and shown.text == TEXTS[0]
        MemoryStore.open(repo, plain_settings()).discard(shown.ref)  # outside the app, before the key
        before = len(commits(repo))
        await pilot.press("a")
        await settle(pilot)
        assert TEXTS[1] not in (repo / "me.md").read_text()  # the line now at that ref stays in the inbox
        assert len(commits(repo)) == before
        assert any("changed since you saw it" in n for n in app.notices)


async def test_the_next_entry_can_be_triaged_while_the_last_write_is_still_returning(repo: Path) -> None:
    """The watcher shows the inbox a write left before the write's call returns (CI saw `e` refused then):
    a key on the next entry must act, one on the entry being saved must wait with a notice."""
    import asyncio

    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        inbox = await open_inbox(pilot)
        assert app.repo is not None
        real_accept = app.repo.accept
        release = asyncio.Event()

        async def accept_then_hold(*args: Any, **kwargs: Any) -> Any:
            result = await real_accept(*args, **kwargs)  # written and committed: only the return is held
            await release.wait()
            return result

        app.repo.accept = accept_then_hold  # type: ignore[method-assign]
        before = len(commits(repo))
        await pilot.press("a")
        await wait_for(pilot, lambda: len(commits(repo)) == before + 1, what="the accept's commit")
        await pilot.press("a")  # the same entry again, its write not returned: refused with a notice
        assert app.notices[-1] == "Still saving the last change"
        inbox.load_inbox()  # what the watcher does when inbox.md changes
        await wait_for(pilot, lambda: [e.text for e in inbox.entries] == TEXTS[1:], what="the inbox read again")
        await pilot.press("d")  # the next entry: discarded at once
        await wait_for(pilot, lambda: len(commits(repo)) == before + 2, what="the discard's commit")
        assert commits(repo)[0] == f"Discard: {TEXTS[1]}"
        release.set()
        await settle(pilot)
        assert [e.text for e in inbox.entries] == TEXTS[2:]
        await pilot.press("u")  # the accept returned after the discard: `u` still undoes the last key's write
        await settle(pilot)
        assert commits(repo)[0] == f"Undo: Discard: {TEXTS[1]}"


async def test_undo_pressed_while_the_write_is_saving_undoes_that_write(repo: Path) -> None:
    """`d` then `u` at once: the undo waits for the discard and reverts it, not an earlier triage."""
    import asyncio

    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot)
        assert app.repo is not None
        real_discard = app.repo.discard
        release = asyncio.Event()

        async def discard_after_release(*args: Any, **kwargs: Any) -> Any:
            await release.wait()
            return await real_discard(*args, **kwargs)

        app.repo.discard = discard_after_release  # type: ignore[method-assign]
        before = len(commits(repo))
        await pilot.press("d", "u")
        await pilot.pause()
        assert len(commits(repo)) == before  # the undo waits; it never reverts a commit made before
        assert "No triage to undo in this session" not in app.notices
        release.set()
        await wait_for(pilot, lambda: len(commits(repo)) == before + 2, what="the discard and its undo")
        assert commits(repo)[:2] == [f"Undo: Discard: {TEXTS[0]}", f"Discard: {TEXTS[0]}"]
        assert TEXTS[0] in inbox_text(repo)
