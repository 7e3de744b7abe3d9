"""An editor's in-place save landing just after ``memrepo sync`` took a remote commit is merged, not lost
(breaker24 B24-14; engine/git/remote.py ``_watch_old``, docs/architecture.md §3).

Sync's move rewrote each file the remote changed outside the writer, without watching the old inode: a save the
editor wrote into it had no name, ``status`` said clean and the person's typed line was gone. The move now watches
and links the old inode like every other write, so the next salvage merges the save.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.inplace_editor import USERNEW, save_around, wait_for
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod


@pytest.fixture
def machines(tmp_path: Path) -> tuple[MemoryStore, MemoryStore]:
    """Machine A creates the memory repo and pushes it to a bare remote; machine B clones it."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    a = MemoryStore.open(tmp_path / "a", plain_settings())
    a.remember(Candidate(text="I like tea", kind="preference", by="user"))
    sync_mod.set_remote(a.root, str(remote), confirmed_private=True)
    assert sync_mod.sync(a).action == "pushed"
    subprocess.run(["git", "clone", "-q", str(remote), str(tmp_path / "b")], check=True)
    b = MemoryStore.open(tmp_path / "b", plain_settings())
    sync_mod.set_remote(b.root, str(remote), confirmed_private=True)
    return a, b


def test_a_save_into_the_old_inode_after_a_sync_is_merged(
    machines: tuple[MemoryStore, MemoryStore], tmp_path: Path
) -> None:
    a, b = machines
    a.remember(Candidate(text="Machine A line during save", kind="preference", by="user"))
    sync_mod.sync(a)
    me = b.root / "me.md"

    def take() -> None:
        assert sync_mod.sync(b).received == 1  # renames the remote's me.md over the one the editor holds
        assert "Machine A line" in me.read_text()

    save_around(me, "I like tea", tmp_path, take)

    def merged() -> bool:
        b.status()  # salvages what was written into linked old inodes
        return USERNEW in git(b.root, "show", "HEAD:me.md")

    wait_for(merged, "the editor's save to be merged and committed")
    head = git(b.root, "show", "HEAD:me.md")
    assert "Machine A line during save" in head and "I like tea" in head
    assert me.read_text() == head
