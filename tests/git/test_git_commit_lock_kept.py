"""A ``git commit -a`` waiting in its editor keeps its ``index.lock``, however old and wherever git was started.

git writes ``index.lock``, closes it and waits for its editor: no process has the file open, so memrepo's
stale-lock rule (no holder, :data:`~memrepo.engine.files.lock.STALE_LOCK_S` old) would remove it while git
still waits, and git's commit would then fail (fix13's note, round 13). A live git process working in the
repo is its holder: found by its cwd, and now also by ``--git-dir`` / ``--work-tree`` / ``-C`` or ``GIT_DIR``
when it was started from another folder. A memrepo write beside it waits, then says which git holds the lock.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.errors import BusyError
from memrepo.engine.files import lock as gitlocks
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def _wait(cond: object, what: str) -> None:
    deadline = time.monotonic() + 60  # a hang guard on a loaded machine, not a speed claim
    while not cond():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def _git_commit_a(root: Path, go: Path, cwd: Path, args: list[str]) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "GIT_EDITOR": f"while [ ! -e '{go}' ]; do sleep 0.05; done; echo 'hand commit' > ",
        "GIT_AUTHOR_NAME": "Hand",
        "GIT_AUTHOR_EMAIL": "hand@example.com",
        "GIT_COMMITTER_NAME": "Hand",
        "GIT_COMMITTER_EMAIL": "hand@example.com",
    }
    proc = subprocess.Popen(
        ["git", *args, "commit", "-a"], cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _wait(lambda: (root / ".git" / "index.lock").exists() or proc.poll() is not None, "git to take index.lock")
    assert proc.poll() is None, "git commit ended before its editor ran"
    return proc


@pytest.mark.parametrize("started", ["in the repo", "with --git-dir and --work-tree", "with --git-dir alone"])
def test_an_old_index_lock_of_a_waiting_git_commit_is_never_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: str
) -> None:
    monkeypatch.setattr(gitlocks, "GIT_LOCK_WAIT_S", 0.5)
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    root = store.root
    with (root / "lessons.md").open("a", encoding="utf-8") as fh:
        fh.write("- Hand line from the user\n")
    go = tmp_path / "go"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    args = {
        "in the repo": [],
        "with --git-dir and --work-tree": [f"--git-dir={root}/.git", f"--work-tree={root}"],
        "with --git-dir alone": [f"--git-dir={root}/.git"],  # git stays in the other folder (its cwd)
    }[started]
    git = _git_commit_a(root, go, root if not args else elsewhere, args)
    lock = root / ".git" / "index.lock"
    old = time.time() - 10 * gitlocks.STALE_LOCK_S  # the user left the editor open a long while
    os.utime(lock, (old, old))
    with pytest.raises(BusyError) as caught:
        store.remember(Candidate(text="The billing job runs at 02:00 UTC", kind="fact"))
    assert f"pid {git.pid}: git" in str(caught.value) and "index.lock" in str(caught.value)
    assert lock.exists()  # git's, still: never removed as stale
    go.touch()
    assert git.wait(timeout=60) == 0  # git's own commit went through
    log = subprocess.run(["git", "log", "--format=%s", "-1"], cwd=root, capture_output=True, text=True).stdout
    assert log.strip() == "hand commit"
    store.remember(Candidate(text="The billing job runs at 02:00 UTC", kind="fact"))
    assert "billing job" in (root / "me.md").read_text() + (root / "lessons.md").read_text()
    store.close()
