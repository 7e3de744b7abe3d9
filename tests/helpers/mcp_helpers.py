"""Start ``memrepo mcp`` as a real subprocess and talk to it with the MCP SDK's stdio client."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

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
