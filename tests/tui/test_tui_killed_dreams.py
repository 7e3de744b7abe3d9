"""A killed dream in the app (issue 17 item 6): Health's ``x`` cleans up what it left; Dreams' ``d`` rejects its record.

The dream is killed for real (SIGKILL while it commits its review branch),
leaving a temporary worktree, its registration, a half-made branch and a
record stuck at ``running``.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from helpers.dream_helpers import kill_a_dream_mid_review
from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import RecordingApp, settle, wait_for

from memrepo.tui.panes import PANES, DreamsPane, HealthPane
from memrepo.tui.widgets.dialogs import Confirm

HEALTH_KEY = str(PANES.index(HealthPane) + 1)
DREAMS_KEY = str(PANES.index(DreamsPane) + 1)


def _left(root: Path) -> list[str]:
    """What is left: temporary worktrees in $TMPDIR, registrations, dream branches."""
    folders = [p.name for p in Path(tempfile.gettempdir()).glob("memrepo-dream-*")]
    listed = subprocess.run(["git", "worktree", "list"], cwd=root, capture_output=True, text=True).stdout
    branches = subprocess.run(["git", "branch", "--list", "dream/*"], cwd=root, capture_output=True, text=True).stdout
    return folders + [line for line in listed.splitlines() if "memrepo-dream-" in line] + branches.split()


def _question(app: RecordingApp) -> str:
    return str(app.screen.query(".dialog-title").first().visual) if isinstance(app.screen, Confirm) else ""


async def test_health_shows_a_killed_dream_and_x_cleans_it_up(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    dream_id = kill_a_dream_mid_review(root)
    assert _left(root)
    app = RecordingApp(root, watch=False, settings=plain_settings())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press(HEALTH_KEY)
        await settle(pilot)
        pane = app.query_one(HealthPane)
        row = next(r for r in pane.rows if r.name == "killed dreams")
        assert row.status.value == "WARN" and row.fix_key == "x" and dream_id in row.reason
        await pilot.press("x")
        await wait_for(pilot, lambda: "Clean up what a killed dream left?" in _question(app), what="the question")
        assert f"dream {dream_id} is marked running" in _question(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: any("a killed dream left" in n for n in app.notices), what="the notice")
        await settle(pilot)
        assert _left(root) == []
        await wait_for(
            pilot,
            lambda: next(r for r in pane.rows if r.name == "killed dreams").status.value == "OK",
            what="the row to turn OK",
        )
        dreams = app.query_one(DreamsPane)
        await wait_for(pilot, lambda: [r.status for r in dreams.records] == ["failed"], what="the record marked failed")


async def test_the_dreams_pane_rejects_a_killed_dreams_running_record(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    dream_id = kill_a_dream_mid_review(root)
    app = RecordingApp(root, watch=False, settings=plain_settings())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press(DREAMS_KEY)
        await settle(pilot)
        pane = app.query_one(DreamsPane)
        assert pane.highlighted is not None and pane.highlighted.status == "running"
        # breaker11 B11-10: said killed, as Health says, with the key that cleans it up; not "running" for good
        await wait_for(pilot, lambda: "was killed" in pane.status_text, what="the killed status line")
        assert pane.status_text == f"Dream {dream_id} was killed (its process is gone) · d on it cleans up"
        assert str(pane.table.get_row(dream_id)[1]) == "killed"
        await pilot.press("d")
        await wait_for(pilot, lambda: "its process is gone" in _question(app), what="the reject question")
        await pilot.press("y")
        await wait_for(pilot, lambda: f"Rejected dream {dream_id}" in app.notices, what="the rejection")
        await settle(pilot)
        assert [r.status for r in pane.records] == ["rejected"]
        assert _left(root) == []
