"""Claude Code end to end (issue 15 item 1): the hooks memrepo prints, their JSON, and ``setup --check``.

The payloads are the ones Claude Code's hooks reference documents: every event carries
``session_id``, ``transcript_path``, ``cwd`` and ``hook_event_name``; SessionStart adds ``source``
(startup, resume, clear, compact), UserPromptSubmit ``prompt``, Stop ``stop_hook_active``. What a
SessionStart or UserPromptSubmit command prints as ``{"hookSpecificOutput": {"hookEventName": ...,
"additionalContext": ...}}`` is added to the session.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from filelock import FileLock
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

ROOT = Path(__file__).resolve().parents[2]


def hook(repo: Path, sub: str, payload: object, home: Path) -> subprocess.CompletedProcess:
    """Run ``memrepo --repo REPO hook SUB`` as Claude Code does: a process, the JSON on stdin."""
    env = dict(os.environ, HOME=str(home), PYTHONPATH=str(ROOT), MEMREPO_CONFIG=str(home / "none.toml"))
    data = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), "hook", sub],
        input=data,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.fixture
def world(tmp_path: Path) -> tuple[MemoryStore, Path, Path]:
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "shop"
    project.mkdir()
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text="Always answer in metric units", pin=True, by="user"))
    store.remember(Candidate(text="Prefers short answers", kind="preference", by="user"))
    store.remember(Candidate(text="The shop deploys with make ship", scope="workspace", workspace=str(project)))
    return store, project, home


def session_start_payload(project: Path, tmp_path: Path) -> dict:
    return {
        "session_id": "abc123",
        "transcript_path": str(tmp_path / "abc123.jsonl"),
        "cwd": str(project),
        "hook_event_name": "SessionStart",
        "source": "startup",
        "model": "claude-sonnet-4-5",
    }


def test_session_start_prints_the_context_block_for_its_cwd(world, tmp_path: Path) -> None:
    store, project, home = world
    done = hook(store.root, "session-start", session_start_payload(project, tmp_path), home)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"hookSpecificOutput"}
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    context = out["hookSpecificOutput"]["additionalContext"]
    assert (
        context == MemoryStore.open(store.root, plain_settings()).context(str(project)).text
    )  # the block for the hook's cwd
    for text in ("Always answer in metric units", "Prefers short answers", "make ship"):
        assert text in context, text
    assert "[[me]]" not in context  # the block shows me.md itself: its index line is left out
    from memrepo.engine.read.readcount import load_counts

    counts = load_counts(store.root / ".git")  # memrepo stats sees the session read memory
    assert counts["sessions"] == {"hook": 1} and counts["sessions_read"] == {"hook": 1}
    assert counts["reads"] == {"context": 1}


def test_session_start_never_fails_the_session(world, tmp_path: Path) -> None:
    store, project, home = world
    for bad in ("", "not json", "[1]", json.dumps({"cwd": 5})):
        done = hook(store.root, "session-start", bad, home)
        assert done.returncode == 0 and done.stdout == "", (bad, done.stdout)
    missing = hook(tmp_path / "no-repo", "session-start", session_start_payload(project, tmp_path), home)
    assert missing.returncode == 0 and missing.stdout == "" and missing.stderr.startswith("memrepo: ")


def test_prompt_hook_adds_a_few_recall_hits_within_a_small_budget(world, tmp_path: Path) -> None:
    store, project, home = world
    for i in range(20):
        store.remember(
            Candidate(
                text=f"Deploy note {i}: ship needs the VPN " + "x" * 300, scope="workspace", workspace=str(project)
            )
        )
    payload = {
        "session_id": "abc123",
        "transcript_path": str(tmp_path / "t.jsonl"),
        "cwd": str(project),
        "permission_mode": "default",
        "hook_event_name": "UserPromptSubmit",
        "prompt": "how do we deploy and ship?",
    }
    done = hook(store.root, "prompt", payload, home)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "UserPromptSubmit"
    text = out["additionalContext"]
    assert text.startswith("<memory_recall>") and text.rstrip().endswith("</memory_recall>")
    hits = [line for line in text.splitlines() if line.startswith("repo:")]
    assert 1 <= len(hits) <= 3 and len(text.encode()) <= 1_500 + 300
    nothing = hook(store.root, "prompt", {**payload, "prompt": "zzqx unrelated"}, home)
    assert nothing.returncode == 0 and nothing.stdout == ""


def claude_transcript(path: Path, cwd: Path) -> None:
    base = {
        "sessionId": "abc123",
        "cwd": str(cwd),
        "isSidechain": False,
        "userType": "external",
        "version": "2.1.12",
        "timestamp": "2026-12-01T10:00:00.000Z",
    }
    lines = [
        {
            **base,
            "type": "user",
            "uuid": "u1",
            "parentUuid": None,
            "message": {"role": "user", "content": "Remember that the shop's staging host is staging.internal"},
        },
        {
            **base,
            "type": "assistant",
            "uuid": "a1",
            "parentUuid": "u1",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "Noted the staging host."}]},
        },
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")


def _buffered(store: MemoryStore) -> str:
    folder = store.state_dir / "checkpoints"
    return "".join(p.read_text(encoding="utf-8") for p in folder.glob("*.json")) if folder.is_dir() else ""


def test_stop_hook_returns_before_the_checkpoint_and_the_checkpoint_lands(world, tmp_path: Path) -> None:
    store, project, home = world
    transcript = tmp_path / "abc123.jsonl"
    claude_transcript(transcript, project)
    payload = {
        "session_id": "abc123",
        "transcript_path": str(transcript),
        "cwd": str(project),
        "permission_mode": "default",
        "hook_event_name": "Stop",
        "stop_hook_active": False,
    }
    lock = FileLock(str(store.state_dir / "checkpoints.lock"))
    with lock:  # the checkpoint cannot finish while this is held, yet the hook returns
        done = hook(store.root, "stop", payload, home)
        assert done.returncode == 0 and done.stdout == "", done.stderr
        assert "staging.internal" not in _buffered(store)
    deadline = time.monotonic() + 60
    while "staging.internal" not in _buffered(store) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert "staging.internal" in _buffered(store)


# -- setup and --check ---------------------------------------------------------------


def printed_setup(repo: Path, monkeypatch: pytest.MonkeyPatch, home: Path) -> tuple[list[str], dict, dict]:
    monkeypatch.setenv("HOME", str(home))
    done = CliRunner().invoke(main, ["--repo", str(repo), "setup", "claude-code"])
    assert done.exit_code == 0, done.output
    add = next(line for line in done.output.splitlines() if line.startswith("claude mcp add memrepo"))
    body = "\n".join(line for line in done.output.splitlines() if not line.startswith(("#", "claude ")))
    decoder, merged, pos = json.JSONDecoder(), {}, 0
    while (start := body.find("{", pos)) != -1:
        obj, pos = decoder.raw_decode(body, start)
        merged.update(obj)
    return shlex.split(add), merged["hooks"], merged["mcpServers"]


def claude_mcp_add(argv: list[str], home: Path, project: Path) -> None:
    """What ``claude mcp add NAME -- CMD ARGS`` writes with its default (local) scope: ~/.claude.json projects."""
    assert argv[:3] == ["claude", "mcp", "add"] and "--" in argv and "--scope" not in argv
    name, command = argv[3], argv[argv.index("--") + 1 :]
    config = home / ".claude.json"
    data = json.loads(config.read_text()) if config.exists() else {"numStartups": 3, "projects": {}}
    entry = data["projects"].setdefault(str(project), {"allowedTools": [], "mcpServers": {}})
    entry["mcpServers"][name] = {"type": "stdio", "command": command[0], "args": command[1:], "env": {}}
    config.write_text(json.dumps(data))


def check(repo: Path, project: Path) -> object:
    return CliRunner().invoke(main, ["--repo", str(repo), "setup", "claude-code", "--check", "--project", str(project)])


def test_check_passes_on_what_setup_printed(world, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: --check read one file for both, so it could never pass where Claude Code keeps them."""
    store, project, home = world
    add, hooks, servers = printed_setup(store.root, monkeypatch, home)
    assert Path(add[add.index("--") + 1]).is_absolute() and add[-3:] == ["--repo", str(store.root.resolve()), "mcp"]
    assert set(hooks) == {"SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"}
    assert hooks["Stop"][0]["hooks"][0]["async"] is True and hooks["SessionEnd"][0]["hooks"][0]["async"] is True
    assert all(Path(shlex.split(g[0]["hooks"][0]["command"])[0]).is_absolute() for g in hooks.values())
    assert not (home / ".claude").exists() and not (home / ".claude.json").exists()  # setup never writes
    claude_mcp_add(add, home, project)
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text(json.dumps({"model": "opus", "hooks": hooks}))
    done = check(store.root, project)
    assert done.exit_code == 0, done.output
    assert "missing" not in done.output and "configured" in done.output
    assert f"ok: MCP server: {home / '.claude.json'} projects[{project}]" in done.output
    # the .mcp.json form passes too, and so does the user scope
    (home / ".claude.json").unlink()
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    assert check(store.root, project).exit_code == 0
    (project / ".mcp.json").unlink()
    (home / ".claude.json").write_text(json.dumps({"mcpServers": servers, "projects": {}}))
    assert check(store.root, project).exit_code == 0


