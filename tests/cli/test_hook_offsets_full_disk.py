"""A full disk while the hook keeps its transcript offset leaves no temp file behind (breaker11 B11-8).

``.git/memrepo/hook-offsets.json`` is written through a temp file and a rename; when the write failed (ENOSPC), the
0-byte ``.hook-offsets-*`` file stayed for good, one per failed hook. The turns are still read and the hook says
it could not keep the offset.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.cli import agent
from memrepo.engine.repo.store import MemoryStore


def test_a_failed_offsets_write_removes_its_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.close()
    transcript = tmp_path / "t.jsonl"
    base = {"sessionId": "full", "cwd": str(tmp_path), "isSidechain": False, "timestamp": "2026-12-01T10:00:00.000Z"}
    user = {**base, "type": "user", "uuid": "u1", "message": {"role": "user", "content": "Question 1"}}
    reply = {**base, "type": "assistant", "uuid": "a1", "message": {"role": "assistant", "content": "Answer 1"}}
    transcript.write_text(json.dumps(user) + "\n" + json.dumps(reply) + "\n", encoding="utf-8")

    def disk_full(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(json, "dump", disk_full)
    messages = agent._hook_turns(store.root, transcript, "full")
    assert messages, "the turns are still read"
    assert "cannot keep the transcript offset: No space left on device" in capsys.readouterr().err
    state = store.root / ".git" / "memrepo"
    assert not list(state.glob(".hook-offsets-*")) and not (state / "hook-offsets.json").exists()
