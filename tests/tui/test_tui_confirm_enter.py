"""Enter in a yes/no question: yes for "Dream now?" (nothing is lost by a dream), elsewhere a note naming the
keys, never a silent no-op nor a yes by accident (B26-8; docs/keys.md "Yes/no question")."""

from __future__ import annotations

from pathlib import Path

from helpers.dream_helpers import make_repo
from helpers.tui_helpers import RecordingApp, settle, wait_for
from textual.pilot import Pilot

from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.tui.panes import PANES, DreamsPane
from memrepo.tui.widgets.dialogs import Confirm

SIZE = (80, 24)
KEY = str(PANES.index(DreamsPane) + 1)


async def question(app: RecordingApp, pilot: Pilot, key: str) -> DreamsPane:
    """Open the Dreams pane, press ``key`` and wait for its yes/no question; the pane."""
    await settle(pilot)
    await pilot.press(KEY)
    await settle(pilot)
    await pilot.press(key)
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, Confirm), what="the question")
    return app.main_screen.query_one(DreamsPane)


async def test_enter_answers_yes_to_dream_now(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    make_repo(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        dreams = await question(app, pilot, "n")
        assert "y or enter yes" in str(pilot.app.screen.query_one(".dialog-keys").render())
        await pilot.press("enter")
        # A list read while the dream ran shows its record "running": wait for the list read after it.
        done = lambda: len(dreams.records) == 1 and not dreams.running and dreams.records[0].status != "running"  # noqa: E731
        await wait_for(pilot, done, what="the dream")
        assert dreams.records[0].status == "pending_review"


async def test_enter_in_an_undo_question_names_the_keys_and_does_nothing(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    store = make_repo(root)
    record = Dreamer(store).run()
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        dreams = await question(app, pilot, "d")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Press y for yes or esc for no" in app.notices, what="the note")
        await pilot.pause()
        assert isinstance(pilot.app.screen, Confirm), "Enter closed a question whose yes loses work"
        await pilot.press("escape")
        await settle(pilot)
        assert dreams.records[0].id == record.id and dreams.records[0].status == "pending_review"
