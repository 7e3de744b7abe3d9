"""A watching process brings the recall index up to date with a hand edit (issue 30 point 4, cost).

``memrepo recall`` after a hand edit read the edited file again and redacted each of its entries, which loads
the secret detectors in that new process (150-250 ms at 2,000 files against 80-150 ms with nothing to read).
A process that watches the files (the MCP server, the app: ``MemoryRepo.start_watching``) now refreshes the
persisted index once the edit is quiet, shown text included (engine/repo/indexfollow.py), so the next
``memrepo recall`` re-reads nothing. Real watcher, real ``memrepo`` process; whether the detectors loaded is read
from Python's import log (``PYTHONPROFILEIMPORTTIME``).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from helpers.repo_helpers import plain_settings
from helpers.watch_helpers import HANG_GUARD_S, watching

from memrepo.engine.models import Candidate
from memrepo.engine.repo.repo import MemoryRepo


def _recall(root: Path, query: str) -> tuple[str, set[str]]:
    """``memrepo recall QUERY`` in a new process: its output and the memrepo modules it imported."""
    script = shutil.which("memrepo", path=str(Path(sys.executable).parent))
    assert script is not None
    env = dict(os.environ, MEMREPO_CONFIG=os.devnull + ".none", PYTHONPROFILEIMPORTTIME="1")
    done = subprocess.run(
        [script, "--repo", str(root), "recall", query], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    modules = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    return done.stdout, modules


async def test_a_hand_edit_is_indexed_by_the_watching_process(tmp_path: Path) -> None:
    repo = await MemoryRepo.open(tmp_path / "memory", plain_settings())
    try:
        await repo.remember(Candidate(text="Staging deploys wait for the smoke tests", kind="fact", by="user"))
        await repo.recall("staging")  # the index is built (a small repo: here, at once)
        holder = next(p for p in repo.root.rglob("*.md") if "smoke tests" in p.read_text())
        async with watching(repo):
            deadline = time.monotonic() + HANG_GUARD_S
            while repo._follow.busy:  # the watcher's own probe of inbox.md is followed too: let it end first
                assert time.monotonic() < deadline, "a refresh never ended"
                await asyncio.sleep(0.05)
            refreshed = repo._follow.refreshed
            with holder.open("a", encoding="utf-8") as fh:  # a hand edit, as an editor saves it
                fh.write("- Staging has its own kerosene budget since March\n")
            deadline = time.monotonic() + HANG_GUARD_S
            while repo._follow.refreshed == refreshed:  # a refresh that began after the edit ended
                assert time.monotonic() < deadline, "the watching process never brought the index up to date"
                await asyncio.sleep(0.05)
    finally:
        await repo.close()
    out, modules = _recall(repo.root, "kerosene")
    assert "kerosene budget" in out
    assert "memrepo.engine.redaction" not in modules, "the new process re-read the edited file and redacted it"
    assert "memrepo.engine.read.recallentries" not in modules, "the new process re-read a file"
