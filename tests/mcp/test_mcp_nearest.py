"""``memory_recall`` when nothing answers confidently (docs/architecture.md §4): the result says so first, then the
nearest entries marked as not an answer, in its text and its structured output alike; no match at all as before."""

from __future__ import annotations

from pathlib import Path

from helpers.mcp_helpers import mcp_session, text_of
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

NEAREST = "No entry answers this confidently. The nearest entries, which may not answer it:"


async def test_recall_says_plainly_when_it_lists_only_the_nearest_entries(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    MemoryStore.open(mem, plain_settings()).remember(Candidate(text="Works at Fjordline Labs in Stockholm", by="user"))
    async with mcp_session(mem, tmp_path) as session:
        result = await session.call_tool("memory_recall", {"query": "what is the wifi password in Stockholm"})
        text = text_of(result)
        assert not result.is_error
        lines = text.splitlines()
        assert lines[0] == NEAREST  # first, before any entry
        # the entries come last: a mode line or a scan line (the warm-up build may still run) may come between
        assert lines[-1].endswith("[nearest, not an answer]: Works at Fjordline Labs in Stockholm"), text
        assert result.structured_content == {"result": text}  # the structured output says the same

        confident = text_of(await session.call_tool("memory_recall", {"query": "Fjordline Labs Stockholm"}))
        assert NEAREST not in confident and "not an answer" not in confident
        assert "Works at Fjordline Labs in Stockholm" in confident

        nothing = text_of(await session.call_tool("memory_recall", {"query": "quantum chromodynamics"}))
        assert nothing == "No memory matches 'quantum chromodynamics'."
