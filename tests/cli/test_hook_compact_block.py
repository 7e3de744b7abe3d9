"""A compacted session's new block holds what the user said earlier in that session (breaker31 B31-12).

After ``/compact`` Claude Code fires SessionStart with ``source: "compact"``; the agent's earlier turns are now a
summary, and the block handed it "The resume service listens on port 8081" although the user had said 9090 in this
session: Stop only buffers (a stage is distilled at 10 turns, 4,000 characters, idle or session end). The compact
SessionStart now distils the session's buffered turns first. Transcript and payloads as Claude Code 2.1 writes them
(``tests/cli/test_hook_corrections.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from helpers.repo_helpers import plain_settings
from test_hook_corrections import remember, transcript_line

from memrepo.cli.main import main
from memrepo.cli.quickhook import session_start as quick_session_start
from memrepo.engine.repo.store import MemoryStore

OLD = "The resume service listens on port 8081"


def _world(tmp_path: Path) -> tuple[MemoryStore, Path, Path, dict]:
    project = tmp_path / "resume"
    project.mkdir()
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    remember(store, OLD, project)
    transcript = tmp_path / "s1.jsonl"
    said = "Actually the resume service listens on port 9090 now."
    lines = [transcript_line("s1", project, 1, "user", said, None)]
    lines.append(transcript_line("s1", project, 1, "assistant", "Noted, 9090.", "u1"))
    transcript.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    common = {"session_id": "s1", "transcript_path": str(transcript), "cwd": str(project)}
    stop = {**common, "hook_event_name": "Stop", "stop_hook_active": False}
    done = CliRunner().invoke(main, ["--repo", str(store.root), "checkpoint", "--from-claude-hook"], json.dumps(stop))
    assert done.exit_code == 0 and "buffered" in done.output, done.output  # a Stop only buffers the turn
    return store, project, transcript, common


def _block(store: MemoryStore, payload: dict) -> str:
    done = CliRunner().invoke(main, ["--repo", str(store.root), "hook", "session-start"], json.dumps(payload))
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_the_compacted_sessions_block_has_the_users_correction(tmp_path: Path) -> None:
    store, _project, _transcript, common = _world(tmp_path)
    block = _block(store, {**common, "hook_event_name": "SessionStart", "source": "compact"})
    assert "port 9090 now" in block and OLD not in block, block


def test_a_startup_block_distils_nothing(tmp_path: Path) -> None:
    """Control: only a compaction distils at the session's start; a new session's block is made at once."""
    store, _project, _transcript, common = _world(tmp_path)
    block = _block(store, {**common, "hook_event_name": "SessionStart", "source": "startup"})
    assert OLD in block and "9090" not in block, block


def test_the_quick_path_leaves_a_compact_start_to_the_command(tmp_path: Path, monkeypatch) -> None:
    import io
    import sys

    payload = {"session_id": "s1", "transcript_path": "t.jsonl", "hook_event_name": "SessionStart", "source": "compact"}
    raw = json.dumps(payload).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    assert quick_session_start({"repo": str(tmp_path), "hook": "session-start"}, None) is False  # type: ignore[arg-type]
    assert sys.stdin.read() == raw.decode()  # given back whole
