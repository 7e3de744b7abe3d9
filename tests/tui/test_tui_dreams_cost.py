"""The Dreams pane says what a dream costs (breaker8 B8-11): the default dream runs by rules, offline, and uses no
tokens; only a model's dream shows the day's token budget. The empty Inbox says what lands there."""

from __future__ import annotations

from pathlib import Path

from helpers.dream_helpers import make_repo
from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import RecordingApp, settle

from memrepo.engine.config import Settings
from memrepo.tui.panes import PANES, DreamsPane
from memrepo.tui.panes.inbox import EMPTY

KEY = str(PANES.index(DreamsPane) + 1)


async def _status(root: Path, settings: Settings) -> str:
    app = RecordingApp(root, watch=False, settings=settings)
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        await pilot.press(KEY)
        await settle(pilot)
        return app.main_screen.query_one(DreamsPane).status_text


async def test_a_rules_dream_shows_no_budget_and_a_models_does(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    make_repo(root)
    rules = await _status(root, plain_settings())
    assert "no tokens used" in rules and "Budget" not in rules
    model = plain_settings()
    model.dream.provider = "openai"
    said = await _status(root, model)
    assert "Budget left today: 50,000 tokens (openai)" in said


def test_the_empty_inbox_says_what_lands_there() -> None:
    assert "nothing waits for review" in EMPTY and "untrusted content" in EMPTY
