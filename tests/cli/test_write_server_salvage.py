"""The write server commits what an editor saved into an old inode on its idle tick, not at the next write
(cli/writeserver.py ``salvage``, docs/architecture.md §3).

An editor that opened me.md before the server's write renamed a new version over it saves into the old inode,
which only the server's process watches. Before, that save waited for the next write: when none came before the
server stopped (its idle time, a signal, a kill), the user's save was gone with the inode.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

WAIT_S = 60.0
"""Longest wait for the server's tick to commit the save (generous: machines are loaded)."""

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="finds the server through /proc")

# An editor with me.md open from before the server's write: on "go" it saves its buffer plus a line into the
# inode it holds (truncate, write, close) and says "done".
EDITOR = """
import sys
f = open("me.md", "r+b")
data = f.read() + b"- Saved by the editor about okapis [by: user]\\n"
print("open", flush=True)
sys.stdin.readline()
f.seek(0); f.truncate(0); f.write(data); f.close()
print("done", flush=True)
"""


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A short private runtime folder, servers on; every server killed after."""
    folder = Path(tempfile.mkdtemp(prefix="mrs", dir="/tmp"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.setenv("MEMREPO_WRITE_SERVER", "120")
    monkeypatch.setenv("MEMREPO_CONFIG", str(folder / "none.toml"))
    yield folder
    for lock in (folder / "memrepo").glob("*.lock"):
        text = lock.read_text().strip()
        if text.isdigit():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(text), signal.SIGKILL)
    shutil.rmtree(folder, ignore_errors=True)


def serving(folder: Path) -> int:
    """Wait until one write server holds its lock and accepts connections; its pid.

    The first ``remember`` starts the server detached after its own write: on a loaded machine the new
    process takes seconds to import and take its lock, so a check right after that ``remember`` races it.
    """
    import socket

    deadline = time.monotonic() + WAIT_S
    while True:
        pids = [int(t) for lock in (folder / "memrepo").glob("*.lock") if (t := lock.read_text().strip()).isdigit()]
        socks = list((folder / "memrepo").glob("*.sock")) if pids else []
        if len(pids) == 1 and len(socks) == 1:
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                conn.connect(str(socks[0]))
                return pids[0]
            except OSError:
                pass
            finally:
                conn.close()
        assert time.monotonic() < deadline, f"no write server started: locks {pids}, sockets {socks}"
        time.sleep(0.1)


def _remember(repo: Path, text: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), "remember", text],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_a_save_into_an_old_inode_is_committed_by_the_servers_idle_tick(runtime: Path, tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for i in range(5):
        store.remember(Candidate(text=f"Earlier preference number {i} about llamas", kind="preference"))
    repo = store.root
    store.close()
    _remember(repo, "The first write starts the server")
    serving(runtime)  # the next write must be the server's: it renames over the editor's inode
    editor = subprocess.Popen(
        [sys.executable, "-c", EDITOR], cwd=repo, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert editor.stdin is not None and editor.stdout is not None
    try:
        assert editor.stdout.readline().strip() == "open"
        _remember(repo, "Agent fact one about tapirs")  # the server renames over the editor's inode
        editor.stdin.write("go\n")
        editor.stdin.flush()
        assert editor.stdout.readline().strip() == "done"
    finally:
        with contextlib.suppress(OSError):
            editor.stdin.close()
        editor.wait(90)
    deadline = time.monotonic() + WAIT_S  # no write comes: only the server's tick can take the save
    while "Saved by the editor about okapis" not in git(repo, "show", "HEAD:me.md"):
        assert time.monotonic() < deadline, (
            "the editor's save in the old inode was not committed; in the work tree: "
            f"{'Saved by the editor' in (repo / 'me.md').read_text()}; status: {git(repo, 'status', '--short')!r}"
        )
        time.sleep(0.2)
    head = git(repo, "show", "HEAD:me.md")
    assert "Agent fact one about tapirs" in head and head.count("about llamas") == 5, head
    assert git(repo, "log", "-1", "--format=%s").strip() == "Hand edits"
