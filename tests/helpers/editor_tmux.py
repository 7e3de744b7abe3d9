"""A private tmux server for tests that drive a real editor, and a wait for what it does on disk."""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]


def tmux_server(prefix: str, *tools: str) -> Iterator[Run]:
    """Yield ``run(*args)`` for ``tmux -L <prefix>-<random> -f /dev/null ARGS``; kill the server after.

    Skips the test when tmux or one of ``tools`` (an editor) is not installed. Use as a fixture's body:
    ``yield from tmux_server("name", "vim")``.
    """
    for tool in ("tmux", *tools):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")
    socket = f"{prefix}-{uuid.uuid4().hex[:12]}"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["tmux", "-L", socket, "-f", "/dev/null", *args], capture_output=True, text=True)

    yield run
    run("kill-server")


def wait_until(predicate: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Poll ``predicate`` every 50 ms; AssertionError naming ``what`` after ``timeout`` seconds (a hang guard, not
    a speed claim: generous, as a loaded machine starts an editor in tmux slowly)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def screen(tmux: Run) -> str:
    """What the editor's pane shows now."""
    return tmux("capture-pane", "-p", "-t", "0").stdout


def start_vim(vim: Run, root: Path, vimrc: str) -> None:
    """Start vim on ``root``/me.md with only ``vimrc`` set; return once its swap file says it read the file."""
    started = vim(
        "new-session", "-d", "-x", "120", "-y", "30", "-c", str(root), f"vim -u NONE -i NONE -c '{vimrc}' me.md"
    )
    assert started.returncode == 0, started.stderr
    wait_until((root / ".me.md.swp").exists, "vim's swap file")


def start_nano(nano: Run, root: Path) -> None:
    """Start nano on ``root``/me.md with no rc files; return once its screen is up."""
    started = nano("new-session", "-d", "-x", "120", "-y", "30", "-c", str(root), "nano --ignorercfiles me.md")
    assert started.returncode == 0, started.stderr
    wait_until(lambda: "^X" in screen(nano), "nano's screen")


def nano_replace_all(nano: Run, old: str, new: str) -> None:
    """Replace every ``old`` with ``new`` in nano's buffer (M-r, then "a" for all); the buffer is not saved."""
    nano("send-keys", "-t", "0", "M-r")  # replace
    wait_until(lambda: "Search (to replace)" in screen(nano), "nano's replace prompt")
    nano("send-keys", "-t", "0", "-l", "--", old)
    nano("send-keys", "-t", "0", "Enter")
    wait_until(lambda: "Replace with" in screen(nano), "nano's replace-with prompt")
    nano("send-keys", "-t", "0", "-l", "--", new)
    nano("send-keys", "-t", "0", "Enter")
    wait_until(lambda: "Replace this instance" in screen(nano), "nano's replace question")
    nano("send-keys", "-t", "0", "a")
