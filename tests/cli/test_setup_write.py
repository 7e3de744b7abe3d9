"""Connecting an agent in two commands (issue 34 item 1): ``memrepo setup claude-code --write`` and
``memrepo setup codex [--write|--check]``.

Claude Code: ``claude mcp add`` registers the server; ``setup claude-code --write`` puts memrepo's
hooks in ``~/.claude/settings.json``, keeping every other setting and hook, the old file beside it.
Codex: ``codex mcp add`` registers the server; ``setup codex --write`` adds the memory line to
``~/.codex/AGENTS.md``. Each ``--check`` then passes. The MCP registrations are written here in the
format each agent's own ``mcp add`` writes (the CLIs are not installed on every test machine).
"""

from __future__ import annotations

import json
import shlex
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import plain_settings
from test_claude_code import check, claude_mcp_add, printed_setup
from test_claude_code import world as world  # the fixture

from memrepo.cli.main import main
from memrepo.engine.repo.store import MemoryStore


def invoke(repo: Path, *args: str) -> object:
    return CliRunner().invoke(main, ["--repo", str(repo), *args])


def test_claude_code_write_adds_the_hooks_and_keeps_everything_else(world, monkeypatch: pytest.MonkeyPatch) -> None:
    store, project, home = world
    add, hooks, _servers = printed_setup(store.root, monkeypatch, home)
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    theirs = {"type": "command", "command": "notify-send done"}
    old_memrepo = {"type": "command", "command": "memrepo --repo /elsewhere hook stop", "async": True}
    before = {"model": "opus", "permissions": {"allow": ["Bash(ls)"]}, "hooks": {"Stop": [{"hooks": [theirs]}]}}
    before["hooks"]["SessionEnd"] = [{"hooks": [old_memrepo, theirs]}]
    settings.write_text(json.dumps(before))
    old_bytes = settings.read_bytes()

    done = invoke(store.root, "setup", "claude-code", "--write")
    assert done.exit_code == 0, done.output
    after = json.loads(settings.read_text())
    assert after["model"] == "opus" and after["permissions"] == before["permissions"]
    assert after["hooks"]["Stop"] == [{"hooks": [theirs]}, *hooks["Stop"]]
    assert after["hooks"]["SessionEnd"] == [{"hooks": [theirs]}, *hooks["SessionEnd"]]  # the old memrepo hook replaced
    assert after["hooks"]["SessionStart"] == hooks["SessionStart"]
    assert (settings.parent / "settings.json.bak").read_bytes() == old_bytes
    assert invoke(store.root, "setup", "claude-code", "--write").exit_code == 0  # again: nothing doubled
    assert json.loads(settings.read_text()) == after

    claude_mcp_add(add, home, project)
    checked = check(store.root, project)
    assert checked.exit_code == 0, checked.output


def test_claude_code_write_leaves_a_file_it_cannot_read_alone(world, monkeypatch: pytest.MonkeyPatch) -> None:
    store, _project, home = world
    monkeypatch.setenv("HOME", str(home))
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": "opus",')  # a half-edited file
    done = invoke(store.root, "setup", "claude-code", "--write")
    assert done.exit_code == 1
    assert len(done.stderr.splitlines()) == 1 and "not JSON" in done.stderr
    assert settings.read_text() == '{"model": "opus",'
    assert not (settings.parent / "settings.json.bak").exists()


def _codex_mcp_add(codex: Path, line: str) -> None:
    """What ``codex mcp add NAME -- CMD ARGS`` writes: ``[mcp_servers.NAME]`` in ``$CODEX_HOME/config.toml``."""
    argv = shlex.split(line)
    assert argv[:4] == ["codex", "mcp", "add", "memrepo"] and argv[4] == "--"
    command, *args = argv[5:]
    codex.mkdir(exist_ok=True)
    (codex / "config.toml").write_text(
        f"[mcp_servers.memrepo]\ncommand = {json.dumps(command)}\nargs = {json.dumps(args)}\n"
    )


