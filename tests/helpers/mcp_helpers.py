"""Start ``memrepo mcp`` as a real subprocess and talk to it with the MCP SDK's stdio client."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[2]


@contextlib.asynccontextmanager
async def mcp_session(repo: Path, cwd: Path, *extra: str) -> AsyncIterator[ClientSession]:
    """An initialized client session with a fresh ``memrepo --repo REPO mcp`` process started in ``cwd``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memrepo.cli.main", "--repo", str(repo), "mcp", *extra],
        env=env,
        cwd=str(cwd),
    )
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            yield session


def text_of(result: object) -> str:
    """The text content of a tool result."""
    return "\n".join(getattr(part, "text", "") for part in result.content)  # type: ignore[attr-defined]


async def call(session: ClientSession, tool: str, **args: object) -> tuple[bool, str]:
    """Call ``tool``; (is_error, text)."""
    result = await session.call_tool(tool, args)
    return bool(result.is_error), text_of(result)


@contextlib.asynccontextmanager
async def mcp_in_process(repo: Path, cwd: Path, allow_forget_any: bool = False) -> AsyncIterator[Any]:
    """The MCP server built in this process (no subprocess, no transport): call its tools with :func:`call_in`.

    Its repo opens on the first tool call, as after ``initialize``; it is closed (the session's closing checkpoint
    included) when the block ends."""
    from helpers.repo_helpers import plain_settings
    from memrepo.mcpserver.server import build_server

    server = build_server(repo, allow_forget_any, cwd=str(cwd), settings=plain_settings())
    try:
        yield server
    finally:
        await server.memrepo_opening.close()


async def call_in(server: Any, tool: str, **args: object) -> tuple[bool, str]:
    """Call ``tool`` of an in-process server; (is_error, text), a tool error's one line as its text."""
    from mcp.server.mcpserver.exceptions import ToolError

    try:
        result = await server.call_tool(tool, args)
    except ToolError as exc:
        return True, str(exc)
    return bool(result.is_error), text_of(result)
