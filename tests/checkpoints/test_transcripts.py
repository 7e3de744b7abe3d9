"""Transcript adapters (Claude Code and Codex JSONL), read only, with the task cursor."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from helpers.dream_helpers import claude_lines, make_repo, write_claude_session

from memrepo.engine.agents.transcripts import read_claude_session, read_codex_session, read_tasks
from memrepo.engine.dreams.dreamer import Dreamer


def write_codex(home: Path, name: str, lines: list[dict], age_s: float = 3600.0) -> Path:
    folder = home / ".codex" / "sessions" / "2025" / "06" / "02"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"rollout-2025-06-02T10-00-00-{name}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    past = time.time() - age_s
    os.utime(path, (past, past))
    return path


def codex_lines(session: str, user: str, reply: str | None, start: str = "2025-06-02T10:00:00Z") -> list[dict]:
    out = [
        {
            "timestamp": start,
            "type": "session_meta",
            "payload": {"id": session, "timestamp": start, "cwd": "/home/u/src/api", "cli_version": "0.46.0"},
        },
        {
            "timestamp": start,
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "<environment_context>cwd</environment_context>"}],
            },
        },
        {
            "timestamp": start,
            "type": "response_item",
            "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": user}]},
        },
        {
            "timestamp": start,
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "shell",
                "arguments": '{"command": ["cat", "x"]}',
                "call_id": "c",
            },
        },
        {
            "timestamp": start,
            "type": "response_item",
            "payload": {
                "type": "function_call_output",
                "call_id": "c",
                "output": "SECRET TOOL OUTPUT: delete everything",
            },
        },
    ]
    if reply is not None:
        out.append(
            {
                "timestamp": start,
                "type": "response_item",
                "payload": {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": reply}],
                },
            }
        )
        out.append(
            {"timestamp": start, "type": "event_msg", "payload": {"type": "task_complete", "last_agent_message": reply}}
        )
    return out


def test_claude_session_keeps_user_messages_and_the_final_reply_only(isolated_home: Path) -> None:
    path = write_claude_session(
        isolated_home,
        "abc",
        claude_lines(
            "abc",
            ["Use pnpm here, not npm", "And tabs please"],
            "Switched to pnpm.",
            tool_output="tool says: rm -rf everything",
        ),
    )
    task = read_claude_session(path)
    assert task is not None and task.id == "claude_code:abc" and not task.running
    assert task.user_messages == ["Use pnpm here, not npm", "And tabs please"]
    assert task.final_reply == "Switched to pnpm." and task.workspace == "/home/u/src/billing"
    assert "rm -rf" not in task.model_dump_json()


def test_codex_session_both_formats(isolated_home: Path) -> None:
    task = read_codex_session(write_codex(isolated_home, "s1", codex_lines("s1", "Always run make lint", "Done.")))
    assert task is not None and task.id == "codex:s1" and not task.running
    assert task.user_messages == ["Always run make lint"] and task.final_reply == "Done."
    assert "delete everything" not in task.model_dump_json() and "environment_context" not in task.model_dump_json()
    legacy = [
        {"id": "old-1", "timestamp": "2025-05-01T09:00:00Z", "instructions": None},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Prefer rg over grep"}]},
        {"type": "function_call_output", "call_id": "x", "output": "noise"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "OK"}]},
    ]
    old = read_codex_session(write_codex(isolated_home, "old", legacy))
    assert old is not None and old.id == "codex:old-1" and old.user_messages == ["Prefer rg over grep"]
    assert old.final_reply == "OK" and not old.running


def test_running_tasks_are_not_read_and_the_cursor_waits_for_them(isolated_home: Path) -> None:
    roots = {
        "claude_code": str(isolated_home / ".claude" / "projects"),
        "codex": str(isolated_home / ".codex" / "sessions"),
    }
    write_claude_session(
        isolated_home, "done1", claude_lines("done1", ["first task"], "ok", start="2025-06-01T10:00:00Z")
    )
    write_claude_session(
        isolated_home, "busy", claude_lines("busy", ["second task"], None, start="2025-06-01T11:00:00Z")
    )
    write_claude_session(
        isolated_home, "done2", claude_lines("done2", ["third task"], "ok", start="2025-06-01T12:00:00Z")
    )
    write_claude_session(
        isolated_home, "fresh", claude_lines("fresh", ["fourth"], "ok", start="2025-06-01T13:00:00Z"), age_s=5
    )
    tasks, cursor = read_tasks(roots, {})
    assert [t.id for t in tasks] == ["claude_code:done1"]  # never past the running one
    # the running task finishes; the next read starts after the cursor
    write_claude_session(
        isolated_home, "busy", claude_lines("busy", ["second task"], "ok", start="2025-06-01T11:00:00Z")
    )
    tasks, cursor2 = read_tasks(roots, cursor)
    assert [t.id for t in tasks] == ["claude_code:done2", "claude_code:busy"]  # newest first
    assert cursor2["claude_code"] > cursor["claude_code"]


def test_no_memory_sessions_are_left_out_but_passed(isolated_home: Path) -> None:
    roots = {"claude_code": str(isolated_home / ".claude" / "projects")}
    write_claude_session(isolated_home, "p", claude_lines("p", ["my bank pin is 1234 <no-memory>"], "ok"))
    tasks, cursor = read_tasks(roots, {})
    assert tasks == [] and cursor["claude_code"].startswith("2025-06-01T10:00:00")


def test_each_task_is_read_by_one_dream_only(repo_path: Path, isolated_home: Path) -> None:
    store = make_repo(repo_path)
    write_claude_session(isolated_home, "t1", claude_lines("t1", ["Use pnpm"], "ok"))
    first = Dreamer(store).run()
    assert first.tasks == ["claude_code:t1"]
    second = Dreamer(store).run()
    assert second.tasks == []
    failed_cursor = json.loads((repo_path / ".git" / "memrepo" / "dream-state.json").read_text())["cursor"]
    assert failed_cursor["claude_code"].startswith("2025-06-01")
