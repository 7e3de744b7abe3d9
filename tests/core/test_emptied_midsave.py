"""An editor caught between creating a file and writing it makes one "Hand edits" commit, not two.

vim (``backupcopy=no``) and emacs (its first save) rename the old file aside, create the new one and
write it. Under load the editor can be descheduled between the create and the write for longer than
the quiet period: the watcher's commit then found the file empty, and since a header-only file has no
entries, committed the empty file, then the written one (tests/git/test_scratch.py's vim test saw two
"Hand edits" under two CPU hogs). An emptied file is now always a question (docs/architecture.md §3),
so the empty moment is never committed and the save is one commit.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from helpers.repo_helpers import git
from helpers.watch_helpers import watching

from memrepo.engine.config import Settings
from memrepo.engine.repo.repo import MemoryRepo
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.write.settle import question

QUIET_S = 0.5
"""The quiet period the watcher waits before committing hand edits (seconds)."""


def test_emptying_a_file_with_no_entries_is_a_question() -> None:
    asked = question("me.md", b"# About the user\n\n", b"")
    assert asked is not None and asked.empty
    assert question("me.md", b"# About the user\n\n", b"# About me\n") is None  # a header edit is not
    assert question("me.md", b"", b"") is None


async def test_an_editor_stalled_between_create_and_write_makes_one_commit(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    MemoryStore.open(root, Settings(), create=True)
    settings = Settings.model_validate({"writes": {"commit_hand_edits_after": QUIET_S}})
    repo = await MemoryRepo.open(root, settings, commit_hand_edits=True)
    me = root / "me.md"
    hand_edits = lambda: git(root, "log", "--format=%s").splitlines().count("Hand edits")  # noqa: E731
    try:
        async with watching(repo):
            old = me.read_text(encoding="utf-8")
            me.rename(root / "me.md~")  # the old file goes aside (a backup name the watcher ignores)
            me.write_bytes(b"")  # the new file is created
            await asyncio.sleep(QUIET_S * 3)  # the editor is descheduled: the quiet period passes
            assert hand_edits() == 0, "the empty moment was committed"
            me.write_text(old + "- Typed while the machine was busy [by: user]\n", encoding="utf-8")
            deadline = asyncio.get_running_loop().time() + 60  # a hang guard, not a speed claim
            while hand_edits() == 0:
                assert asyncio.get_running_loop().time() < deadline, "the save was never committed"
                await asyncio.sleep(0.05)
    finally:
        await repo.close()
    assert hand_edits() == 1
    assert "Typed while the machine was busy" in git(root, "show", "HEAD:me.md")