def test_codex_in_two_commands_then_check_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    codex = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(codex))
    printed = invoke(store.root, "setup", "codex")
    assert printed.exit_code == 0, printed.output
    add = next(line for line in printed.output.splitlines() if line.startswith("codex mcp add"))
    assert Path(shlex.split(add)[5]).is_absolute() and shlex.split(add)[-3:] == ["--repo", str(store.root), "mcp"]
    before = invoke(store.root, "setup", "codex", "--check")
    assert before.exit_code == 1 and before.output.count("missing:") == 3  # server, AGENTS.md, SessionStart hook

    _codex_mcp_add(codex, add)
    (codex / "AGENTS.md").write_text("# My rules\n\n- Answer briefly.")
    done = invoke(store.root, "setup", "codex", "--write")
    assert done.exit_code == 0, done.output
    text = (codex / "AGENTS.md").read_text()
    assert text.startswith("# My rules\n\n- Answer briefly.\n") and "`memory_context`" in text
    assert invoke(store.root, "setup", "codex", "--write").exit_code == 0
    assert (codex / "AGENTS.md").read_text() == text  # added once
    server = tomllib.loads((codex / "config.toml").read_text())["mcp_servers"]["memrepo"]
    assert server["args"][-1] == "mcp"
    after = invoke(store.root, "setup", "codex", "--check")
    assert after.exit_code == 0, after.output
    assert "configured for Codex" in after.output


def test_codex_check_names_a_server_for_another_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    codex = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(codex))
    _codex_mcp_add(codex, "codex mcp add memrepo -- /usr/bin/memrepo --repo /elsewhere mcp")
    done = invoke(store.root, "setup", "codex", "--check")
    assert done.exit_code == 1 and "/elsewhere" in done.output


def test_check_after_write_ends_with_the_step_that_is_left(world, monkeypatch: pytest.MonkeyPatch) -> None:
    """Breaker3 F9: after --write only the MCP server was missing, yet --check ended with "run `memrepo setup
    claude-code` to see the entries to add" (the hooks). Its last line now names what is left to do."""
    store, project, home = world
    add, _hooks, _servers = printed_setup(store.root, monkeypatch, home)
    assert invoke(store.root, "setup", "claude-code", "--write").exit_code == 0
    done = check(store.root, project)
    assert done.exit_code == 1
    last = done.output.splitlines()[-1]
    user_scope = shlex.join(add).replace("claude mcp add ", "claude mcp add --scope user ", 1)
    assert last == f"add the MCP server: {user_scope}", done.output
    assert "setup claude-code" not in last

    claude_mcp_add(add, home, project)  # the server, and no hooks: the hooks' step alone
    (home / ".claude" / "settings.json").write_text("{}")
    done = check(store.root, project)
    assert done.exit_code == 1
    assert done.output.splitlines()[-1].startswith("add the hooks: `memrepo setup claude-code --write`")
    assert "add the MCP server" not in done.output


def test_codex_check_says_when_the_servers_command_does_not_exist(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """breaker5 B5-18: a config naming a memrepo that is gone (a moved venv) passed --check, and Codex then ran
    with no memory tools and said nothing. --check now names the missing command and fails."""
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    codex = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(codex))
    (codex).mkdir()
    (codex / "AGENTS.md").write_text("")
    assert invoke(store.root, "setup", "codex", "--write").exit_code == 0
    gone = tmp_path / "nowhere" / "memrepo"
    _codex_mcp_add(
        codex, shlex.join(["codex", "mcp", "add", "memrepo", "--", str(gone), "--repo", str(store.root), "mcp"])
    )
    done = invoke(store.root, "setup", "codex", "--check")
    assert done.exit_code == 1, done.output
    assert f"its command {gone} does not exist" in done.output and "configured for Codex" not in done.output
    not_exec = tmp_path / "bin" / "memrepo"
    not_exec.parent.mkdir()
    not_exec.write_text("#!/bin/sh\n")
    _codex_mcp_add(
        codex, shlex.join(["codex", "mcp", "add", "memrepo", "--", str(not_exec), "--repo", str(store.root), "mcp"])
    )
    assert "is not executable" in invoke(store.root, "setup", "codex", "--check").output
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    _codex_mcp_add(
        codex, shlex.join(["codex", "mcp", "add", "memrepo", "--", "memrepo", "--repo", str(store.root), "mcp"])
    )
    bare = invoke(store.root, "setup", "codex", "--check")
    assert bare.exit_code == 1 and "its command memrepo is not on PATH" in bare.output
    not_exec.chmod(0o755)
    _codex_mcp_add(
        codex, shlex.join(["codex", "mcp", "add", "memrepo", "--", str(not_exec), "--repo", str(store.root), "mcp"])
    )
    fixed = invoke(store.root, "setup", "codex", "--check")
    assert fixed.exit_code == 0 and "configured for Codex" in fixed.output, fixed.output
