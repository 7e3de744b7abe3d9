"""A long-running store keeps no pack a ``git gc`` deleted (issue 33: the soak's long-running processes grew).

libgit2 keeps every pack it opened, with its caches and descriptor, for the life of the repository. With
``git gc`` run beside the app (every 2 minutes in the soak), the app, ``memrepo watch`` and the MCP server
grew by one pack each time: about 13 MB of RSS and one descriptor per ``git gc``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors through /proc")

GIT = ["git", "-c", "user.name=Test User", "-c", "user.email=test@example.invalid"]


def _packs_held(git_dir: Path) -> list[str]:
    """The pack files of ``git_dir`` this process holds open or mapped (a deleted one shows as such)."""
    where = str(git_dir / "objects" / "pack")
    held = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(where):
            held.add(target)
    for line in Path("/proc/self/maps").read_text().splitlines():
        parts = line.split(maxsplit=5)
        if len(parts) == 6 and parts[5].startswith(where):
            held.add(parts[5])
    return sorted(held)


def test_the_store_lets_go_of_packs_git_gc_replaced(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    MemoryStore.open(root, plain_settings()).close()
    keeper = MemoryStore.open(root, plain_settings())  # the long-running process: one store for its life
    try:
        for rnd in range(5):
            with MemoryStore.open(root, plain_settings()) as writer:  # another process's writes, closed after
                for n in range(6):
                    result = writer.remember(Candidate(text=f"Round {rnd} fact {n} about the pump valves"))
                    assert result.action == "added", result
            subprocess.run([*GIT, "gc", "--quiet"], cwd=root, check=True)
            # What a long-running process does after others wrote: a status, the log, the stale-save look back.
            keeper.status()
            assert len(keeper.log(limit=200)) >= 6 * (rnd + 1)
            keeper.git.recent_writes("me.md", 3600, 50)
            held = _packs_held(root / ".git")
            on_disk = sorted(str(p) for p in (root / ".git" / "objects" / "pack").iterdir())
            assert not [h for h in held if h.endswith("(deleted)")], held  # nothing git gc deleted is kept
            assert set(held) <= set(on_disk), (held, on_disk)
    finally:
        keeper.close()
