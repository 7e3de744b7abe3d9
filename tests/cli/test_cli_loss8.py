"""Two small CLI gaps from breaker7 (loss8).

B7-11: `memrepo remember TEXT --scope workspace` in a project folder failed "--scope workspace needs
--workspace PATH|NAME", though the hooks and the MCP server take the folder you stand in. It now saves to
that folder's workspace (never to the memory repo's own folder).

B7-24: `setup claude-code --check` (and `--write` of either agent) said nothing about a memory repo that
does not exist; every hook then only printed "no memory repo here" on stderr, which the agent never shows.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.gitproject import make_project

from memrepo.cli.main import main


def cli(repo: Path, *args: str):
    return CliRunner().invoke(main, ["--repo", str(repo), *args])


def test_remember_scope_workspace_alone_takes_the_current_project(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "memory"
    assert cli(repo, "init").exit_code == 0
    shop = make_project(tmp_path / "proj" / "shop")
    (shop / "src").mkdir()
    monkeypatch.chdir(shop / "src")
    done = cli(repo, "remember", "The shop deploys with make ship", "--scope", "workspace")
    assert done.exit_code == 0, done.output
    assert "workspaces/shop.md" in done.output
    text = (repo / "workspaces" / "shop.md").read_text()
    assert f"path: {shop};" in text and "The shop deploys with make ship" in text
    monkeypatch.chdir(repo)  # the memory repo is no project: the option is still needed there
    refused = cli(repo, "remember", "Something else", "--scope", "workspace")
    assert refused.exit_code == 2 and "needs --workspace PATH|NAME here" in refused.output


def test_setup_claude_code_check_fails_for_a_repo_that_does_not_exist(tmp_path: Path, isolated_home: Path) -> None:
    missing = tmp_path / "nonexist"
    written = cli(missing, "setup", "claude-code", "--write")
    assert written.exit_code == 0 and f"make one with `memrepo init {missing}`" in written.output
    checked = cli(missing, "setup", "claude-code", "--check")
    assert checked.exit_code == 1
    assert "missing: memory repo: no memory repo here" in checked.output
    assert f"make the memory repo: memrepo init {missing}" in checked.output
    assert "configured for Claude Code" not in checked.output


def test_setup_codex_write_names_a_repo_that_does_not_exist(tmp_path: Path, isolated_home: Path) -> None:
    missing = tmp_path / "nonexist"
    written = cli(missing, "setup", "codex", "--write")
    assert (
        written.exit_code == 0
        and f"note: memory repo: no memory repo here; make one with `memrepo init {missing}`" in (written.output)
    )
