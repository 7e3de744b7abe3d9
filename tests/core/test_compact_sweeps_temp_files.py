"""Forgetting for real leaves no forgotten line in a killed writer's temp files (breaker27 B27-9).

A SIGKILL mid-write leaves ``.memrepo-tmp-*`` files beside a memory file (a new version that was never renamed
over it, or an old version's second name kept for an undo): full copies of the file, invisible to git
(``info/exclude``). A kill the lock did not see left them for good, and ``forget --compact`` ("forgetting for
real") erased the line from the history but not from them. Compaction now removes them (engine/history/compact.py,
:func:`memrepo.engine.files.undo.recover`).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

SECRET = "My old flat was on Elm Street"


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _work_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and ".git" not in p.relative_to(root).parts]


def test_forget_compact_removes_a_killed_writer_s_temp_files(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)
    try:
        assert store.remember(Candidate(text="I cycle to work", by="user")).commit
        written = store.remember(Candidate(text=SECRET, by="user"))
        assert written.ref
        me = store.root / "me.md"
        copy = me.read_bytes()
        (store.root / ".memrepo-tmp-4iq1bwq8").write_bytes(copy)  # what a killed writer leaves
        (store.root / f".memrepo-tmp-undo-{_dead_pid()}-4-me.md").write_bytes(copy)
        store.forget(written.ref, compact=True)
        left = [p.name for p in _work_files(store.root) if p.name.startswith(".memrepo-tmp-")]
        assert left == [], left
        assert not [p for p in _work_files(store.root) if SECRET.encode() in p.read_bytes()]
        assert "I cycle to work" in me.read_text() and store.status().questions == []
    finally:
        store.close()
