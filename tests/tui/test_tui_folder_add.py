"""``+`` in Files: a line of the user's own, typed in a box, remembered where the open file says (tui/panes/folderwrites.py).

A new user's first ten minutes (round 22): the app had no way to add a memory but ``e`` (the whole file in
$EDITOR); the footer, the help and the palette offered none. Now ``+`` opens the edit box; ``enter`` remembers the
line ``by: user`` through the write transaction, one commit: pinned when MEMORY.md is open, a lesson in lessons.md,
the workspace's in a workspace file, else global (me.md). ``esc`` writes nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import git
from helpers.tui_helpers import EXAMPLE_FILES, RecordingApp, build_repo, settle, wait_for

from memrepo.tui.panes import FolderPane
from memrepo.tui.panes.folderwrites import placed
from memrepo.tui.widgets.dialogs import EditText

TEXT = "Keeps a spare laptop charger in the blue bag"


async def _add(root: Path, open_file: str, keys: list[str]) -> RecordingApp:
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = app.main_screen.query_one(FolderPane)
        pane.show_file(open_file)
        await settle(pilot)
        await pilot.press("plus")
        await wait_for(pilot, lambda: isinstance(app.screen, EditText), what="the edit box")
        await pilot.press(*keys)
        await settle(pilot)
    return app


@pytest.mark.parametrize(
    ("open_file", "lands", "meta"),
    [
        ("me.md", "me.md", "by: user"),
        ("MEMORY.md", "MEMORY.md", "by: user"),
        ("lessons.md", "lessons.md", "kind: lesson"),
        ("workspaces/billing.md", "workspaces/billing.md", "by: user"),
    ],
)
async def test_plus_remembers_a_typed_line_where_the_open_file_says(
    isolated_home: Path, open_file: str, lands: str, meta: str
) -> None:
    root = isolated_home / "memory"
    build_repo(root, dict(EXAMPLE_FILES))
    before = git(root, "rev-parse", "HEAD").strip()
    app = await _add(root, open_file, [*TEXT, "enter"])
    line = next(x for x in (root / lands).read_text(encoding="utf-8").splitlines() if TEXT in x)
    assert meta in line and "by: user" in line, line
    assert git(root, "rev-list", "--count", f"{before}..HEAD").strip() == "1"  # one commit
    assert git(root, "status", "--porcelain").strip() == ""
    assert any(n.startswith("Remembered: repo:" + lands) for n in app.notices), app.notices


async def test_escape_writes_nothing(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    build_repo(root, dict(EXAMPLE_FILES))
    before = git(root, "rev-parse", "HEAD").strip()
    await _add(root, "me.md", [*"Half typed", "escape"])
    assert git(root, "rev-parse", "HEAD").strip() == before
    assert "Half typed" not in (root / "me.md").read_text(encoding="utf-8")


def test_where_a_line_goes_for_each_open_file() -> None:
    assert placed("MEMORY.md", [])[0] == {"pin": True}
    assert placed("lessons.md", [])[0] == {"kind": "lesson"}
    assert placed("me.md", [])[0] == {} and placed(None, [])[0] == {}
    assert placed("notes/db/schema.md", [])[0] == {}  # a topic file: global, as memrepo remember files it
    assert placed("workspaces/ws-9f8e7d6c.md", [])[0] == {"scope": "workspace", "workspace": "ws-9f8e7d6c"}
