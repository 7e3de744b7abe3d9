"""A signal restores the terminal: ``memrepo`` in a shell in tmux, killed with SIGTERM, SIGHUP or SIGINT.

Before, SIGTERM and SIGHUP (a dropped SSH connection) killed the process at
once: the terminal stayed on the app's screen with the cursor hidden and mouse
reporting on until ``reset``. Each test runs its own tmux server (a unique
``-L`` socket), so they run in parallel.
"""

from __future__ import annotations

import os
import shlex
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.tui_helpers import build_repo
from test_tui_tmux import TERMINAL_RERUN, TMUX, Tmux, app_command

pytestmark = [pytest.mark.skipif(TMUX is None, reason="tmux is not installed"), TERMINAL_RERUN]

PROMPT = "READY$ "


class Shell(Tmux):
    """A bash in its own tmux server (unique socket), 80x24."""

    target = "sh"

    def flags(self) -> dict[str, str]:
        """tmux's view of the terminal modes the program left set."""
        fmt = "alt=#{alternate_on} cursor=#{cursor_flag} mouse=#{mouse_any_flag} sgr=#{mouse_sgr_flag}"
        out = self.run("display-message", "-p", "-t", self.target, fmt).stdout.split()
        return dict(item.split("=", 1) for item in out)

    def type(self, line: str) -> None:
        self.run("send-keys", "-t", self.target, "-l", line)
        self.run("send-keys", "-t", self.target, "Enter")


@pytest.fixture
def shell() -> Iterator[Shell]:
    server = Shell()
    started = server.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "sh", "bash --norc --noprofile")
    assert started.returncode == 0, started.stderr
    server.type(f"PS1={shlex.quote(PROMPT)}")
    try:
        yield server
    finally:
        server.run("kill-server")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=["TERM", "HUP", "INT"])
def test_a_signal_leaves_a_clean_prompt(shell: Shell, isolated_home: Path, signum: signal.Signals) -> None:
    root = isolated_home / "memory"
    build_repo(root)
    pid_file = isolated_home / "app.pid"
    app = app_command(root)
    inner = f"echo $$ > {shlex.quote(str(pid_file))}; exec {app}"
    shell.type(f"clear; sh -c {shlex.quote(inner)}; echo EXIT=$?")
    shell.wait_for(lambda s: "Files 7" in s and "clean" in s, "the app's Folder pane")
    assert shell.flags()["alt"] == "1" and shell.flags()["mouse"] == "1"  # the app set them

    os.kill(int(pid_file.read_text()), signum)

    def exited_to_prompt(s: str) -> bool:  # bash prints its prompt a moment after the exit code
        lines = [line for line in s.splitlines() if line.strip()]
        return f"EXIT={128 + signum}" in s and bool(lines) and lines[-1].rstrip() == PROMPT.rstrip()

    screen = shell.wait_for(exited_to_prompt, "the exit code and then a clean prompt")
    assert "Files 7" not in screen  # the app's screen is gone: back on the main screen
    assert shell.flags() == {"alt": "0", "cursor": "1", "mouse": "0", "sgr": "0"}
    # Bracketed paste is off: a paste reaches cat as typed, without the ESC[200~ markers.
    shell.type("cat -v")
    shell.run("set-buffer", "pasted-text")
    shell.run("paste-buffer", "-p", "-t", "sh")
    shell.run("send-keys", "-t", "sh", "Enter")
    screen = shell.wait_for(lambda s: s.count("pasted-text") >= 2, "the paste echoed by the terminal and cat")
    assert "[200~" not in screen, screen
    shell.run("send-keys", "-t", "sh", "C-d")
