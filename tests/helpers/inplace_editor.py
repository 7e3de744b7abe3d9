"""An editor saving in place (vim ``backupcopy=yes``, nano) as a child process, for the old-inode salvage tests.

It opens the file for writing and reads it, touches ``opened``, waits for ``go``, then writes its buffer with one
new line before ``- <anchor>`` into the descriptor it opened: into the old inode when memrepo renamed a new file
over the name meanwhile.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

USERNEW = "USERNEW line typed in the editor"
"""The line the editor adds."""

_SCRIPT = """
import os, sys, time
path, opened, go, anchor, new = sys.argv[1:6]
fd = os.open(path, os.O_WRONLY)
buf = open(path).read()
open(opened, "w").close()
deadline = time.monotonic() + 120
while not os.path.exists(go) and time.monotonic() < deadline:
    time.sleep(0.05)
buf = buf.replace("- " + anchor, "- " + new + "\\n- " + anchor, 1)
os.ftruncate(fd, 0)
os.write(fd, buf.encode())
os.close(fd)
"""


def wait_for(check: Callable[[], bool], what: str, limit: float = 90.0) -> None:
    """Wait until ``check()`` holds (a generous deadline: CI runs on two loaded cores)."""
    deadline = time.monotonic() + limit
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def save_around(path: Path, anchor: str, scratch: Path, between: Callable[[], object]) -> None:
    """Open ``path`` in the editor, run ``between`` (memrepo replacing the file), then let the editor save."""
    opened, go = scratch / "editor-opened", scratch / "editor-go"
    editor = subprocess.Popen([sys.executable, "-c", _SCRIPT, str(path), str(opened), str(go), anchor, USERNEW])
    try:
        wait_for(opened.exists, "the editor to open the file")
        between()
        go.touch()
        assert editor.wait(timeout=90) == 0
    finally:
        if editor.poll() is None:
            editor.kill()
