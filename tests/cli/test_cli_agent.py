"""``memrepo checkpoint`` (Claude Code hook and stdin JSON) (docs/architecture.md §7); setup and the hooks: test_claude_code.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers.repo_helpers import git, plain_settings

from memrepo.cli.main import main
from memrepo.engine.agents.transcripts import read_claude_messages
from memrepo.engine.repo.store import MemoryStore

SESSION = "5f0c2a9e-claude"


def run(repo: Path, *args: str, stdin: str = "") -> Result:
    return CliRunner().invoke(main, ["--repo", str(repo), *args], input=stdin, catch_exceptions=True)


def transcript(tmp_path: Path, cwd: Path) -> Path:
    """A Claude Code transcript: two finished turns (one with a tool round trip), one still running."""
    base = {"sessionId": SESSION, "cwd": str(cwd), "timestamp": "2026-11-30T10:00:00Z", "isSidechain": False}

    def line(kind: str, uid: str, content: object, **extra: object) -> dict:
        return {**base, "type": kind, "uuid": uid, "message": {"role": kind, "content": content}, **extra}

    lines = [
        {"type": "summary", "summary": "Fix the deploy"},
        line("user", "u1", "Remember that deploys need the VPN. Can you check the deploy script?"),
        line(
            "assistant",
            "a1a",
            [
                {"type": "text", "text": "Let me look."},
                {"type": "tool_use", "id": "t1", "name": "Read", "input": {"path": "x"}},
            ],
        ),
        line("user", "t1r", [{"type": "tool_result", "tool_use_id": "t1", "content": "PLANTED TOOL OUTPUT"}]),
        line("assistant", "a1b", [{"type": "text", "text": "The script looks fine."}]),
        line("user", "m1", "<command-name>/clear</command-name>", isMeta=True),
        line("assistant", "side", [{"type": "text", "text": "sub-agent chatter"}], isSidechain=True),
        line("user", "u2", [{"type": "text", "text": "Thanks. What port does staging use?"}]),
        line("assistant", "a2", [{"type": "text", "text": "Staging uses port 8443."}]),
        line("user", "u3", "Now run the tests"),
        line("assistant", "a3", [{"type": "tool_use", "id": "t2", "name": "Bash", "input": {"cmd": "pytest"}}]),
    ]
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines) + '{"half-written', encoding="utf-8")
    return path


def test_transcript_reader_keeps_completed_turns_without_tool_output(tmp_path: Path) -> None:
    msgs = read_claude_messages(transcript(tmp_path, tmp_path), SESSION)
    assert [(m["id"], m["role"]) for m in msgs] == [
        ("u1", "user"),
        ("a1b", "assistant"),
        ("u2", "user"),
        ("a2", "assistant"),
    ]
    assert "PLANTED" not in json.dumps(msgs) and "sub-agent" not in json.dumps(msgs)


def test_claude_hook_stop_buffers_and_session_end_distils(repo_path: Path, tmp_path: Path) -> None:
    MemoryStore.open(repo_path, plain_settings())
    project = tmp_path / "shop"
    project.mkdir()
    hook = {
        "session_id": SESSION,
        "transcript_path": str(transcript(tmp_path, project)),
        "cwd": str(project),
        "hook_event_name": "Stop",
        "stop_hook_active": False,
    }
    result = run(repo_path, "checkpoint", "--from-claude-hook", "--json", stdin=json.dumps(hook))
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["status"] == "buffered" and out["accepted"] == 4
    state = b"".join(p.read_bytes() for p in (repo_path / ".git" / "memrepo" / "checkpoints").glob("*"))
    assert b"PLANTED" not in state

    hook["hook_event_name"] = "SessionEnd"
    result = run(repo_path, "checkpoint", "--from-claude-hook", stdin=json.dumps(hook))
    assert result.exit_code == 0, result.output
    # read from where the Stop hook stopped (the running turn): nothing new, nothing re-read
    assert result.output.startswith("distilled: 0 new, 0 seen before") and "(stage: session_close)" in result.output
    text = (repo_path / "workspaces" / "shop.md").read_text()
    assert "Deploys need the VPN" in text and f"task: {SESSION}" in text
    # History names the agent, not the person's command line (which the hook runs): Origin agent_tool
    origins = git(repo_path, "log", "-1", "--format=%(trailers:key=Origin,valueonly)", "-G", "Deploys need the VPN")
    assert origins.strip() == "agent_tool"

    del hook["cwd"]  # a payload without cwd: the transcript's cwd is the workspace
    hook["hook_event_name"] = "Stop"
    done = json.loads(run(repo_path, "checkpoint", "--from-claude-hook", "--json", stdin=json.dumps(hook)).output)
    assert done["scope"] == out["scope"] != "global" and done["accepted"] == 0

    bad = run(repo_path, "checkpoint", "--from-claude-hook", stdin="{}")
    assert bad.exit_code == 1 and "session_id and transcript_path" in bad.output


def test_checkpoint_from_stdin_json(repo_path: Path, tmp_path: Path) -> None:
    msgs = [
        {"id": "1", "role": "user", "text": "Remember that I review PRs in the morning."},
        {"id": "2", "role": "assistant", "text": "Noted."},
    ]
    result = run(
        repo_path,
        "checkpoint",
        "--session",
        "h1",
        "--cwd",
        "",
        "--event",
        "task_end",
        stdin=json.dumps({"messages": msgs}),
    )
    assert result.exit_code == 0, result.output
    assert "I review PRs in the morning" in (repo_path / "me.md").read_text()
    assert run(repo_path, "checkpoint", "--session", "h1", stdin="[").exit_code == 2
    assert run(repo_path, "checkpoint", stdin="[]").exit_code == 2
    failed = run(repo_path, "checkpoint", "--session", "h1", stdin='[{"role": "robot", "text": "x"}]')
    assert failed.exit_code == 1 and "failed" in failed.output


def test_forget_session_removes_buffer_and_entries_and_refuses_it_later(repo_path: Path) -> None:
    done = run(
        repo_path,
        "checkpoint",
        "--session",
        "gone",
        "--cwd",
        "",
        "--event",
        "task_end",
        stdin=json.dumps([{"id": "1", "role": "user", "text": "Remember that my locker code is 4417."}]),
    )
    assert done.exit_code == 0, done.output
    run(
        repo_path,
        "checkpoint",
        "--session",
        "gone",
        "--cwd",
        "",
        stdin=json.dumps([{"id": "2", "role": "user", "text": "and the bike lock is blue"}]),
    )
    result = run(repo_path, "forget-session", "gone")
    assert result.exit_code == 0 and "1 buffered message(s) deleted" in result.output
    store = MemoryStore.open(repo_path, plain_settings(), create=False)
    assert store.recall("locker code") == [] and store.recall("bike lock") == []
    late = run(
        repo_path,
        "checkpoint",
        "--session",
        "gone",
        "--cwd",
        "",
        "--json",
        "--event",
        "force",
        stdin=json.dumps([{"id": "3", "role": "user", "text": "Remember that it is back."}]),
    )
    assert json.loads(late.output)["status"] == "forgotten"


def test_mcp_on_a_bad_repo_path_is_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    folder = tmp_path / "not-memory"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    done = subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(folder), "mcp"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"memrepo: the folder is not empty and is not a memory repo; give a new or empty folder to start one: {folder}"
    ]


def _hook_cli(repo: Path, hook: dict, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``memrepo checkpoint --from-claude-hook`` as a real subprocess (a hang fails by timeout, never blocks)."""
    return subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), "checkpoint", "--from-claude-hook"],
        input=json.dumps(hook),
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=Path(__file__).resolve().parents[2],
    )


