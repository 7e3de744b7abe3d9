"""MCP polish (issue 15): annotations on every tool, serverInfo.version, one-line argument errors,
``kind`` validated, and a write made while the repo is blocked answered as kept, not as an error."""

from __future__ import annotations

import asyncio
from importlib.metadata import version
from pathlib import Path

import pytest
from helpers.mcp_helpers import call, mcp_session
from helpers.repo_helpers import plain_settings

from memrepo.engine.repo.store import MemoryStore

READ_ONLY = {"memory_context", "memory_recall", "memory_read"}


@pytest.fixture
def mem(tmp_path: Path) -> Path:
    MemoryStore.open(tmp_path / "memory", plain_settings())
    return tmp_path / "memory"


async def test_every_tool_has_annotations_codex_acts_on(mem: Path, tmp_path: Path) -> None:
    async with mcp_session(mem, tmp_path) as s:
        tools = {t.name: t.annotations for t in (await s.list_tools()).tools}
    assert all(a is not None for a in tools.values()), tools
    for name, a in tools.items():
        assert a.open_world_hint is False, name  # memory is a closed world: a local repo
        assert a.read_only_hint is (name in READ_ONLY), name
    assert tools["memory_forget"].destructive_hint is True
    for name in ("memory_remember", "memory_checkpoint"):
        assert tools[name].destructive_hint is False  # Codex's default policy runs these without asking
    assert all(tools[n].idempotent_hint is True for n in READ_ONLY)
    assert tools["memory_forget"].idempotent_hint is False


async def test_server_info_carries_memrepo_version(mem: Path, tmp_path: Path) -> None:
    async with mcp_session(mem, tmp_path) as s:
        info = s.initialize_result.server_info if hasattr(s, "initialize_result") else None
        if info is None:  # older SDK shape
            info = (await s.initialize()).server_info
    assert info.name == "memrepo" and info.version == version("memrepo") and info.version


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("memory_recall", {"query": "x", "limit": 0}, "invalid arguments for memory_recall: limit:"),
        ("memory_recall", {}, "invalid arguments for memory_recall: query: required"),
        ("memory_read", {"ref_or_path": "me.md", "start_line": "abc"}, "memory_read: start_line:"),
        ("memory_checkpoint", {"messages": [{"role": "robot", "text": "x"}]}, "messages.0.role:"),
    ],
)
async def test_argument_errors_are_one_line_without_urls(
    mem: Path, tmp_path: Path, tool: str, args: dict, expected: str
) -> None:
    async with mcp_session(mem, tmp_path) as s:
        err, text = await call(s, tool, **args)
    assert err and expected in text
    assert "\n" not in text and "http" not in text and "pydantic" not in text and "validation error" not in text


async def test_kind_is_validated(mem: Path, tmp_path: Path) -> None:
    async with mcp_session(mem, tmp_path) as s:
        err, text = await call(s, "memory_remember", content="The user likes green tea", kind="banana", scope="global")
        assert err and "kind:" in text and "'preference'" in text and "'banana'" in text
        err, text = await call(
            s, "memory_remember", content="The user likes green tea", kind="preference", scope="global"
        )
        assert not err and text.startswith("added repo:me.md#L")


async def test_a_blocked_write_is_answered_as_kept_and_lands_later(mem: Path, tmp_path: Path) -> None:
    lock = mem / ".git" / "index.lock"

    async def left_a_moment_ago() -> None:
        # An unheld lock file older than STALE_LOCK_S (10 s) is a crashed git's and goes: a loaded machine took
        # longer than that to start the server, and the write was made. Made once the server is up, kept young.
        while True:
            lock.touch()
            await asyncio.sleep(0.5)

    async with mcp_session(mem, tmp_path) as s:
        lock.touch()  # there before the call is sent
        young = asyncio.create_task(left_a_moment_ago())
        try:
            err, text = await call(
                s, "memory_remember", content="Deploys go out on Tuesdays", kind="fact", scope="global"
            )
        finally:
            young.cancel()
        assert not err, text  # before: isError with "nothing was written"
        assert text.startswith("kept:") and "applied once the block is gone" in text
        assert "nothing was written" not in text
        lock.unlink()
        err, text = await call(
            s, "memory_remember", content="The user prefers short answers", kind="preference", scope="global"
        )
        assert not err
    assert "Deploys go out on Tuesdays" in (mem / "me.md").read_text(encoding="utf-8")
