"""``memrepo watch`` stops on SIGINT and SIGTERM itself (issue 34 item 2).

A command started in the background of a non-interactive shell (``memrepo watch &`` in a script,
a test's job) starts with SIGINT ignored, and Python then installs no KeyboardInterrupt handler:
before, such a watch ignored Ctrl-C and was still running 33 minutes later. A service manager
stops it with SIGTERM, which Python's default handling ends without a word. Now both stop it
cleanly: "stopped", exit 0. Each test waits for the "watching" line (a state), never a time.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod


@pytest.fixture
def watched(tmp_path: Path) -> Path:
    """A memory repo with a confirmed private remote (a bare repo on disk)."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    sync_mod.set_remote(store.root, str(remote), confirmed_private=True)
    return store.root


def _start_watch(repo: Path, ignore_sigint: bool) -> subprocess.Popen[str]:
    script = shutil.which("memrepo", path=str(Path(sys.executable).parent))
    assert script is not None

    def as_a_background_job() -> None:
        if ignore_sigint:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # what `cmd &` in a non-interactive shell does

    return subprocess.Popen(
        [script, "--repo", str(repo), "watch"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_a_background_job,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


@pytest.mark.parametrize(
    ("ignore_sigint", "sig"),
    [
        (True, signal.SIGINT),
        (False, signal.SIGINT),
        (False, signal.SIGTERM),
        (True, signal.SIGTERM),
    ],
    ids=["sigint-in-a-background-job", "sigint", "sigterm", "sigterm-in-a-background-job"],
)
def test_watch_stops_cleanly_on_a_signal(watched: Path, ignore_sigint: bool, sig: signal.Signals) -> None:
    proc = _start_watch(watched, ignore_sigint)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("watching "), first + (proc.stderr.read() if proc.stderr else "")
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "stopped" in out and "Traceback" not in err
