"""The MCP server started in the home folder files a workspace write in the global files, as the hooks do
(breaker30 B30-26; ``engine.format.paths.session_workspace``): no ``workspaces/<home>.md`` that no project's
session reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.mcp_helpers import call_in, mcp_in_process
from helpers.repo_helpers import plain_settings

from memrepo.engine.repo.store import MemoryStore


async def test_a_workspace_write_from_the_home_folder_goes_to_the_global_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    project = home / "projects" / "shop"
    project.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    root = tmp_path / "memory"
    MemoryStore.open(root, plain_settings()).close()
    async with mcp_in_process(root, home) as server:
        err, text = await call_in(
            server, "memory_remember", content="The team offsite is in Lisbon in March", kind="fact", scope="workspace"
        )
        assert not err and "repo:me.md#L" in text, text
        err, text = await call_in(server, "memory_recall", query="where is the team offsite")
        assert not err and "Lisbon" in text, text
        err, text = await call_in(  # a project folder given as the call's cwd is still its workspace
            server,
            "memory_remember",
            content="The shop deploys from main",
            kind="fact",
            scope="workspace",
            cwd=str(project),
        )
        assert not err and "repo:workspaces/shop.md#L" in text, text
    assert not [p.name for p in (root / "workspaces").glob("home*.md")]


async def test_a_cwd_through_a_symlink_is_its_real_folders_workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """breaker31 B31-18: the call's ``cwd`` ``~/work/shop`` (``~/work`` -> ``~/projects``) started a second file."""
    home = tmp_path / "home"
    project = home / "projects" / "shop"
    project.mkdir(parents=True)
    (home / "work").symlink_to(home / "projects")
    monkeypatch.setenv("HOME", str(home))
    root = tmp_path / "memory"
    MemoryStore.open(root, plain_settings()).close()
    async with mcp_in_process(root, home) as server:
        for content, cwd in (
            ("The shop deploys from main", project),
            ("The shop runs on Render", home / "work" / "shop"),
        ):
            err, text = await call_in(
                server, "memory_remember", content=content, kind="fact", scope="workspace", cwd=str(cwd)
            )
            assert not err and "repo:workspaces/shop.md#L" in text, text
    files = list((root / "workspaces").glob("*.md"))
    assert [p.name for p in files] == ["shop.md"]
    text = files[0].read_text(encoding="utf-8")
    assert "deploys from main" in text and "runs on Render" in text
