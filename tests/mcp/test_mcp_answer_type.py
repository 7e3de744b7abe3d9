"""``memory_recall`` on a "how many" question whose best line holds no number (rec10): the result says first that
nothing answers confidently (docs/recall.md)."""

from __future__ import annotations

from pathlib import Path

from helpers.mcp_helpers import mcp_session, text_of
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

LINES = (
    "Tomás Okafor works at Parcelwise as a backend developer",
    "The invoice number goes in the subject line",
    "Standup is at 10:00 on Mondays",
)
QUESTION = "how many people work at Parcelwise"
NEAREST = "No entry answers this confidently. The nearest entries, which may not answer it:"


async def test_mcp_says_nothing_answers(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    store = MemoryStore.open(mem, plain_settings())
    for text in LINES:
        store.remember(Candidate(text=text, by="user"))
    store.close()
    async with mcp_session(mem, tmp_path) as session:
        text = text_of(await session.call_tool("memory_recall", {"query": QUESTION}))
        assert text.splitlines()[0] == NEAREST, text
