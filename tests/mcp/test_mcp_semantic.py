"""Hybrid recall through the real ``memrepo mcp`` process (docs/architecture.md §4): its config names an
OpenAI-compatible endpoint (a fake server on 127.0.0.1 speaking the real format); the recall result says which mode
answered, and an endpoint that goes away leaves lexical hits and one line."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from helpers.mcp_helpers import call, mcp_session
from helpers.repo_helpers import plain_settings
from helpers.semantic_fakes import fake_openai_server

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

PNPM = "Prefers pnpm over npm for JavaScript projects"


@pytest.mark.slow
async def test_mcp_recall_is_hybrid_then_lexical_with_one_line_when_the_endpoint_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem = tmp_path / "mem"
    store = MemoryStore.open(mem, plain_settings())
    for text in (PNPM, "Drinks coffee black, no sugar", "Deploys go through staging first"):
        store.remember(Candidate(text=text, kind="preference", scope="global", by="user"))
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others
    with fake_openai_server() as (url, record):
        config = tmp_path / "config.toml"
        config.write_text(
            "[semantic]\nprovider = 'openai'\nmin_similarity = 0.5\nanswer_similarity = 0.6\n"
            f"[semantic.openai]\nbase_url = '{url}'\ntimeout_s = 2\n",
            encoding="utf-8",
        )
        monkeypatch.setenv("MEMREPO_CONFIG", str(config))
        async with mcp_session(mem, tmp_path) as session:
            deadline = time.monotonic() + 60
            while True:  # the first recall starts the build of vectors in the background
                is_error, text = await call(session, "memory_recall", query="which JS package manager do I use")
                assert not is_error
                if text.startswith("(hybrid recall") or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.2)
            first, hit = text.splitlines()[:2]
            assert first == "(hybrid recall: lexical and semantic, 100% of entries have vectors)"
            assert PNPM in hit
            assert any(body["input"] == ["which JS package manager do I use"] for _h, body in record.requests)
            await asyncio.to_thread(record.stop)
            is_error, text = await call(session, "memory_recall", query="pnpm")
    assert not is_error
    lines = text.splitlines()
    assert lines[0].startswith("(lexical recall: embedding endpoint") and "cannot be reached" in lines[0]
    assert PNPM in lines[1]
