"""The quiet-period commit tells the app itself that HEAD moved (engine/repo/repo.py).

Found as a rare flake of tests/tui/test_tui_folder_actions.py (the header never reached "clean"): the
quiet timer starts with the watcher, before the watcher is armed; on a loaded machine the commit of the
hand edits waiting at start landed before the watcher watched, no event came, and the header kept the
"hand_edited" it read at start. A watcher that has not started yet makes it happen every time.
"""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from helpers.tui_helpers import RecordingApp, build_repo, wait_for

from memrepo.engine.config import Settings
from memrepo.engine.models import ChangeEvent
from memrepo.engine.repo import repo as repomod

SIZE = (80, 24)


def log(root: Path) -> list[str]:
    return subprocess.run(
        ["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.splitlines()


async def test_the_header_says_clean_after_the_quiet_commit_before_the_watcher_watches(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def not_yet(*_args: object, **_kwargs: object) -> AsyncIterator[ChangeEvent]:
        await asyncio.Event().wait()  # a loaded machine: the watcher's thread has not started (until closed)
        yield ChangeEvent(paths=[])  # pragma: no cover

    monkeypatch.setattr(repomod, "watch_changes", not_yet)
    root = isolated_home / "memory"
    build_repo(root)
    with (root / "me.md").open("a", encoding="utf-8") as fh:
        fh.write("- Edited while the app was closed [by: user]\n")
    app = RecordingApp(root, settings=Settings.model_validate({"writes": {"commit_hand_edits_after": 0.3}}))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: len(log(root)) == 2, what="the quiet-period commit")
        assert log(root)[0] == "Hand edits"
        # No watcher event comes: only the repo's own word can tell the app.
        await wait_for(pilot, lambda: app.header.state == "clean", what="the clean state")