def test_the_printed_hooks_really_run(world, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    store, project, home = world
    _add, hooks, _servers = printed_setup(store.root, monkeypatch, home)
    command = hooks["SessionStart"][0]["hooks"][0]["command"]
    env = dict(os.environ, HOME=str(home), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        command,
        shell=True,
        input=json.dumps(session_start_payload(project, tmp_path)),
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=project,
    )
    assert done.returncode == 0, done.stderr
    assert "make ship" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_check_says_precisely_what_is_missing(world, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    store, project, home = world
    add, hooks, servers = printed_setup(store.root, monkeypatch, home)
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    # the old advice: mcpServers and the hooks in one settings.json, Stop without SessionStart, run synchronously
    old = {
        "hooks": {
            "Stop": [
                {
                    "hooks": [
                        {
                            "type": "command",
                            "timeout": 60,
                            "command": f"memrepo --repo {store.root} checkpoint --from-claude-hook",
                        }
                    ]
                }
            ]
        },
        "mcpServers": servers,
    }
    settings.write_text(json.dumps(old))
    done = check(store.root, project)
    assert done.exit_code == 1
    lines = done.output.splitlines()
    mcp = next(line for line in lines if line.startswith("missing: MCP server"))
    assert "settings.json has mcpServers, but Claude Code reads MCP servers only from .mcp.json" in mcp
    user_scope = shlex.join(add).replace("claude mcp add ", "claude mcp add --scope user ", 1)
    assert user_scope in mcp  # the command that fixes it, with the README's scope (every project)
    assert any(line.startswith("missing: hooks.SessionStart: no `") for line in lines)
    assert any(line.startswith("missing: hooks.SessionEnd") for line in lines)
    assert any("hooks.Stop" in line and '"async": true' in line for line in lines)
    assert any(line.startswith("ok: hooks.UserPromptSubmit: not set (optional") for line in lines)
    # a server for another repo is named as such
    claude_mcp_add([*add[:-3], "--repo", str(tmp_path / "other"), "mcp"], home, project)
    settings.write_text(json.dumps({"hooks": hooks}))
    done = check(store.root, project)
    assert done.exit_code == 1
    assert f"runs memrepo mcp for {tmp_path / 'other'}, not {store.root.resolve()}" in done.output
    assert "hooks." not in done.output.replace("ok: hooks.", "")


def test_check_reads_settings_safely(world, monkeypatch: pytest.MonkeyPatch) -> None:
    store, project, home = world
    printed_setup(store.root, monkeypatch, home)
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").symlink_to("/dev/zero")  # never read without bound
    (home / ".claude.json").write_text("{not json")
    done = check(store.root, project)
    assert done.exit_code == 1
    assert "not a regular file" in done.stderr and "cannot read" in done.stderr and ".claude.json" in done.stderr


def test_checkpoint_from_a_hook_reads_the_transcript_incrementally(world, tmp_path: Path) -> None:
    store, project, _home = world
    transcript = tmp_path / "long.jsonl"
    base = {"sessionId": "long", "cwd": str(project), "isSidechain": False, "timestamp": "2026-12-01T10:00:00.000Z"}

    def turn(n: int) -> str:
        user = {**base, "type": "user", "uuid": f"u{n}", "message": {"role": "user", "content": f"Question {n}"}}
        reply = {
            **base,
            "type": "assistant",
            "uuid": f"a{n}",
            "message": {"role": "assistant", "content": [{"type": "text", "text": f"Answer {n}"}]},
        }
        return json.dumps(user) + "\n" + json.dumps(reply) + "\n"

    transcript.write_text(turn(1) + turn(2), encoding="utf-8")
    payload = json.dumps(
        {
            "session_id": "long",
            "transcript_path": str(transcript),
            "cwd": str(project),
            "hook_event_name": "Stop",
            "stop_hook_active": False,
        }
    )
    first = CliRunner().invoke(main, ["--repo", str(store.root), "checkpoint", "--from-claude-hook"], input=payload)
    assert first.exit_code == 0 and "4 new, 0 seen before" in first.output, first.output
    offsets = json.loads((store.state_dir / "hook-offsets.json").read_text())
    assert 0 < offsets["long"]["offset"] < transcript.stat().st_size
    with transcript.open("a", encoding="utf-8") as fh:
        fh.write(turn(3))
    again = CliRunner().invoke(main, ["--repo", str(store.root), "checkpoint", "--from-claude-hook"], input=payload)
    # read from the last turn on: turn 2 again (it might have grown), turn 3 new; turn 1 not re-read
    assert again.exit_code == 0 and "2 new, 2 seen before" in again.output, again.output
