"""``e`` in the Folder pane opens the file in ``$EDITOR`` at the highlighted entry's line: the app
hands the terminal over, takes it back, and commits the edit as a hand edit (tmux at 80x24)."""

from __future__ import annotations

import shlex
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import test_tui_tmux as base
from helpers.tui_helpers import build_repo

pytestmark = [pytest.mark.skipif(base.TMUX is None, reason="tmux is not installed"), base.TERMINAL_RERUN]


@pytest.fixture
def tmux() -> Iterator[base.Tmux]:
    server = base.Tmux()  # its own -L socket
    try:
        yield server
    finally:
        server.run("kill-server")


def test_e_edits_in_the_editor_and_the_edit_is_committed(tmux: base.Tmux, isolated_home: Path) -> None:
    root = isolated_home / "memory"
    build_repo(root)
    seen = isolated_home / "editor-args.txt"
    (isolated_home / "bin").mkdir(exist_ok=True)
    editor = isolated_home / "bin" / "vim"  # named as an editor that takes +LINE (tui/editor.py's list)
    # A stand-in editor: shows a screen of its own, waits for a key, then edits the file.
    editor.write_text(
        "#!/bin/sh\n"
        f'echo "$@" > {shlex.quote(str(seen))}\n'
        'printf "FAKE EDITOR %s\\n" "$1"\n'
        "read answer\n"
        'sed -i "s/Name is Sam/Name is Samuel/" "$2"\n',
        encoding="utf-8",
    )
    editor.chmod(0o755)
    command = base.app_command(root, f"EDITOR={shlex.quote(str(editor))} VISUAL=")
    assert tmux.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "app", command).returncode == 0
    tmux.wait_for(lambda s: "Files 7" in s and "clean" in s, "the Folder pane")
    tmux.keys("j", "j", "j")  # MEMORY.md, inbox.md, lessons.md, me.md
    tmux.wait_for(lambda s: "─ me.md" in s, "me.md")
    tmux.keys("Tab")  # the entries: "Name is Sam" on line 3 is highlighted
    tmux.keys("e")
    tmux.wait_for(lambda s: "FAKE EDITOR +3" in s and "Files 7" not in s, "the editor on the terminal")
    tmux.keys("Enter")
    screen = tmux.wait_for(lambda s: "Name is Samuel" in s and "Files 7" in s, "the app back with the edit")
    assert "Committed the hand edit of me.md" in screen or "clean" in screen
    assert seen.read_text().split() == ["+3", str(root / "me.md")]
    deadline = time.monotonic() + 60  # hang guard
    while True:
        log = subprocess.run(["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True).stdout
        if log.splitlines()[0] == "Hand edits":
            break
        assert time.monotonic() < deadline, f"no hand-edit commit: {log}"
        time.sleep(0.05)
    tmux.wait_for(lambda s: "● clean" in s, "the clean state")
    tmux.keys("q")
