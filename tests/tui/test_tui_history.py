"""The History pane driven by Pilot at 80x24: the log, a commit's diff, undo with a question."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import RecordingApp, build_repo, settle, wait_for

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.tui.panes import HistoryPane
from memrepo.tui.panes.history import diff_content
from memrepo.tui.widgets.dialogs import Confirm

SIZE = (80, 24)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    build_repo(root)
    store = MemoryStore.open(root, plain_settings())
    store.remember(Candidate(text="Run ruff in CI", kind="lesson"))
    store.remember(Candidate(text="Use pnpm for the web app", untrusted=True))
    return root


def git_log(root: Path) -> list[str]:
    out = subprocess.run(["git", "log", "--format=%H %s"], cwd=root, capture_output=True, text=True, check=True).stdout
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
        assert str(history.table.border_title) == "Log 3"


async def test_new_commits_show_at_the_top_and_the_newest_stays_highlighted(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        history = await open_history(pilot)
        await pilot.press("j")  # an older commit stays highlighted across a reload...
        older = history.highlighted
        store = MemoryStore.open(repo, plain_settings())
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


async def test_the_diff_follows_the_cursor_and_enter_fills_the_screen(repo: Path) -> None:
    """No key to show a diff: the highlighted commit's shows; the list keys keep moving the list."""
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        history = await open_history(pilot)
        await wait_for(pilot, lambda: "+- Use pnpm for the web app" in history.diff_text, what="the newest diff")
        newest = history.diff_text
        await pilot.press("j")
        await wait_for(pilot, lambda: history.diff_text != newest, what="the next commit's diff")
        assert history.table.cursor_row == 1 and history.table.has_focus
        await pilot.press("down", "k")  # arrows and j/k move the list, never the diff
        assert history.table.cursor_row == 1
        await pilot.press("K")
        assert history.table.cursor_row == 1  # J/K scroll the diff instead
        await pilot.press("enter")
        assert app.screen.maximized is not None and app.screen.maximized.id == "history-diff"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.maximized is None and history.table.has_focus, app.focused


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
        await pilot.press("escape")
        await settle(pilot)
        assert git_log(repo) == before


async def test_a_conflicting_undo_is_a_notice_and_changes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root)
    store = MemoryStore.open(root, plain_settings())
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
    styles = {str(content)[s.start : s.end]: s.style for s in content.spans}
    assert styles["-old [red]"] == "$diff-removed" and styles["+new"] == "$diff-added"


async def test_undoing_an_undone_commit_again_is_a_notice_and_changes_nothing(repo: Path) -> None:
    store = MemoryStore.open(repo, plain_settings())
    target = store.log(1)[0]
    undone = store.undo(target.id)
    store.remember(Candidate(text="Tabs over spaces", kind="preference"))
    before = git_log(repo)
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        history = await open_history(pilot)
        assert history.commits[2].id == target.id
        await pilot.press("j", "j", "u")
        # Said before any question: nothing to answer, and no write error for Health.
        await wait_for(pilot, lambda: any("already undone" in n for n in app.notices), what="the notice")
        assert not isinstance(app.screen, Confirm)
        assert any(f"already undone by {(undone.commit or '')[:7]}" in n for n in app.notices)
        assert app.last_write_error is None
        assert git_log(repo) == before


async def test_every_commit_is_reachable_and_counted(tmp_path: Path) -> None:
    """Only the newest 200 of 231 commits were listed and nothing said so; now more load as the cursor nears the end."""
    root = tmp_path / "memory"
    build_repo(root)
    script = 'for i in $(seq 1 230); do git commit -q --allow-empty -m "Empty $i"; done'
    who = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@localhost",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@localhost",
    }
    subprocess.run(["sh", "-c", script], cwd=root, check=True, env={**os.environ, **who})
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        history = await open_history(pilot)
        assert len(history.commits) == 200
        assert history.table.border_title == "Log 200 · more below"
        await pilot.press("G")  # the last listed row: the next page loads
        await wait_for(pilot, lambda: len(history.commits) == 231, what="the older commits")
        assert history.table.border_title == "Log 231"
        await pilot.press("G")
        assert history.highlighted is not None and history.highlighted.summary == "Create memory repo"


async def test_a_hidden_history_reads_the_log_once_shown_not_on_every_write(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Agents' writes move HEAD while another pane is on screen: History reads the log when shown."""
    from memrepo.tui import app as app_module

    # The panes not shown yet read what they show in the background AFTER_START_S (3 s) after the start
    # (tests/tui/test_tui_weight.py): on a loaded machine the three writes below outlasted it, and that read was
    # counted as a read on a write. Not in this test's time.
    monkeypatch.setattr(app_module, "AFTER_START_S", 3600.0)
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        history = pilot.app.main_screen.query_one(HistoryPane)
        assert app.repo is not None and not history.display
        reads: list[int] = []
        real_log = app.repo.log

        async def counted_log(*args: Any, **kwargs: Any) -> Any:
            reads.append(1)
            return await real_log(*args, **kwargs)

        app.repo.log = counted_log  # type: ignore[method-assign]
        store = MemoryStore.open(repo, plain_settings())
        for n in range(3):
            store.remember(Candidate(text=f"Hidden step number {n} runs the smoke tests", kind="lesson"))
            app.refresh_status()  # what a commit seen by the watcher does
            await settle(pilot)
        assert reads == []  # HEAD moved three times, the hidden pane read nothing
        await pilot.press("3")
        await wait_for(pilot, lambda: len(history.commits) == 6, what="the log read once shown")
        assert len(reads) == 1 and history.commits[0].id == head(repo)


async def test_a_commit_of_many_files_shows_its_first_files_and_says_how_many_are_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only what the box shows is made into text (a compaction's commit of every file is tens of MB at 20,000)."""
    import memrepo.tui.panes.history as history_module

    monkeypatch.setattr(history_module, "DIFF_MAX_LINES", 40)
    root = tmp_path / "memory"
    build_repo(root)
    store = MemoryStore.open(root, plain_settings())
    (root / "topics").mkdir(exist_ok=True)
    for i in range(30):
        (root / "topics" / f"t{i:02d}.md").write_text(f"# T{i}\n\n" + "".join(f"- fact {i}.{k}\n" for k in range(8)))
    store.commit_hand_edits()
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        history = await open_history(pilot)
        await wait_for(pilot, lambda: "not shown" in history.diff_text, what="the cut diff")
        shown = history.diff_text.count("diff --git")
        assert 0 < shown < 30
        assert history.diff_text.endswith(f"… {30 - shown:,} more changed files not shown")
