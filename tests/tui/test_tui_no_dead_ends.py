"""No dead ends in the app (issue 34 item 3), each driven by Pilot the way a new user met it.

Before: the full-screen inbox entry ignored ``a``/``d``; Enter on a Health row did nothing; the
zoomed diff ignored ``l``; History did not mark commits already undone; at 80 columns the footer
cut key names mid-word (``u Undo tr``); search hits were cut to the width of a fixed dialog; a new
repo's empty Entries box gave no hint; Health showed an empty table, with no word, while it checked.
"""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import EXAMPLE_FILES, RecordingApp, build_repo, settle, wait_for
from textual.widgets import OptionList
from textual.widgets._footer import FooterKey

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.tui.panes import PANES, FolderPane, HealthPane, HistoryPane, InboxPane
from memrepo.tui.widgets.entry_detail import EntryScreen

SIZE = (80, 24)
HEALTH_KEY = str(PANES.index(HealthPane) + 1)


def subjects(root: Path) -> list[str]:
    out = subprocess.run(["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True, check=True).stdout
    return out.splitlines()


@pytest.fixture
def inbox_repo(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    build_repo(root, {**EXAMPLE_FILES, "inbox.md": "# Inbox\n\n"})
    store = MemoryStore.open(root, plain_settings())
    for text in ("Use pnpm for the web app", "Prefers dark mode"):
        store.remember(Candidate(text=text, untrusted=True, source="https://ex.com/p", task="t1"))
    return root


# -- the full-screen inbox entry -------------------------------------------------------------


@pytest.mark.parametrize(("key", "verb"), [("a", "Accept"), ("d", "Discard")])
async def test_the_full_screen_inbox_entry_obeys_a_and_d(inbox_repo: Path, key: str, verb: str) -> None:
    app = RecordingApp(inbox_repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        pane = app.main_screen.query_one(InboxPane)
        await wait_for(pilot, lambda: pane.highlighted is not None, what="the inbox rows")
        text = pane.highlighted.text  # type: ignore[union-attr]
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EntryScreen), what="the full-screen entry")
        assert any(key in b.binding.key.split(",") for b in app.screen.active_bindings.values())
        await pilot.press(key)
        await settle(pilot)
        assert not isinstance(app.screen, EntryScreen)  # back on the list, the entry triaged
        await wait_for(pilot, lambda: subjects(inbox_repo)[0].startswith(verb), what=f"the {verb} commit")
        assert text not in (inbox_repo / "inbox.md").read_text()


# -- Health: Enter, loading, metadata ----------------------------------------------------------


async def test_enter_on_a_health_row_with_a_fix_runs_the_fix(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    many = "".join(f"- Waiting entry {n} [by: agent; added: 2025-01-07]\n" for n in range(25))
    build_repo(root, {**EXAMPLE_FILES, "inbox.md": "# Inbox\n\n" + many})
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(HEALTH_KEY)
        await settle(pilot)
        health = app.main_screen.query_one(HealthPane)
        row = next(n for n, r in enumerate(health.rows) if r.name == "inbox")
        assert health.rows[row].fix_key == "2"
        health.table.move_cursor(row=row)
        await pilot.press("enter")
        await settle(pilot)
        assert app.main_screen.query_one(InboxPane).is_current


async def test_enter_on_a_health_row_without_a_fix_opens_its_whole_reason(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(HEALTH_KEY)
        await settle(pilot)
        health = app.main_screen.query_one(HealthPane)
        row = next(n for n, r in enumerate(health.rows) if r.name == "libgit2")
        health.table.move_cursor(row=row)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is not app.main_screen
        assert health.rows[row].reason in " ".join(str(w.visual) for w in app.screen.query("Static"))
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.main_screen


async def test_health_says_it_is_checking_until_the_rows_come(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memrepo.engine.repo.repo import MemoryRepo

    root = tmp_path / "memory"
    build_repo(root)
    release = asyncio.Event()
    real = MemoryRepo.health

    async def slow_health(self: MemoryRepo, *args: Any, **kwargs: Any) -> Any:
        await release.wait()  # the checks of a large repo: seconds
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(MemoryRepo, "health", slow_health)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(HEALTH_KEY)
        health = app.main_screen.query_one(HealthPane)
        await wait_for(pilot, lambda: "Checking" in health.detail_text, what="the loading text")
        assert health.rows == []
        release.set()
        await settle(pilot)
        assert health.rows and "Checking" not in health.detail_text


async def test_a_hand_edit_that_breaks_a_lines_metadata_is_a_warn(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root)
    me = root / "me.md"
    me.write_text(me.read_text().replace("[by: user; added: 2025-01-02", "by: user; added: 2025-01-02"))
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(HEALTH_KEY)
        await settle(pilot)
        row = next(r for r in app.main_screen.query_one(HealthPane).rows if r.name == "metadata")
        assert row.status.value == "WARN" and "me.md#L3" in row.reason and "no opening [" in row.reason


# -- History ----------------------------------------------------------------------------------


async def test_history_marks_commits_already_undone(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root)
    store = MemoryStore.open(root, plain_settings())
    target = store.remember(Candidate(text="Run ruff in CI", kind="lesson"))
    undo = store.undo(target.commit or "")
    store.remember(Candidate(text="Tabs over spaces", kind="preference"))
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        history = app.main_screen.query_one(HistoryPane)
        rows = {c.id: " ".join(str(cell) for cell in history.table.get_row(c.id)) for c in history.commits}
        assert "undone" in rows[target.commit or ""].casefold()
        assert (undo.commit or "")[:7] in rows[target.commit or ""]
        assert all("undone" not in text.casefold() for cid, text in rows.items() if cid != target.commit)


async def test_the_zoomed_diff_scrolls_sideways_with_h_and_l(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root)
    store = MemoryStore.open(root, plain_settings())
    store.remember(Candidate(text="A long lesson " + "word " * 60, kind="lesson"))
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        history = app.main_screen.query_one(HistoryPane)
        await wait_for(pilot, lambda: "A long lesson" in history.diff_text, what="the diff")
        await pilot.press("z")
        await pilot.pause()
        box = app.screen.maximized
        assert box is not None and box.id == "history-diff"
        await pilot.press("l", "l")
        await pilot.pause()
        assert box.scroll_offset.x > 0
        await pilot.press("h", "h")
        await pilot.pause()
        assert box.scroll_offset.x == 0
        row = history.table.cursor_row
        await pilot.press("j")
        await pilot.pause()
        assert history.table.cursor_row == row  # the zoomed diff has the key, not the hidden list


# -- the footer at 80 columns -------------------------------------------------------------------


@pytest.mark.parametrize("pane_key", ["1", "2", "3", "4", "5", "6"])
async def test_the_80_column_footer_shows_whole_keys_only(inbox_repo: Path, pane_key: str) -> None:
    app = RecordingApp(inbox_repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(pane_key)
        await settle(pilot)
        keys = list(app.screen.query(FooterKey))
        assert keys, "the footer shows no key"
        for key in keys:
            region = key.region
            assert region.width > 0 and region.right <= SIZE[0], (key.description, region)
            drawn = "".join(strip.text for strip in key.render_lines(region.reset_offset))
            assert key.description in drawn, (key.description, drawn)
        descriptions = [k.description for k in keys]
        assert descriptions[:2] == ["Keys", "Quit"]


# -- search hits and empty states ---------------------------------------------------------------


async def test_search_hits_use_the_width_they_have(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root)
    text = "The staging database lives in eu-west-1 and is restored from the nightly snapshot at 02:00 UTC"
    MemoryStore.open(root, plain_settings()).remember(Candidate(text=text, kind="fact"))
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(160, 30)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.press(*"snapshot")
        await wait_for(pilot, lambda: getattr(app.screen, "hits", None), what="the hit")
        options = app.screen.query_one(OptionList)
        await pilot.pause()
        drawn = "\n".join(strip.text for strip in options.render_lines(options.region.reset_offset))
        assert text in drawn
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:  # at 80 columns the hit wraps rather than being cut
        await settle(pilot)
        await pilot.press("slash")
        await pilot.press(*"snapshot")
        await wait_for(pilot, lambda: getattr(app.screen, "hits", None), what="the hit")
        options = app.screen.query_one(OptionList)
        await pilot.pause()
        drawn = " ".join(strip.text.strip() for strip in options.render_lines(options.region.reset_offset))
        assert "nightly snapshot at 02:00 UTC" in " ".join(drawn.split())


async def test_a_new_repos_empty_entries_box_says_what_to_do(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    MemoryStore.open(root, plain_settings())  # the starting layout: files with no entries yet
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        folder = app.main_screen.query_one(FolderPane)
        hint = folder.entries_hint
        assert folder.open_file == "MEMORY.md"  # the first screen: how to pin, what a pin is for
        assert 'memrepo remember --pin "TEXT"' in hint and "P on one of your lines" in hint, hint
        assert "press + here" in hint, hint  # the app's own way to add one (round 22)
        assert "memrepo setup claude-code --write" in hint, hint  # and how to connect an agent, as before
        assert "setup codex --write" in hint, hint  # Codex's too, not Claude Code's alone (breaker30 B30-6)
        folder.show_file("me.md")
        await settle(pilot)
        hint = folder.entries_hint
        assert "memrepo remember" in hint and "setup" in hint and "setup codex --write" in hint, hint
        assert "press +" in hint, hint


async def test_a_long_entry_is_edited_in_a_box_that_shows_all_of_it(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root, {**EXAMPLE_FILES, "inbox.md": "# Inbox\n\n"})
    long = "The release checklist: " + ", ".join(f"step {n} signed off by the owner" for n in range(8))
    MemoryStore.open(root, plain_settings()).remember(Candidate(text=long, untrusted=True, task="t1"))
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("e")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "EditText", what="the edit box")
        box = app.screen.query_one("#edit-text")
        await pilot.pause()
        assert box.region.height >= 4  # the whole text, wrapped over lines, not one line scrolled sideways
        drawn = " ".join(strip.text.strip() for strip in box.render_lines(box.region.reset_offset))
        assert "step 7 signed off by the owner" in " ".join(drawn.split())
        await pilot.press(*" and archived", "enter")  # the cursor starts at the end
        await settle(pilot)
        assert long + " and archived" in (root / "me.md").read_text()
