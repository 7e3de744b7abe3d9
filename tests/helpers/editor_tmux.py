"""A private tmux server for tests that drive a real editor, and a wait for what it does on disk."""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator

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


def wait_until(predicate: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    """Poll ``predicate`` every 50 ms; AssertionError naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
