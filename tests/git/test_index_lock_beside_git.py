"""memrepo's index update after a commit waits for a live git command's ``index.lock`` (docs/architecture.md §3).

``git status`` takes ``.git/index.lock`` while it refreshes the index's stat data, so a ``git status`` run
beside memrepo (an agent's, an editor's, a prompt's) often holds it the moment memrepo's commit updates the
index. memrepo gave up at once and left the index for its next commit: the index kept the committed paths'
old blobs, ``git status`` showed "MM lessons.md" (seen in CI, stop 45), and a ``git commit`` by hand would
have put the old text back. Measured with ``git status`` in a loop beside 100 hand-edit commits: 3 left the
index behind HEAD (still behind a second later); with the wait, none of 60 (3 collided and were retried).
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pygit2
import pytest
from helpers.repo_helpers import git, plain_settings, porcelain

from memrepo.engine.files import lock as gitlocks
from memrepo.engine.git.store import GitStore, format_message
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod

# Holds .git/index.lock open the way `git status` does while it refreshes the index, until told to let go.
HOLDER = (
    "import os, sys\n"
    "fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_EXCL)\n"
    "print('held', flush=True)\n"
    "sys.stdin.readline()\n"
    "os.unlink(sys.argv[1])\n"
    "os.close(fd)\n"
)


def test_the_index_follows_a_commit_made_while_git_holds_index_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The wait is what is tested, not its length: a loaded machine must not make it give up.
    monkeypatch.setattr(gitlocks, "GIT_LOCK_WAIT_S", 60.0)
    root = tmp_path / "memory"
    MemoryStore.open(root, plain_settings()).close()
    lessons = root / "lessons.md"
    lessons.write_text(lessons.read_text() + "- Run the linter first [by: user]\n")
    store = GitStore(root)
    before = str(store.head_id())
    holder: subprocess.Popen[str] | None = None
    held_at_commit: list[bool] = []

    def release_after_the_commit() -> None:
        assert holder is not None and holder.stdin is not None
        deadline = time.monotonic() + 60  # a hang guard, not a speed claim
        seen = pygit2.Repository(str(root))
        while time.monotonic() < deadline and str(seen.head.target) == before:
            time.sleep(0.01)
            seen = pygit2.Repository(str(root))
        held_at_commit.append((root / ".git" / "index.lock").exists())
        time.sleep(0.3)  # memrepo's index write comes right after the commit: it meets the lock
        holder.stdin.write("go\n")
        holder.stdin.flush()

    releaser = threading.Thread(target=release_after_the_commit)
    update_entries = store._update_index_entries

    def git_status_starts(index: pygit2.Index) -> None:
        # Called once the commit landed and memrepo let go of index.lock (held from its look at the file to the
        # commit, B28-3), with the index read: a `git status` starting now meets memrepo's index write.
        nonlocal holder
        if holder is None:
            holder = subprocess.Popen(
                [sys.executable, "-c", HOLDER, str(root / ".git" / "index.lock")],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert holder.stdout is not None and holder.stdout.readline() == "held\n"
            releaser.start()
        update_entries(index)

    monkeypatch.setattr(store, "_update_index_entries", git_status_starts)
    try:
        commit = store.commit_paths(["lessons.md"], format_message("Hand edits", {"Origin": "hand_edit"}))
    finally:
        if releaser.is_alive():
            releaser.join(90)
        if holder is not None:
            holder.wait(60)
    assert commit is not None and held_at_commit == [True]  # the lock was there when the index was written
    assert "Run the linter first" in git(root, "show", "HEAD:lessons.md")
    head_blob = git(root, "rev-parse", "HEAD:lessons.md").strip()
    assert git(root, "ls-files", "-s", "lessons.md").split()[1] == head_blob  # before: the old blob
    assert porcelain(root) == ""  # before: "MM lessons.md"


def test_a_sync_that_fast_forwards_while_git_holds_index_lock_leaves_the_index_at_head(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same wait where a sync moves the work tree to the remote's commit (before: "cannot update the work
    tree", with main and the files already moved and the index left on the old tree)."""
    monkeypatch.setattr(gitlocks, "GIT_LOCK_WAIT_S", 60.0)
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    a = MemoryStore.open(tmp_path / "a", plain_settings())
    sync_mod.set_remote(a.root, str(remote), confirmed_private=True)
    sync_mod.sync(a)
    subprocess.run(["git", "clone", "-q", str(remote), str(tmp_path / "b")], check=True)
    b = MemoryStore.open(tmp_path / "b", plain_settings())
    sync_mod.set_remote(b.root, str(remote), confirmed_private=True)
    a.remember(Candidate(text="Written on machine A", kind="preference", by="user"))
    sync_mod.sync(a)
    lock = b.root / ".git" / "index.lock"
    holders: list[subprocess.Popen[str]] = []
    real_read_tree = pygit2.Index.read_tree

    def git_status_starts(self: pygit2.Index, tree: object) -> None:
        # The sync has moved main and the files, and settled git's locks: a `git status` starts now.
        if not holders:
            holder = subprocess.Popen(
                [sys.executable, "-c", HOLDER, str(lock)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
            holders.append(holder)
            assert holder.stdout is not None and holder.stdout.readline() == "held\n"
            threading.Timer(0.3, lambda: (holder.stdin.write("go\n"), holder.stdin.flush())).start()
        real_read_tree(self, tree)

    monkeypatch.setattr(pygit2.Index, "read_tree", git_status_starts)
    try:
        result = sync_mod.sync(b)  # before: GitError "cannot update the work tree ... the index is locked"
    finally:
        for holder in holders:
            holder.wait(60)
    assert holders and result.action == "fast_forwarded", result
    assert "Written on machine A" in (b.root / "me.md").read_text()
    assert git(b.root, "ls-files", "-s", "me.md").split()[1] == git(b.root, "rev-parse", "HEAD:me.md").strip()
    assert porcelain(b.root) == ""
