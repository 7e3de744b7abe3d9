"""A read of the open file cancelled by a newer one leaves the screen to the newer read (tui/panes/folder.py).

After ``e`` (the editor) the app read me.md twice in quick succession (the watcher's live read and the read after
the hand-edit commit); the first, cancelled while the context block's rule ran, had already recorded the new text
as shown, so the second returned early ("nothing to redraw") and the screen kept "Name is Sam" with "Name is Samuel"
committed. Found by the tmux editor test failing 8 runs in 10 on a loaded two-core machine.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from helpers.tui_helpers import EXAMPLE_FILES, build_repo, settle, wait_for

from memrepo.engine import block_marks
from memrepo.tui.app import MemrepoApp
from memrepo.tui.panes import FolderPane
from memrepo.tui.panes import folder as folder_module


async def test_a_read_cancelled_in_the_block_rule_does_not_hide_the_newer_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "memory"
    build_repo(root, dict(EXAMPLE_FILES))
    entered, release = threading.Event(), threading.Event()
    calls: list[str] = []

    def gated_marks(path: str, text: str) -> object:
        calls.append(text)
        if "Samuel" in text and len([t for t in calls if "Samuel" in t]) == 1:
            entered.set()
            release.wait(30)  # the first read of the new text stays in the rule until the test lets it go
        return block_marks(path, text)

    app = MemrepoApp(root, watch=False)
    async with app.run_test(size=(120, 24)) as pilot:
        await settle(pilot)
        pane = app.main_screen.query_one(FolderPane)
        pane.show_file("me.md")
        await settle(pilot)
        assert any("Name is Sam " in e.text or e.text.startswith("Name is Sam") for e in pane.table.entries)
        monkeypatch.setattr(folder_module, "block_marks", gated_marks)
        (root / "me.md").write_text(EXAMPLE_FILES["me.md"].replace("Name is Sam", "Name is Samuel"), encoding="utf-8")
        pane.read_file("me.md", keep_position=True)
        await wait_for(pilot, entered.is_set, what="the first read inside the block's rule")
        pane.read_file("me.md", keep_position=True)  # the group is exclusive: this cancels the first
        try:
            await wait_for(
                pilot,
                lambda: any("Samuel" in e.text for e in pane.table.entries),
                timeout=20,
                what="the newer read on screen",
            )
        finally:
            release.set()
        await settle(pilot)