@pytest.mark.slow
def test_hook_with_a_fifo_device_folder_or_missing_transcript_never_blocks(repo_path: Path, tmp_path: Path) -> None:
    import os

    MemoryStore.open(repo_path, plain_settings())
    fifo = tmp_path / "t.jsonl"
    os.mkfifo(fifo)
    folder = tmp_path / "dir.jsonl"
    folder.mkdir()
    cases = (
        (fifo, "not a regular file"),
        (Path("/dev/zero"), "not a regular file"),
        (folder, "is a folder"),
        (tmp_path / "gone.jsonl", f"transcript not found: {tmp_path / 'gone.jsonl'}"),
    )
    for path, why in cases:
        done = _hook_cli(
            repo_path,
            {"session_id": "s1", "transcript_path": str(path), "cwd": str(tmp_path), "hook_event_name": "Stop"},
            timeout=90,  # a hang guard: a blocked read never returns; a loaded machine starts the hook slowly
        )
        assert done.returncode == 0, (path, done.stderr)
        assert why in done.stderr and len(done.stderr.strip().splitlines()) == 1, (path, done.stderr)
    bad = run(
        repo_path,
        "checkpoint",
        "--from-claude-hook",
        stdin=json.dumps({"session_id": "s1", "transcript_path": str(fifo), "cwd": 5}),
    )
    assert bad.exit_code == 1 and "Traceback" not in bad.output
    assert bad.stderr.strip() == "memrepo: the hook JSON is invalid: cwd: Input should be a valid string"


def test_checkpoint_cli_reports_dropped_and_truncated(repo_path: Path) -> None:
    msgs = [{"id": f"m{i}", "role": "assistant", "text": "word " * 1_800} for i in range(12)]
    done = run(repo_path, "checkpoint", "--session", "s1", "--cwd", "", stdin=json.dumps(msgs))
    assert done.exit_code == 0, done.output
    assert "8 new, 0 seen before, 4 dropped, 8 truncated" in done.output
    assert "past the per-call budget of 65536 bytes" in done.output
