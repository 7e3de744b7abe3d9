"""Hand edits are committed once the files have been quiet (docs/architecture.md §4, ``[writes] commit_hand_edits_after``)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from helpers.repo_helpers import git, plain_settings, porcelain
from helpers.watch_helpers import HANG_GUARD_S, next_event, watching

from memrepo.engine.config import Settings
from memrepo.engine.repo.repo import MemoryRepo


async def edit_and_wait(repo_path: Path, quiet: float, wait: float) -> tuple[str, float]:
    """Edit me.md under a running watcher; wait (after the edit's event) until the tree is clean or ``wait``
    passed. Returns the last commit's message and the seconds from the edit to the end of the wait."""
    settings = Settings.model_validate({"writes": {"commit_hand_edits_after": quiet}})
    repo = await MemoryRepo.open(repo_path, settings, commit_hand_edits=True)
    try:
        async with watching(repo) as queue:
            me = repo_path / "me.md"
            me.write_text(me.read_text() + "- Edited in an editor [by: user]\n")
            edited = time.monotonic()
            await next_event(queue, lambda e: "me.md" in e.paths)
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline and porcelain(repo_path):
                await asyncio.sleep(0.05)
            return git(repo_path, "log", "-1", "--format=%s%n%b"), time.monotonic() - edited
    finally:
        await repo.close()


async def test_hand_edit_is_committed_after_the_quiet_period(repo_path: Path) -> None:
    repo = await MemoryRepo.open(repo_path, plain_settings())
    await repo.close()
    last, waited = await edit_and_wait(repo_path, quiet=0.3, wait=HANG_GUARD_S)
    assert porcelain(repo_path) == ""
    assert last.startswith("Hand edits") and "Origin: hand_edit" in last
    assert waited >= 0.3  # relative to the configured quiet period: never before it


async def test_zero_means_hand_edits_wait_for_the_next_write(repo_path: Path) -> None:
    repo = await MemoryRepo.open(repo_path, plain_settings())
    await repo.close()
    last, _waited = await edit_and_wait(repo_path, quiet=0.0, wait=1.5)  # many times the period above
    assert porcelain(repo_path) == " M me.md\n"
    assert last.startswith("Create memory repo")


async def test_a_file_edited_every_moment_is_still_committed(repo_path: Path, monkeypatch) -> None:
    """A file changed more often than the quiet period (a script appending every 0.1 s, an editor's autosave)
    pushed the commit back for ever; a burst is now committed QUIET_MAX_S after its first change at most."""
    import memrepo.engine.repo.repo as repo_module

    monkeypatch.setattr(repo_module, "QUIET_MAX_S", 1.0)
    settings = Settings.model_validate({"writes": {"commit_hand_edits_after": 0.5}})
    repo = await MemoryRepo.open(repo_path, settings, commit_hand_edits=True)
    try:
        async with watching(repo) as queue:
            me = repo_path / "me.md"
            me.write_text(me.read_text() + "- Appended 0 [by: user]\n")
            await next_event(queue, lambda e: "me.md" in e.paths)
            committed = False
            for n in range(1, 150):  # an append every 0.1 s, never 0.5 s of quiet, for 15 s at most
                with me.open("a") as fh:
                    fh.write(f"- Appended {n} [by: user]\n")
                await asyncio.sleep(0.1)
                if git(repo_path, "log", "-1", "--format=%s").startswith("Hand edits"):
                    committed = True
                    break
            assert committed  # while the appends went on
    finally:
        await repo.close()
