"""``e`` in the Folder pane with an editor that exits non-zero: the app commits nothing (tmux at 80x24, real vim).

Before, the pane committed the file after any exit, so vim's ``:cq`` (quit with an error, git's way
to abort) still gave a commit. Now it follows the edit box's ``ctrl+o`` rule: a failed editor and the
app writes nothing. What vim saved before ``:cq`` stays in the file, as any edit made outside the app,
and the one line says so (docs/architecture.md §8). The hand-edit quiet period is set long here, so a
commit seen during the test could only come from the pane.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import test_tui_tmux as base
from helpers.tui_helpers import build_repo

pytestmark = [
    pytest.mark.skipif(base.TMUX is None, reason="tmux is not installed"),
    pytest.mark.skipif(shutil.which("vim") is None, reason="vim is not installed"),
    pytest.mark.slow,
    base.TERMINAL_RERUN,
]

VIM = "vim -u NONE -N -i NONE -n"  # no vimrc, viminfo or swap file


@pytest.fixture
def tmux() -> Iterator[base.Tmux]:
    server = base.Tmux()  # its own -L socket
    try:
        yield server
    finally:
        server.run("kill-server")


def _log(root: Path) -> list[str]:
    return subprocess.run(["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True).stdout.splitlines()


def _toast(screen: str) -> str:
    """The notices' text on ``screen``, their wrapped lines joined (each after the toast's ``▌``, before the pane's border)."""
    parts = (line.split("▌", 1)[1].rstrip(" │─╮╯") for line in screen.splitlines() if "▌" in line)
    return " ".join(" ".join(part.split()) for part in parts)


@pytest.mark.parametrize("save", [True, False], ids=["saved-then-cq", "cq-only"])
def test_vim_quitting_with_an_error_gets_no_commit_from_the_app(
    tmux: base.Tmux, isolated_home: Path, save: bool
) -> None:
    root = isolated_home / "memory"
    build_repo(root)
    config = isolated_home / "memrepo-test.toml"
    config.write_text("[writes]\ncommit_hand_edits_after = 600\n", encoding="utf-8")
    command = base.app_command(root, f"EDITOR='{VIM}' VISUAL= MEMREPO_CONFIG={config}")
    assert tmux.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "app", command).returncode == 0
    tmux.wait_for(lambda s: "Files 7" in s and "clean" in s, "the Folder pane")
    tmux.keys("j", "j", "j")  # MEMORY.md, inbox.md, lessons.md, me.md
    tmux.wait_for(lambda s: "─ me.md" in s, "me.md")
    tmux.keys("Tab")
    before = _log(root)
    tmux.keys("e")
    tmux.wait_for(lambda s: "Name is Sam" in s and "Files 7" not in s, "vim on the terminal")
    tmux.keys(":%s/Name is Sam/Name is Samuel/", "Enter")
    tmux.wait_for(lambda s: "Name is Samuel" in s, "vim's substitution")
    if save:
        tmux.keys(":w", "Enter")
        tmux.wait_for(lambda s: "written" in s, "vim's save")
    tmux.keys(":cq", "Enter")
    said = "vim exited with 1: the app committed nothing"
    flat = _toast(tmux.wait_for(lambda s: said in _toast(s), "the one line"))
    if save:
        assert "what it saved stays in me.md" in flat
        assert "Name is Samuel" in (root / "me.md").read_text(encoding="utf-8")
    else:
        assert "me.md is unchanged" in flat
        assert "Name is Samuel" not in (root / "me.md").read_text(encoding="utf-8")
    time.sleep(1.0)  # the old pane committed at once after the editor returned
    assert _log(root) == before
    tmux.keys("q")
