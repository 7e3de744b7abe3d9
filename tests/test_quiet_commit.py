"""Hand edits are committed once the files have been quiet (DESIGN.md §4, ``[writes] commit_hand_edits_after``)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from repo_helpers import git, porcelain

from engine.repo import MemoryRepo


async def edit_and_wait(repo_path: Path, quiet: float, wait: float) -> str:
    repo = await MemoryRepo.open(repo_path, commit_hand_edits_after=quiet)
    try:
        repo.start_watching()
        await asyncio.sleep(0.5)  # the watcher is up
        me = repo_path / "me.md"
        me.write_text(me.read_text() + "- Edited in an editor [by: user]\n")
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and porcelain(repo_path):
            await asyncio.sleep(0.05)
        return git(repo_path, "log", "-1", "--format=%s%n%b")
    finally:
        await repo.close()


async def test_hand_edit_is_committed_after_the_quiet_period(repo_path: Path) -> None:
    repo = await MemoryRepo.open(repo_path)
    await repo.close()
    started = time.monotonic()
    last = await edit_and_wait(repo_path, quiet=0.3, wait=5.0)
    assert porcelain(repo_path) == ""
    assert last.startswith("Hand edits") and "Origin: hand_edit" in last
    assert time.monotonic() - started >= 0.3


async def test_zero_means_hand_edits_wait_for_the_next_write(repo_path: Path) -> None:
    repo = await MemoryRepo.open(repo_path)
    await repo.close()
    last = await edit_and_wait(repo_path, quiet=0.0, wait=1.5)
    assert porcelain(repo_path) == " M me.md\n"
    assert last.startswith("Create memory repo")
