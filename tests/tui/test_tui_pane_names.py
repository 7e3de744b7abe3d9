"""Each pane has one name: the header's tab, the ``?`` help and docs/keys.md say the same (breaker3 F3).

Before: at 80 columns the tabs read "1 Files ... 3 Log ... 4 Ctx" while ``?`` said "Folder pane", "History
pane", "Context pane", and a wide header said "Folder" and "History": two names per pane.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.tui_helpers import build_repo, settle

from memrepo.tui.app import MemrepoApp
from memrepo.tui.help import HelpScreen
from memrepo.tui.panes import PANES


@pytest.mark.parametrize("width", [80, 160])
async def test_the_tab_and_the_help_name_each_pane_alike(isolated_home: Path, width: int) -> None:
    root = isolated_home / "memory"
    build_repo(root)
    app = MemrepoApp(root, watch=False)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        for number, pane in enumerate(PANES, start=1):
            await pilot.press(str(number))
            await settle(pilot)
            tabs = " ".join(str(app.header.query_one("#header-panes").render()).split())
            assert f"{number} {pane.PANE_TITLE}" in tabs, tabs
            await pilot.press("question_mark")
            await settle(pilot)
            assert isinstance(app.screen, HelpScreen)
            assert app.screen.section_titles[0] == f"{pane.PANE_TITLE} pane"
            await pilot.press("escape")
    keys = (Path(__file__).resolve().parents[2] / "docs" / "keys.md").read_text(encoding="utf-8")
    for number, pane in enumerate(PANES, start=1):
        assert f"| `{number}` | {pane.PANE_TITLE} pane |" in keys
    assert [p.PANE_TITLE for p in PANES] == ["Files", "Inbox", "Log", "Context", "Health", "Dreams"]
