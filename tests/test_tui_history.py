"""The History pane driven by Pilot at 80x24: the log, a commit's diff, undo with a question."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import RecordingApp, build_repo, settle, wait_for

from engine.models import Candidate
from engine.store import MemoryStore
from tui.panes import HistoryPane
from tui.panes.history import diff_content
from tui.widgets.dialogs import Confirm

SIZE = (80, 24)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    build_repo(root)
    store = MemoryStore.open(root)
    store.remember(Candidate(text="Run ruff in CI", kind="lesson"))
    store.remember(Candidate(text="Use pnpm for the web app", untrusted=True))
    return root


def git_log(root: Path) -> list[str]:
    out = subprocess.run(["git", "log", "--format=%H %s"], cwd=root, capture_output=True, text=True,
                         check=True).stdout
    return out.splitlines()


def head(root: Path) -> str:
    return git_log(root)[0].split()[0]


async def open_history(pilot: Any) -> HistoryPane:
    await settle(pilot)
    await pilot.press("3")
    await settle(pilot)
    return pilot.app.main_screen.query_one(HistoryPane)


async def test_lists_commits_newest_first(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        history = await open_history(pilot)
        assert [f"{c.id} {c.summary}" for c in history.commits] == git_log(repo)
        assert history.commits[-1].summary == "Create memory repo"
        assert history.table.has_focus
        row = [str(c) for c in history.table.get_row_at(2)]
        assert row == [history.commits[2].short_id, "2025-01-02 03:04", "import", "Create memory repo"]
        assert str(history.table.border_title) == "History 3"


async def test_new_commits_show_at_the_top_and_the_newest_stays_highlighted(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        history = await open_history(pilot)
        await pilot.press("j")  # an older commit stays highlighted across a reload...
        older = history.highlighted
        store = MemoryStore.open(repo)
        store.remember(Candidate(text="Deploy with the blue green script", kind="lesson"))
        history.reload()
        await wait_for(pilot, lambda: len(history.commits) == 4, what="the new commit")
        assert history.highlighted == older
        await pilot.press("k", "k")  # ...and the newest follows HEAD
        for n in range(5):
            store.remember(Candidate(text=f"Release step number {n} runs the smoke tests", kind="lesson"))
        history.reload()
        await wait_for(pilot, lambda: len(history.commits) == 9, what="five more commits")
        await settle(pilot)
        assert history.highlighted is not None and history.highlighted.id == head(repo)
        assert history.table.cursor_row == 0 and history.table.scroll_y == 0


async def test_enter_shows_the_diff_with_the_added_line(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        history = await open_history(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert "+- Use pnpm for the web app" in history.diff_text
        assert app.screen.focused is not None and app.screen.focused.id == "history-diff"
        await pilot.press("escape")
        assert history.table.has_focus


async def test_undo_after_yes_reverts_in_a_new_commit(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        history = await open_history(pilot)
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        await pilot.press("y")
        await settle(pilot)
        assert git_log(repo)[0].split(" ", 1)[1].startswith("Undo: ")
        assert "Use pnpm" not in (repo / "inbox.md").read_text()
        await wait_for(pilot, lambda: len(history.commits) == 4, what="the log to follow HEAD")
        assert history.commits[0].summary.startswith("Undo: ")


async def test_undo_answered_no_changes_nothing(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await open_history(pilot)
        before = git_log(repo)
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        await pilot.press("n")
        await settle(pilot)
        assert git_log(repo) == before


async def test_a_conflicting_undo_is_a_notice_and_changes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root)
    store = MemoryStore.open(root)
    store.remember(Candidate(text="Deploy with make deploy", subject="deploy", kind="rule"))
    store.remember(Candidate(text="Deploy with the blue-green script", subject="deploy", kind="rule"))
    before, lessons = git_log(root), (root / "lessons.md").read_bytes()
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await open_history(pilot)
        await pilot.press("j", "u")  # the first of the two
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        await pilot.press("y")
        await settle(pilot)
        assert any("conflict" in n for n in app.notices)
        assert git_log(root) == before and (root / "lessons.md").read_bytes() == lessons


def test_diff_lines_are_coloured_by_kind() -> None:
    content = diff_content("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old [red]\n+new\n")
    styles = {str(content)[s.start:s.end]: s.style for s in content.spans}
    assert styles["-old [red]"] == "$diff-removed" and styles["+new"] == "$diff-added"


async def test_undoing_an_undone_commit_again_is_a_notice_and_changes_nothing(repo: Path) -> None:
    store = MemoryStore.open(repo)
    target = store.log(1)[0]
    undone = store.undo(target.id)
    store.remember(Candidate(text="Tabs over spaces", kind="preference"))
    before = git_log(repo)
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        history = await open_history(pilot)
        assert history.commits[2].id == target.id
        await pilot.press("j", "j", "u")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: any("already undone" in n for n in app.notices), what="the notice")
        assert any(f"already undone by {(undone.commit or '')[:7]}" in n for n in app.notices)
        assert git_log(repo) == before
