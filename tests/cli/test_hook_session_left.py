"""A session that ended without SessionEnd (a crash, a closed terminal) is distilled by the next session's start in
its folder, and ``memrepo status`` names its turns until then (breaker31 B31-15; engine/checkpoints/leftover.py).

Its buffered "Remember that ..." waited until some later session there ENDED: the next SessionStart did not take it,
the next turn's Stop distilled its own turn instead and restarted the idle clock, status said "clean". Transcript
and payloads as Claude Code 2.1 writes them (``tests/cli/test_hook_corrections.py``).
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import plain_settings
from test_hook_corrections import transcript_line

from memrepo.cli.main import main
from memrepo.cli.quickbase import config_keys
from memrepo.cli.quickhook import session_start as quick_session_start
from memrepo.engine.checkpoints.leftover import IDLE_S
from memrepo.engine.repo.store import MemoryStore

SAID = "Remember that the noend cron runs at 04:00."


def _stop(store: MemoryStore, tmp_path: Path, project: Path, session: str, text: str) -> str:
    transcript = tmp_path / f"{session}.jsonl"
    lines = [transcript_line(session, project, 1, "user", text, None)]
    lines.append(transcript_line(session, project, 1, "assistant", "Noted.", "u1"))
    transcript.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    stop = {"session_id": session, "transcript_path": str(transcript), "cwd": str(project), "hook_event_name": "Stop"}
    done = CliRunner().invoke(main, ["--repo", str(store.root), "checkpoint", "--from-claude-hook"], json.dumps(stop))
    assert done.exit_code == 0, done.output
    return done.output


def _age(store: MemoryStore, seconds: float) -> None:
    """The buffers' turns and idle clock ``seconds`` older (the session was left that long ago)."""
    for path in (store.state_dir / "checkpoints").glob("*.json"):
        data = json.loads(path.read_text("utf-8"))
        for m in data["messages"]:
            m["at"] -= seconds
        data["last_at"] -= seconds
        path.write_text(json.dumps(data), encoding="utf-8")


def _start(store: MemoryStore, project: Path, session: str) -> str:
    payload = {"session_id": session, "cwd": str(project), "hook_event_name": "SessionStart", "source": "startup"}
    done = CliRunner().invoke(main, ["--repo", str(store.root), "hook", "session-start"], json.dumps(payload))
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def _status(store: MemoryStore) -> str:
    return CliRunner().invoke(main, ["--repo", str(store.root), "status"]).output


@pytest.fixture
def left(tmp_path: Path) -> tuple[MemoryStore, Path]:
    project = tmp_path / "noend"
    project.mkdir()
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    assert "buffered" in _stop(store, tmp_path, project, "ne1", SAID)  # ne1 never sends SessionEnd
    return store, project


def test_a_new_sessions_start_distils_a_session_left_idle(left: tuple[MemoryStore, Path]) -> None:
    store, project = left
    assert "noend cron" not in _status(store)  # buffered just now: the session may still be running
    _age(store, IDLE_S + 60)
    assert "2 messages of session ne1 buffered over 5 minutes" in _status(store)  # it said "clean" alone
    block = _start(store, project, "ne2")
    assert "noend cron runs at 04:00" in block, block
    assert "buffered over" not in _status(store)


def test_a_left_session_still_young_or_its_own_start_waits(left: tuple[MemoryStore, Path]) -> None:
    """Controls: turns under the idle limit are another live session's; a session's own turns are its own."""
    store, project = left
    assert "noend cron" not in _start(store, project, "ne2")  # 0 s idle: left alone
    _age(store, IDLE_S + 60)
    assert "noend cron" not in _start(store, project, "ne1")  # ne1 resumed: its own close distils them


def test_the_next_turn_distils_the_left_session_not_its_own(left: tuple[MemoryStore, Path], tmp_path: Path) -> None:
    store, project = left
    _age(store, IDLE_S + 60)
    assert "stage: idle" in _stop(store, tmp_path, project, "ne2", "What time is it in Tokyo?")
    assert "noend cron runs at 04:00" in (store.root / "workspaces" / "noend.md").read_text(encoding="utf-8")


def test_the_quick_path_leaves_a_start_with_a_left_session_to_the_command(
    left: tuple[MemoryStore, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, project = left
    _age(store, IDLE_S + 60)
    raw = json.dumps({"session_id": "ne2", "cwd": str(project), "hook_event_name": "SessionStart"}).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    keys = config_keys()
    assert keys is not None
    assert quick_session_start({"repo": str(store.root), "hook": "session-start"}, keys) is False
    assert sys.stdin.read() == raw.decode()  # given back whole
