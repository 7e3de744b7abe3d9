"""The search screen's status line wraps at 80 columns instead of being cut (a new user's first minutes, round 23).

While the vectors are built the status reads "enter opens · esc closes · 1 hit · 40 ms · lexical: semantic
vectors are being built"; at 80 columns it was cut after "semantic vectors ar", so the reason recall was lexical
could not be read. It now wraps onto a second line, the keys still first.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.tui_helpers import EXAMPLE_FILES, RecordingApp, build_repo, settle, wait_for
from textual.widgets import Label

from memrepo.engine.models import RecallMode
from memrepo.tui.search import SearchScreen

NOTE = "semantic vectors are being built"


async def test_a_long_status_wraps_inside_the_box(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "memory"
    build_repo(root, dict(EXAMPLE_FILES))
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)

        async def building() -> RecallMode:
            return RecallMode(mode="lexical", note=NOTE)

        monkeypatch.setattr(app.repo, "recall_mode", building)
        await pilot.press("slash")
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        await pilot.press(*"staging")
        await wait_for(pilot, lambda: NOTE in str(screen.query_one("#search-status", Label).visual), what="the status")
        await settle(pilot)
        status = screen.query_one("#search-status", Label)
        text = str(status.visual)
        assert text.startswith("enter opens · esc closes · ") and text.endswith(f"lexical: {NOTE}")
        assert len(text) > status.content_region.width  # longer than one line of the box
        assert status.content_region.height == 2  # so it takes two
        assert status.region.right <= screen.query_one(".dialog").content_region.right  # inside the box
        rows = [status.render_line(y).text for y in range(status.content_region.height)]
        assert "".join(rows).replace(" ", "") == text.replace(" ", "")  # every character shown
