"""Run an outside command with bounds: input on stdin, a timeout, a cap on what is read back.

The dream ``command`` provider (engine/dreams/providers.py) runs a user-configured
argv. Two things must not escape it: a command that answers without end
(memrepo stops reading past the cap instead of holding it all in memory) and
processes it started (it runs in its own session, so on a timeout or an
oversized answer the whole process group is killed, grandchildren too).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from io import BufferedReader
from typing import cast

STDERR_KEEP = 64 * 1024
"""Bytes of the end of stderr kept for an error message."""


class CommandTimeout(Exception):
    """The command did not finish within the timeout; its process group was killed."""


class CommandTooLarge(Exception):
    """The command wrote more than the cap to stdout; reading stopped and its process group was killed."""


@dataclass(slots=True)
class Finished:
    """A command that exited.

    Attributes:
        returncode: its exit status (negative: killed by that signal).
        stdout: everything it wrote to stdout (at most the cap).
        stderr: the last :data:`STDERR_KEEP` bytes it wrote to stderr.
    """

    returncode: int
    stdout: bytes
    stderr: bytes


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the command's process group (it leads its own session), then reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        proc.kill()
    proc.wait()


def run_bounded(argv: list[str], data: bytes, timeout: float, max_stdout: int) -> Finished:
    """Run ``argv`` with ``data`` on stdin, in a new session, reading at most ``max_stdout`` bytes.

    Args:
        argv: the command and its arguments.
        data: bytes written to its stdin (then stdin is closed).
        timeout: seconds until the command (and its stdout) must be finished.
        max_stdout: the most stdout bytes accepted; one more stops the run.

    Returns:
        Finished: the exit status and output.

    Raises:
        FileNotFoundError, OSError: the command cannot be started.
        CommandTimeout: it ran longer than ``timeout`` (its process group was killed).
        CommandTooLarge: it wrote more than ``max_stdout`` bytes (its process group was killed).
    """
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    # PIPE for all three: none of them is None (the checks say so to the type checker).
    stdin, stdout, stderr = proc.stdin, proc.stdout, proc.stderr
    assert stdin is not None and stdout is not None and stderr is not None
    out = bytearray()
    err = bytearray()
    over = threading.Event()

    def feed() -> None:
        try:
            stdin.write(data)
        except OSError:  # it exited or closed stdin without reading all of it
            pass
        finally:
            with contextlib.suppress(OSError):
                stdin.close()

    def read_out() -> None:
        while chunk := cast(BufferedReader, stdout).read1(65536):
            out.extend(chunk)
            if len(out) > max_stdout:
                del out[max_stdout:]
                over.set()
                return

    def read_err() -> None:
        while chunk := cast(BufferedReader, stderr).read1(65536):
            err.extend(chunk)
            if len(err) > STDERR_KEEP:
                del err[: len(err) - STDERR_KEEP]

    threads = [threading.Thread(target=f, daemon=True) for f in (feed, read_out, read_err)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + timeout
    try:
        threads[1].join(timeout)
        if over.is_set():
            _kill_group(proc)
            raise CommandTooLarge(max_stdout)
        if threads[1].is_alive():
            _kill_group(proc)
            raise CommandTimeout(timeout)
        try:
            proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            raise CommandTimeout(timeout) from None
        threads[2].join(min(1.0, max(0.1, deadline - time.monotonic())))  # stderr is only for messages
    finally:
        for thread, pipe in zip(threads, (stdin, stdout, stderr), strict=True):
            thread.join(1.0)
            if not thread.is_alive():  # closing a pipe another thread reads from would block
                with contextlib.suppress(OSError):
                    pipe.close()
    return Finished(proc.returncode, bytes(out), bytes(err))
