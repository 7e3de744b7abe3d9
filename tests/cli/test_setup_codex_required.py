"""``memrepo setup codex`` advises ``required = true`` for the MCP server (breaker5 B5-10).

Codex's ``codex exec`` sends its first model request without waiting for MCP servers, unless a
server is marked ``required`` (Codex's ``McpServerConfig.required``): then it waits for that
server's ``initialize`` and ``tools/list``. The printed setup says so, and ``--check`` notes a
server that is not required, without failing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine.repo.store import MemoryStore


def _config(codex: Path, repo: Path, extra: str = "") -> None:
    codex.mkdir(exist_ok=True)
    (codex / "config.toml").write_text(
        f'[mcp_servers.memrepo]\ncommand = "{sys.executable}"\n'
        f'args = ["-m", "memrepo.cli.main", "--repo", "{repo}", "mcp"]\n{extra}',
        encoding="utf-8",
    )
    (codex / "AGENTS.md").write_text("", encoding="utf-8")


def test_setup_codex_advises_required_and_check_notes_its_absence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    codex = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(codex))
    printed = CliRunner().invoke(main, ["--repo", str(store.root), "setup", "codex"])
    assert printed.exit_code == 0 and "`required = true` under [mcp_servers.memrepo]" in printed.output
    _config(codex, store.root)
    assert CliRunner().invoke(main, ["--repo", str(store.root), "setup", "codex", "--write"]).exit_code == 0
    done = CliRunner().invoke(main, ["--repo", str(store.root), "setup", "codex", "--check"])
    assert done.exit_code == 0, done.output  # a note, not a failure
    assert f"note: add `required = true` under [mcp_servers.memrepo] in {codex / 'config.toml'}" in done.output
    _config(codex, store.root, "required = true\n")
    assert CliRunner().invoke(main, ["--repo", str(store.root), "setup", "codex", "--write"]).exit_code == 0
    again = CliRunner().invoke(main, ["--repo", str(store.root), "setup", "codex", "--check"])
    assert again.exit_code == 0 and "note:" not in again.output, again.output
