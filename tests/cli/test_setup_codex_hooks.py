"""``memrepo setup codex`` adds Codex's SessionStart and UserPromptSubmit hooks (docs/agents.md, "Codex").

Codex 0.171 reads hooks from ``$CODEX_HOME/hooks.json`` (``{"hooks": {event: [{"matcher"?, "hooks":
[{"type": "command", "command", "timeout"}]}]}}``) and ``[hooks]`` tables of ``config.toml``; it runs a
user's hook only once trusted (``[hooks.state."<file>:<event>:<group>:<handler>"] trusted_hash``, written by
``/hooks``). ``--write`` merges memrepo's two hooks into ``hooks.json``, keeping the user's others, once;
``--check`` names them, fails without SessionStart's, and says when no trust is recorded. The payloads below
are the ones Codex 0.171 wrote to a hook's stdin (captured with ``codex exec``), fed to memrepo's commands.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import plain_settings

from memrepo.cli.codexhooks import EVENT_KEY, codex_hook_hash
from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

ROOT = Path(__file__).resolve().parents[2]


def invoke(repo: Path, *args: str) -> object:
    return CliRunner().invoke(main, ["--repo", str(repo), *args])


def _server(codex: Path, repo: Path) -> None:
    codex.mkdir(exist_ok=True)
    (codex / "config.toml").write_text(
        f'[mcp_servers.memrepo]\ncommand = "{sys.executable}"\n'
        f'args = ["-m", "memrepo.cli.main", "--repo", "{repo}", "mcp"]\nrequired = true\n',
        encoding="utf-8",
    )


def test_write_adds_the_hooks_once_keeping_the_users_and_check_reports_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    codex = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(codex))
    _server(codex, store.root)
    mine = {"type": "command", "command": "notify-send started", "timeout": 5}
    (codex / "hooks.json").write_text(
        json.dumps({"description": "mine", "hooks": {"SessionStart": [{"matcher": "startup", "hooks": [mine]}]}})
    )
    before = invoke(store.root, "setup", "codex", "--check")
    assert before.exit_code == 1
    assert "missing: hooks.SessionStart: no `" in before.output and "hook session-start` in" in before.output

    done = invoke(store.root, "setup", "codex", "--write")
    assert done.exit_code == 0, done.output
    assert "/hooks" in done.output  # the trust step is said
    data = json.loads((codex / "hooks.json").read_text())
    assert data["description"] == "mine"
    starts = data["hooks"]["SessionStart"]
    assert starts[0] == {"matcher": "startup", "hooks": [mine]}
    ours = starts[1]["hooks"][0]
    assert ours["type"] == "command" and ours["timeout"] == 15
    assert ours["command"].endswith(f"--repo {store.root} hook session-start")
    assert data["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"].endswith(f"--repo {store.root} hook prompt")
    assert data["hooks"]["Stop"][0]["hooks"][0]["command"].endswith(f"--repo {store.root} hook stop")
    end = data["hooks"]["SessionEnd"][0]["hooks"][0]
    assert end["command"].endswith(f"--repo {store.root} hook session-end") and end["timeout"] == 3
    text = (codex / "hooks.json").read_text()
    assert invoke(store.root, "setup", "codex", "--write").exit_code == 0
    assert (codex / "hooks.json").read_text() == text  # idempotent: replaced in place, not added twice

    check = invoke(store.root, "setup", "codex", "--check")
    assert check.exit_code == 0, check.output
    assert f"ok: hooks.SessionStart: {codex / 'hooks.json'}" in check.output
    assert f"ok: hooks.UserPromptSubmit: {codex / 'hooks.json'}" in check.output
    assert f"ok: hooks.Stop: {codex / 'hooks.json'}" in check.output
    assert (
        "trust: no trust recorded" in check.output
        and "SessionStart, UserPromptSubmit, Stop, SessionEnd" in check.output
    )

    # what /hooks records once the user trusts them (the key: file, event label, group and handler index)
    trust(codex)
    trusted = invoke(store.root, "setup", "codex", "--check")
    assert trusted.exit_code == 0 and "trust:" not in trusted.output, trusted.output


def trust(codex: Path) -> None:
    """Record in ``config.toml`` the trust ``/hooks`` records for each of memrepo's hooks, with Codex's hash."""
    data = json.loads((codex / "hooks.json").read_text())
    with (codex / "config.toml").open("a", encoding="utf-8") as fh:
        for event, label in EVENT_KEY.items():
            for g, group in enumerate(data["hooks"][event]):
                if "memrepo" in group["hooks"][0]["command"]:
                    digest = codex_hook_hash(event, group.get("matcher"), group["hooks"][0])
                    fh.write(f'\n[hooks.state."{codex / "hooks.json"}:{label}:{g}:0"]\ntrusted_hash = "{digest}"\n')


# currentHash in Codex 0.171's `codex app-server` hooks/list for these hooks.json handlers (captured)
CODEX_HASHES = [
    (
        "SessionStart",
        None,
        {"type": "command", "command": "/x/memrepo --repo /r hook session-start", "timeout": 10},
        "sha256:370adf66ad9fdf46b7a1e9d3f8cbd82a39488f53922ea847db495ca216dd79ea",
    ),
    (
        "SessionStart",
        "startup",
        {"type": "command", "command": "echo a"},
        "sha256:0588171992daf828d979a2dd9b8f67b767d5f364f083cac779e85a2b39b42918",
    ),
    (
        "SessionEnd",
        None,
        {"type": "command", "command": "echo d", "timeout": 3},
        "sha256:119f554906f56ceefc7ff9736608c4e5a8a383a25f2816cce91d0434befb1bc6",
    ),
    (
        "UserPromptSubmit",
        "zz",
        {"type": "command", "command": "echo b", "timeout": 5, "statusMessage": "hi"},
        "sha256:13cac45522f5469031559567672369b3010f49b82a8debd891bba4fa13e4733a",
    ),
    (
        "Stop",
        None,
        {"type": "command", "command": "echo c", "timeout": 0, "async": True},
        "sha256:69e599c1cf8a0fa45e2308da0cc7cfaf33f79d06541c265dfe7683c5eec7362a",
    ),
]


@pytest.mark.parametrize(("event", "matcher", "handler", "expected"), CODEX_HASHES)
def test_the_trust_hash_is_codexs(event: str, matcher: str | None, handler: dict, expected: str) -> None:
    assert codex_hook_hash(event, matcher, handler) == expected


def test_check_says_a_trusted_hook_that_changed_must_be_trusted_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """breaker7 B7-14: Codex skips a trusted hook whose command changed ("modified"); --check said configured."""
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    codex = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(codex))
    _server(codex, store.root)
    assert invoke(store.root, "setup", "codex", "--write").exit_code == 0
    trust(codex)
    assert invoke(store.root, "setup", "codex", "--check").exit_code == 0
    data = json.loads((codex / "hooks.json").read_text())
    ours = data["hooks"]["SessionStart"][0]["hooks"][0]
    ours["command"] = ours["command"].replace(f"--repo {store.root}", f"--repo {store.root}/")  # another --write
    (codex / "hooks.json").write_text(json.dumps(data))
    check = invoke(store.root, "setup", "codex", "--check")
    assert check.exit_code == 1, check.output
    assert f"missing: hooks.SessionStart in {codex / 'hooks.json'}: modified: re-trust in /hooks" in check.output
    assert "ok: hooks.UserPromptSubmit" in check.output and "configured for Codex" not in check.output


def test_check_names_hooks_for_another_repo_and_reads_config_toml_hooks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    codex = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(codex))
    _server(codex, store.root)
    (codex / "AGENTS.md").write_text("`memory_context` from the memrepo MCP server")
    command = f"{sys.executable} -m memrepo.cli.main --repo /elsewhere hook session-start"
    with (codex / "config.toml").open("a", encoding="utf-8") as fh:
        fh.write(f'\n[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = "command"\ncommand = "{command}"\n')
    done = invoke(store.root, "setup", "codex", "--check")
    assert done.exit_code == 1
    assert f"missing: hooks.SessionStart in {codex / 'config.toml'}: runs memrepo for /elsewhere" in done.output
    assert "ok: hooks.UserPromptSubmit: not set (optional" in done.output


def _hook(repo: Path, sub: str, payload: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), "hook", sub],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(repo.parent)},
    )


def test_memrepos_hooks_answer_codexs_payloads_in_codexs_output_format(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text="Always answer in metric units", pin=True, by="user"))
    store.remember(Candidate(text="The shop deploys with make ship", by="user"))
    common = {
        "session_id": "01a2471d-d9d1-7b41-befb-5f39aad0c644",
        "transcript_path": str(tmp_path / "rollout-2026-12-05T16-51-08-01a2471d-d9d1-7b41-befb-5f39aad0c644.jsonl"),
        "cwd": str(tmp_path / "shop"),
        "model": "gpt-5.4",
        "permission_mode": "bypassPermissions",
    }
    start = _hook(store.root, "session-start", {**common, "hook_event_name": "SessionStart", "source": "startup"})
    assert start.returncode == 0, start.stderr
    out = json.loads(start.stdout)
    # Codex's session-start.command.output schema: additionalProperties false, hookEventName the const
    assert set(out) == {"hookSpecificOutput"} and set(out["hookSpecificOutput"]) == {
        "hookEventName",
        "additionalContext",
    }
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "Always answer in metric units" in out["hookSpecificOutput"]["additionalContext"]
    prompt = {
        **common,
        "turn_id": "01a2471d-d9ea-7960-a8f1-ecc0ffef2753",
        "hook_event_name": "UserPromptSubmit",
        "prompt": "How does the shop deploy?",
    }
    recall = _hook(store.root, "prompt", prompt)
    assert recall.returncode == 0, recall.stderr
    out = json.loads(recall.stdout)
    assert out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    assert "make ship" in out["hookSpecificOutput"]["additionalContext"]


def test_write_says_when_it_changed_a_trusted_hook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """B7-14: a re-run of --write from another install said "replaced" for every hook, trusted or not."""
    import memrepo.cli.setup as setup

    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    codex = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(codex))
    _server(codex, store.root)
    real = setup.memrepo_argv
    monkeypatch.setattr(setup, "memrepo_argv", lambda: ["/old/venv/bin/memrepo"])
    assert invoke(store.root, "setup", "codex", "--write").exit_code == 0
    trust(codex)
    same = invoke(store.root, "setup", "codex", "--write")
    assert same.exit_code == 0 and "changed trusted hooks" not in same.output, same.output
    # B30-23: a re-run that changes nothing says so, and asks for no review of hooks Codex trusts already
    assert "hooks.SessionStart: memrepo's hook unchanged" in same.output and "replaced" not in same.output
    assert "Codex trusts these hooks already" in same.output and "type /hooks" not in same.output, same.output
    monkeypatch.setattr(setup, "memrepo_argv", real)  # memrepo moved: its path in every command changes
    moved = invoke(store.root, "setup", "codex", "--write")
    assert moved.exit_code == 0, moved.output
    assert "changed trusted hooks SessionEnd, SessionStart, Stop, UserPromptSubmit: Codex skips them" in moved.output


def test_check_fails_when_the_memory_repo_does_not_exist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """breaker7 B7-24: --check said every part was ok and "configured for Codex" for a repo not made yet."""
    codex = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(codex))
    nowhere = tmp_path / "nonexist"
    _server(codex, nowhere)
    assert invoke(nowhere, "setup", "codex", "--write").exit_code == 0
    check = invoke(nowhere, "setup", "codex", "--check")
    assert check.exit_code == 1, check.output
    assert f"missing: memory repo: no memory repo here; make one with `memrepo init {nowhere}`" in check.output
    assert "configured for Codex" not in check.output
