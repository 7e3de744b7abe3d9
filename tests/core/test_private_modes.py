"""Memory is its owner's alone: a repo folder memrepo makes is 0700, state files 0600, state folders 0700.

breaker31 B31-13: ``memrepo init`` made the repo 0755 (its files 0644: any local user read the memory and its
history), and dream records, the dream state, the read counts, the context cache's wanted list and checkpoint
folders were written 0644 / 0755 under ``.git/memrepo`` (docs/architecture.md §3, derived files).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from helpers.repo_helpers import plain_settings

from memrepo.engine.checkpoints.buffers import Buffers
from memrepo.engine.dreams.record import DreamRecords
from memrepo.engine.models import Candidate
from memrepo.engine.read import contextcache, readcount
from memrepo.engine.repo.store import MemoryStore


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_a_repo_folder_memrepo_makes_is_the_owners_alone(tmp_path: Path) -> None:
    root = tmp_path / "deep" / "memory"
    MemoryStore.open(root, plain_settings(), create=True)
    assert _mode(root) == 0o700


def test_an_existing_folder_keeps_the_mode_its_owner_gave_it(tmp_path: Path) -> None:
    root = tmp_path / "shared"
    root.mkdir(mode=0o755)
    os.chmod(root, 0o755)
    MemoryStore.open(root, plain_settings(), create=True)
    assert _mode(root) == 0o755


def test_state_files_written_beside_memory_are_private(tmp_path: Path) -> None:
    root = tmp_path / "m"
    store = MemoryStore.open(root, plain_settings(), create=True)
    store.remember(Candidate(text="The nightly backup runs at 02:00"))
    git_dir = root / ".git"
    state = git_dir / "memrepo"
    records = DreamRecords(git_dir)
    records.write_state({"last": "x"})
    readcount.note_read(git_dir, "recall")
    (state / contextcache.FOLDER).mkdir(mode=0o700, exist_ok=True)
    contextcache.note_wanted(state, "ws-1")
    buffers = Buffers(state)
    buffers._save("ws-1", {"messages": []})
    made = [
        records.state_path,
        state / readcount.FILE,
        state / contextcache.FOLDER / contextcache.WANTED,
        buffers._path("ws-1"),
    ]
    for path in made:
        assert path.exists(), path
        assert _mode(path) == 0o600, (path, oct(_mode(path)))
        folder = path.parent
        while folder != git_dir:
            assert _mode(folder) == 0o700, (folder, oct(_mode(folder)))
            folder = folder.parent
