"""An editor's save into an old inode outlives a write server SIGKILLed before it looked (docs/architecture.md §3).

The server renamed a new me.md over the inode an editor holds open; the editor saves into that inode after the
server was killed. Before, only the server's process held the inode: it had no name and no holder, and the save
was gone. The inode is now hard linked under ``.git/memrepo/oldinodes/`` before the rename
(engine/files/oldlinks.py): the next process that salvages (``status``, the next write) merges the save and
commits it as "Hand edits".
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings
from test_write_server_salvage import EDITOR, WAIT_S, _remember, runtime, serving  # noqa: F401  (the fixture)

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="finds the server through /proc")


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.slow
@pytest.mark.parametrize("later", ["status", "remember"])
def test_a_save_into_an_old_inode_after_the_server_was_killed_is_committed_by_the_next_process(
    runtime: Path,  # noqa: F811
    tmp_path: Path,
    later: str,
) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for i in range(5):
        store.remember(Candidate(text=f"Earlier preference number {i} about llamas", kind="preference"))
    repo = store.root
    store.close()
    _remember(repo, "The first write starts the server")
    pid = serving(runtime)  # the next write must be the server's: it renames over the editor's inode
    editor = subprocess.Popen(
        [sys.executable, "-c", EDITOR], cwd=repo, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert editor.stdin is not None and editor.stdout is not None
    try:
        assert editor.stdout.readline().strip() == "open"
        _remember(repo, "Agent fact one about tapirs")  # the server renames over the editor's inode
        os.kill(pid, signal.SIGKILL)  # before the editor saves: nothing to look at yet
        deadline = time.monotonic() + WAIT_S
        while not _gone(pid):
            assert time.monotonic() < deadline, "the write server did not die"
            time.sleep(0.05)
        editor.stdin.write("go\n")
        editor.stdin.flush()
        assert editor.stdout.readline().strip() == "done"
    finally:
        with contextlib.suppress(OSError):
            editor.stdin.close()
        editor.wait(90)
    assert "Saved by the editor about okapis" not in (repo / "me.md").read_text()  # only in the old inode
    if later == "status":
        done = subprocess.run(
            [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), "status"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr
    else:
        _remember(repo, "Agent fact two about capybaras")
    head = git(repo, "show", "HEAD:me.md")
    assert "Saved by the editor about okapis" in head, (head, git(repo, "log", "--format=%s"))
    assert "Agent fact one about tapirs" in head and head.count("about llamas") == 5, head
    assert "Hand edits" in git(repo, "log", "-3", "--format=%s").splitlines()
    assert (repo / "me.md").read_text().count("Saved by the editor about okapis") == 1
