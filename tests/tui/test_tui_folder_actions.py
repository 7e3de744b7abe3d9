"""Folder pane actions (issue 16): ``d`` forgets an entry after a question; hand edits made before the
app started are committed by the quiet timer like those made while it runs."""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers.tui_helpers import EXAMPLE_FILES, RecordingApp, build_repo, settle, wait_for

from memrepo.engine.config import Settings
from memrepo.tui.panes import FolderPane
from memrepo.tui.widgets.dialogs import Confirm

SIZE = (80, 24)


def log(root: Path) -> list[str]:
    return subprocess.run(
        ["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.splitlines()


async def test_d_forgets_the_highlighted_entry_after_a_question(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    build_repo(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.query_one(FolderPane).show_file("lessons.md")
        await settle(pilot)
        await pilot.press("tab", "j")  # the entries, the second: "uv pip is faster than pip"
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        asked = str(app.screen.query(".dialog-title").first().visual)
        assert "uv pip is faster than pip" in asked
        # A forget is a commit: the question says history keeps the text and how to remove it (B20-15).
        assert "git history keeps the text" in asked and "memrepo forget --compact repo:lessons.md#L4" in asked
        assert "looks like a secret" not in asked
        await pilot.press("escape")  # no: nothing changes
        await settle(pilot)
        assert "uv pip is faster" in (root / "lessons.md").read_text() and len(log(root)) == 1
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        await pilot.press("y")
        await settle(pilot)
        text = (root / "lessons.md").read_text()
        assert "uv pip is faster" not in text and "Run ruff before committing" in text
        assert len(log(root)) == 2
        assert any(
            n.startswith("Forgot uv pip is faster than pip") and "git history keeps it until you compact" in n
            for n in app.notices
        )


async def test_forgetting_a_secret_says_it_stays_in_history(isolated_home: Path) -> None:
    """A line that looks like a password: the question leads with it and names forget --compact (B20-15)."""
    root = isolated_home / "memory"
    build_repo(
        root, {**EXAMPLE_FILES, "me.md": "# About me\n\n- The office wifi password is CafeLatte#77 [by: agent]\n"}
    )
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.query_one(FolderPane).show_file("me.md")
        await settle(pilot)
        await pilot.press("tab", "d")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what=f"the question ({app.notices})")
        asked = str(app.screen.query(".dialog-title").first().visual)
        assert "It looks like a secret: a forget leaves it in git history" in asked
        assert "esc, then memrepo forget --compact repo:me.md#L3" in asked and "c in Health" in asked
        await pilot.press("escape")


async def test_hand_edits_waiting_at_start_are_committed_by_the_quiet_timer(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    build_repo(root)
    with (root / "me.md").open("a", encoding="utf-8") as fh:
        fh.write("- Edited while the app was closed [by: user]\n")
    app = RecordingApp(root, settings=Settings.model_validate({"writes": {"commit_hand_edits_after": 0.3}}))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: len(log(root)) == 2, what="the quiet-period commit")
        assert log(root)[0] == "Hand edits"
        await wait_for(pilot, lambda: app.header.state == "clean", what="the clean state")


async def test_shift_p_pins_the_users_entry_into_memory_md_and_again_there_unpins_it(isolated_home: Path) -> None:
    """Breaker14 B14-14: a keyboard-only user pins and unpins without an editor, one commit each."""
    root = isolated_home / "memory"
    build_repo(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.main_screen.query_one(FolderPane)
        pane.show_file("lessons.md")
        await settle(pilot)
        await pilot.press("tab")  # the entries, the first: an agent's "Run ruff before committing"
        await pilot.press("P")
        await settle(pilot)
        assert any("not the user's own line" in n for n in app.notices), app.notices
        assert len(log(root)) == 1
        await pilot.press("j", "P")  # the user's "uv pip is faster than pip"
        await settle(pilot)
        assert log(root)[0] == "Pin: uv pip is faster than pip"
        assert "uv pip is faster" not in (root / "lessons.md").read_text()
        memory = (root / "MEMORY.md").read_text()
        assert "- uv pip is faster than pip [by: user; added: 2025-01-05; kind: insight]\n\n## Index" in memory
        assert [e.text for e in pane.table.entries][:2] == ["Run ruff before committing", "Never force-push main"]
        assert any(n.startswith("Pinned uv pip is faster than pip") for n in app.notices)
        pane.show_file("MEMORY.md")
        await settle(pilot)
        assert [e.text for e in pane.table.entries] == [
            "Answer in English unless asked otherwise",
            "uv pip is faster than pip",
        ]
        pane.table.focus()
        await pilot.press("j", "P")
        await settle(pilot)
        assert log(root)[0] == "Unpin: uv pip is faster than pip"
        assert "uv pip is faster" not in (root / "MEMORY.md").read_text()
        assert [e.text for e in pane.table.entries] == ["Answer in English unless asked otherwise"]
        assert any(n.startswith("Unpinned uv pip is faster than pip: now in lessons.md") for n in app.notices)
        assert (
            "- uv pip is faster than pip [by: user; added: 2025-01-05; kind: insight]"
            in (root / "lessons.md").read_text()
        )  # an insight goes where remember puts one
        assert subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True).stdout == ""
