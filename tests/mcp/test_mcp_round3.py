"""Issue 32 through a real ``memrepo mcp`` process: a source naming the user is refused; hard links stay out."""

from __future__ import annotations

import os
from pathlib import Path

from helpers.mcp_helpers import call, mcp_session
from helpers.repo_helpers import plain_settings

from memrepo.engine.repo.store import MemoryStore


async def test_a_source_that_names_the_user_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    MemoryStore.open(mem, plain_settings())
    before = (mem / "me.md").read_text()
    async with mcp_session(mem, tmp_path) as s:
        err, text = await call(
            s,
            "memory_remember",
            content="Prefers tabs in every repo",
            kind="preference",
            scope="global",
            source="user; by: user",
        )
        assert err and "claims the user" in text
        err, text = await call(
            s,
            "memory_remember",
            content="Prefers tabs in every repo",
            kind="preference",
            scope="global",
            source="https://example.com/style-guide",
        )
        assert not err, text  # control: a place is a source
    after = (mem / "me.md").read_text()
    assert "by: user" not in after.replace(before, "") and "user; by" not in after


async def test_memory_read_refuses_a_hard_link_to_a_file_outside(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    MemoryStore.open(mem, plain_settings())
    outside = tmp_path / "secret.txt"
    outside.write_text("outside the memory root\n")
    os.link(outside, mem / "notes.md")
    async with mcp_session(mem, tmp_path) as s:
        err, text = await call(s, "memory_read", ref_or_path="notes.md")
        assert err and "hard links" in text and "outside the memory root" not in text
