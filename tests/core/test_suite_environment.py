"""The suite passes on any machine (issue 34 item 2): tests/conftest.py clears the git and memrepo
variables it does not set, and kills every child process a test started and left running.

Each outer test runs a probe of this file in a child pytest with the machine's state planted
(variables exported, a child left behind), as a developer's shell or a loaded CI job has it.
Before: ``GIT_AUTHOR_NAME`` exported made tests/core/test_staged_hand_edits.py fail, and a child a
test left running after a ``communicate(timeout=...)`` gave up ran on after the suite.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

PLANTED = {
    "GIT_AUTHOR_NAME": "Someone Else",
    "GIT_AUTHOR_EMAIL": "someone@example.com",
    "GIT_AUTHOR_DATE": "2001-01-01T00:00:00",
    "GIT_COMMITTER_NAME": "Someone Else",
    "GIT_COMMITTER_EMAIL": "someone@example.com",
    "GIT_COMMITTER_DATE": "2001-01-01T00:00:00",
    "GIT_DIR": "/nonexistent/.git",
    "GIT_WORK_TREE": "/nonexistent",
    "GIT_INDEX_FILE": "/nonexistent/index",
    "GIT_CEILING_DIRECTORIES": "/",
    "MEMREPO_REPO": "/nonexistent/memory",
    "MEMREPO_CONFIG": "/nonexistent/config.toml",
    "MEMREPO_GIT_TOKEN": "not-a-token",
    "XDG_RUNTIME_DIR": "/nonexistent/run",
    "XDG_STATE_HOME": "/nonexistent/state",
    "XDG_CONFIG_DIRS": "/nonexistent/xdg",
}
"""Variables a developer's shell may export, each of which changed what a test saw."""

SET_BY_THE_SUITE = {"MEMREPO_WRITE_SERVER", "MEMREPO_SEMANTIC", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"}
"""The git/memrepo/XDG variables tests/conftest.py sets itself (to values of the test's own)."""

PROBING = "SUITE_ENV_PROBE"
"""Set only in the child pytest: the probes below run there and skip in the suite itself."""


def _child_pytest(node: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run one probe of this file in a child pytest (no xdist, no cache) with ``env`` added."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", f"{__file__}::{node}"],
        capture_output=True,
        text=True,
        env={**os.environ, PROBING: "1", **env},
        cwd=Path(__file__).resolve().parents[2],
        timeout=300,
    )


def _probe_only() -> None:
    if PROBING not in os.environ:
        pytest.skip("a probe: runs only in the child pytest its outer test starts")


def test_probe_no_outside_git_memrepo_or_xdg_variable_reaches_a_test(isolated_home: Path) -> None:
    _probe_only()
    leaked = sorted(
        name
        for name in os.environ
        if name.startswith(("GIT_", "MEMREPO_", "XDG_"))
        and name not in SET_BY_THE_SUITE
        and name not in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM")
    )
    assert leaked == []
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "GIT_CONFIG_GLOBAL"):
        assert os.environ[name].startswith(str(isolated_home)), name


def test_the_suite_clears_git_identity_and_memrepo_variables_it_does_not_set() -> None:
    done = _child_pytest("test_probe_no_outside_git_memrepo_or_xdg_variable_reaches_a_test", **PLANTED)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "1 passed" in done.stdout


def test_probe_a_child_left_running_after_a_timeout(tmp_path: Path) -> None:
    _probe_only()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    Path(os.environ["SUITE_ENV_PROBE_PIDFILE"]).write_text(str(child.pid))
    child.communicate(timeout=0.1)  # raises TimeoutExpired: the test fails with its child still running


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie, killed but not yet reaped, counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def test_a_child_a_test_left_running_is_killed_when_the_test_ends(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    done = _child_pytest("test_probe_a_child_left_running_after_a_timeout", SUITE_ENV_PROBE_PIDFILE=str(pidfile))
    assert "TimeoutExpired" in done.stdout, done.stdout[-3000:]  # the probe failed as planted
    pid = int(pidfile.read_text())
    try:
        deadline = time.monotonic() + 60  # a hang guard, not a speed claim
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(pid), "the child the failed test started still runs after its pytest ended"
    finally:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
