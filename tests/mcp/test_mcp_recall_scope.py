"""``memory_recall`` says what it searched when another workspace's file holds the answer (breaker5 B5-4).

MCP recall searches the global files and this workspace's file only (docs/agents.md). Before, a query
another workspace's file answered got "No memory matches", which an agent reads as "no such memory",
while ``memrepo recall`` from the same folder found it.
"""

from __future__ import annotations

from pathlib import Path

from helpers.mcp_helpers import mcp_session, text_of
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


async def test_no_match_here_names_the_other_workspaces_file_that_answers(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    shop, billing = tmp_path / "shop", tmp_path / "billing"
    shop.mkdir()
    billing.mkdir()
    store = MemoryStore.open(mem, plain_settings())
    store.remember(Candidate(text="Shop deploys with make ship", scope="workspace", workspace=str(shop)))
    done = store.remember(
        Candidate(text="Invoice item 4041 is the yearly Zephyrion plan", scope="workspace", workspace=str(billing))
    )
    async with mcp_session(mem, shop) as session:
        text = text_of(await session.call_tool("memory_recall", {"query": "Zephyrion plan item 4041"}))
        first = text.splitlines()[0]
        assert first.startswith("No memory matches 'Zephyrion plan item 4041' here: "), text
        assert "searches only the global files and this workspace's file" in first
        assert f"{done.path} (1 entry)" in first and "memory_read" in first
        assert "Zephyrion plan" not in first.split("here:", 1)[1]  # names the file, never its text

        nothing = text_of(await session.call_tool("memory_recall", {"query": "quantum chromodynamics"}))
        assert nothing.splitlines()[0] == "No memory matches 'quantum chromodynamics'."

    async with mcp_session(mem, billing) as session:  # from its own workspace: found, nothing more said
        found = text_of(await session.call_tool("memory_recall", {"query": "Zephyrion plan item 4041"}))
        assert "Invoice item 4041 is the yearly Zephyrion plan" in found and "Other workspaces" not in found
