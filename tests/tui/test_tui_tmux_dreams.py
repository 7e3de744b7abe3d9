"""Dreams in a real terminal: ``n`` runs a dream with the ``rules`` provider on a repo with
duplicates, the review diff is read on screen, ``a`` accepts it (tmux at 80x24)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import test_tui_tmux as base
from helpers.dream_helpers import make_repo

from memrepo.tui.panes import PANES, DreamsPane

pytestmark = [
    pytest.mark.skipif(base.TMUX is None, reason="tmux is not installed"),
    pytest.mark.slow,
    base.TERMINAL_RERUN,
]


@pytest.fixture
def tmux() -> Iterator[base.Tmux]:
    server = base.Tmux()
    try:
        yield server
    finally:
        server.run("kill-server")


def _log(root: Path) -> list[str]:
    return subprocess.run(
        ["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.splitlines()


def test_dream_now_read_the_diff_and_accept(tmux: base.Tmux, isolated_home: Path) -> None:
    root = isolated_home / "memory"
    make_repo(root)
    command = base.app_command(root)
    assert tmux.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "app", command).returncode == 0
    tmux.wait_for(lambda s: "Files" in s and "clean" in s, "the app")
    tmux.keys(str(PANES.index(DreamsPane) + 1))
    tmux.wait_for(lambda s: "Dreams 0" in s and "No dreams yet" in s, "the Dreams pane")
    tmux.keys("n")
    tmux.wait_for(lambda s: "Dream now? Dreams run by rules, offline: no tokens used" in s, "the question")
    tmux.keys("y")
    screen = tmux.wait_for(lambda s: "pending review" in s and "Operations 2" in s, "the dream's result")
    assert "1 auto · 1 review · 0 rejected" in screen
    assert _log(root)[0].startswith("Dream ") and _log(root)[0].endswith(": 1 change")
    tmux.keys("Tab", "Tab")  # past the operations, into the detail and diff box
    tmux.wait_for(lambda s: "╭─ Dream " in s, "the detail box")

    tmux.keys("End")
    # The review diff: both duplicates removed, the kept line added. The result toast covers the
    # added line for its 5 s; the app repaints when it goes (a box scrolled under a toast used to
    # keep the toast's picture on screen), so the whole line shows after it.
    screen = tmux.wait_for(lambda s: "+- Always run the full test suite before pushing code" in s, "the diff's end")
    assert "-- Always run the full test suite before pushing [by: user]" in screen
    assert "-- Always run the full test suite before pushing code [by: user]" in screen
    tmux.keys("a")
    tmux.wait_for(lambda s: "Accept all 1 review change" in s and "y yes" in s, "the accept question")
    tmux.keys("y")
    deadline = time.monotonic() + 60  # hang guard
    while not _log(root)[0].startswith("Accept dream"):
        assert time.monotonic() < deadline, f"no merge commit; the screen was:\n{tmux.screen()}"
        time.sleep(0.05)
    tmux.wait_for(lambda s: "accepted" in s, "the accepted status")
    lessons = (root / "lessons.md").read_text()
    assert "before pushing [by: user]" not in lessons and "before pushing code [by: user; added:" in lessons
    tmux.keys("q")


def test_choose_two_of_three_review_operations_and_accept_them(tmux: base.Tmux, isolated_home: Path) -> None:
    """space on the first and third review operation, a, y: one merge of those two; the second stays undone."""
    from helpers.dream_helpers import alias, run_with

    root = isolated_home / "memory"
    store = make_repo(root)

    def answer(din):
        return {
            "operations": [
                {"op": "edit", "line": alias(din, "Never force-push main"), "text": "Never force-push any branch"},
                {"op": "delete", "line": alias(din, "Always run the full test suite before pushing")},
                {"op": "move", "line": alias(din, "Name is Sam"), "path": "people/sam.md"},
            ]
        }

    record = run_with(store, answer)
    assert record.counts["review"] == 3
    command = base.app_command(root)
    assert tmux.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "app", command).returncode == 0
    tmux.wait_for(lambda s: "Files" in s and "clean" in s, "the app")
    tmux.keys(str(PANES.index(DreamsPane) + 1))
    tmux.wait_for(lambda s: "Operations 3" in s and "me.md:3" in s, "the operations at their lines")
    tmux.keys("Tab", "Space", "j", "Space")
    tmux.wait_for(lambda s: "2 of 3 chosen" in s, "two operations chosen")
    tmux.keys("a")
    tmux.wait_for(lambda s: "Accept 2 of the 3 review changes" in s and "y yes" in s, "the accept question")
    tmux.keys("y")
    deadline = time.monotonic() + 60  # hang guard
    while not _log(root)[0].startswith("Accept dream"):
        assert time.monotonic() < deadline, f"no merge commit; the screen was:\n{tmux.screen()}"
        time.sleep(0.05)
    assert _log(root)[0] == f"Accept dream {record.id}: 2 of 3 changes"
    tmux.wait_for(lambda s: "accepted" in s, "the accepted status")
    lessons = (root / "lessons.md").read_text()
    assert "Never force-push any branch" in lessons
    assert "- Always run the full test suite before pushing [by: user]" in lessons
    assert (root / "people" / "sam.md").is_file()
    tmux.keys("q")
