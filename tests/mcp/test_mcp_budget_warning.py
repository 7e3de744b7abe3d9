"""The MCP write tool says when the user's rules no longer fit the context block (docs/architecture.md §4)."""

from __future__ import annotations

from pathlib import Path

from helpers.mcp_helpers import call, mcp_session
from helpers.repo_helpers import plain_settings

from memrepo.engine.repo.store import MemoryStore


async def test_memory_remember_names_the_user_rules_the_block_leaves_out(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    store = MemoryStore.open(mem, plain_settings())
    project = tmp_path / "project"
    project.mkdir()
    async with mcp_session(mem, project) as s:
        err, text = await call(
            s, "memory_remember", content="pytest -x stops at the first failure", kind="lesson", scope="global"
        )
        assert not err and text.startswith("added repo:lessons.md#L") and "warning" not in text  # control: all fit
        rules = "".join(
            f"- Never run the cleanup job number {i} of the nightly pipeline by hand [by: user; kind: rule]\n"
            for i in range(40)
        )
        lessons = mem / "lessons.md"
        lessons.write_text(lessons.read_text() + rules)
        store.commit_hand_edits()
        err, text = await call(
            s, "memory_remember", content="ruff --fix rewrites imports too", kind="lesson", scope="global"
        )
    assert not err and text.startswith("added repo:lessons.md#L")
    assert "\nwarning: lessons.md is past its 250-token context budget" in text
    assert "of the user's rules" in text
