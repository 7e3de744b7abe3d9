"""SVG snapshot of the Health pane at 80x24 (pytest-textual-snapshot).

Deterministic like the Folder pane's: a fixed-time commit in the isolated
HOME (shown as ``~/memory``), no watcher, no clock. The repo has a broken
link, an orphan file, malformed metadata and a forget since the (never
made) compaction, so OK, WARN and the fix keys all show.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers.tui_helpers import EXAMPLE_FILES, build_repo, fixed_time_git_env, settle
from textual.pilot import Pilot

from memrepo.tui.app import MemrepoApp
from memrepo.tui.panes import PANES, HealthPane

SIZE = (80, 24)


def test_health_pane_rows(isolated_home: Path, snap_compare) -> None:
    """Rows coloured by status with their fix keys; the border title counts WARN and FAIL."""
    root = isolated_home / "memory"
    files = {
        **EXAMPLE_FILES,
        "lessons.md": EXAMPLE_FILES["lessons.md"] + "- See [[topics/gone]] [by: robot]\n",
        "topics/lonely.md": "# Lonely\n\n- Nobody links here [by: user]\n",
    }
    build_repo(root, files)
    subprocess.run(
        ["git", "commit", "-q", "--allow-empty", "-m", "Forget: an old fact\n\nOrigin: cli"],
        cwd=root,
        env=fixed_time_git_env(),
        check=True,
    )
    app = MemrepoApp(root, watch=False)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press(str(PANES.index(HealthPane) + 1))
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
