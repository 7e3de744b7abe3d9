"""A remember handed to a write server that went silent, then busy, says the server may still write it (B27-8).

breaker27 stopped the write server (SIGSTOP) mid-batch for 20 s: a client whose line the server had already read
left it after ``ALIVE_WAIT_S`` of silence, wrote itself, met the write lock the stopped server held and said
"memory repo is busy ... retry" (exit 1); once continued, the server wrote the line. The client now says so.
Here a server that reads the line and answers nothing stands for the stopped one, and another process holds the
write lock as the stopped server did.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

from test_remember_busy_already_written import HOLD
from test_write_server_faults import _fake_server, remember, repo, runtime, socket_of

__all__ = ["repo", "runtime"]  # the fixtures


def test_a_busy_lock_after_a_silent_server_says_the_line_may_still_be_written(runtime, repo, tmp_path: Path) -> None:
    ready = tmp_path / "held"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(repo / ".git"), str(ready)])
    stop = threading.Event()
    deadline = time.monotonic() + 60  # a hang guard
    while not ready.exists():
        assert holder.poll() is None and time.monotonic() < deadline, "the other writer never took the lock"
        time.sleep(0.05)
    thread = _fake_server(socket_of(repo), None, stop)  # reads the line, answers nothing
    try:
        _out, err, code, _took = remember(repo, "A line handed to a server that stopped")
    finally:
        stop.set()
        thread.join(60)
        holder.kill()
        holder.wait(timeout=60)
    assert code == 1, err
    assert "memory repo is busy" in err and "it may still write the line" in err, err


def test_a_busy_lock_with_no_server_asked_says_retry_alone(runtime, repo, tmp_path: Path) -> None:
    ready = tmp_path / "held"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(repo / ".git"), str(ready)])
    deadline = time.monotonic() + 60  # a hang guard
    while not ready.exists():
        assert holder.poll() is None and time.monotonic() < deadline, "the other writer never took the lock"
        time.sleep(0.05)
    try:
        _out, err, code, _took = remember(repo, "A line no server was asked for")
    finally:
        holder.kill()
        holder.wait(timeout=60)
    assert code == 1 and "memory repo is busy" in err and "may still write" not in err, err
