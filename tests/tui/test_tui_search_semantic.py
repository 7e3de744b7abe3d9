"""The search pane says which mode answered (docs/architecture.md §4): hybrid with the share of entries that have
vectors, once the model (the fake OpenAI-compatible endpoint on 127.0.0.1) has embedded them; Pilot at 80x24."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from helpers.semantic_fakes import fake_openai_server
from helpers.tui_helpers import EXAMPLE_FILES, RecordingApp, build_repo, settle, wait_for
from textual.widgets import Label

from memrepo.tui.search import SearchScreen

PNPM = "Prefers pnpm over npm for JavaScript projects"


async def test_the_search_pane_says_hybrid_once_vectors_exist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others
    root = tmp_path / "memory"
    build_repo(root, {**EXAMPLE_FILES, "notes/js.md": f"# JS\n\n- {PNPM} [by: user; added: 2025-04-01]\n"})
    with fake_openai_server() as (url, _record):
        settings = plain_settings()
        settings.semantic = settings.semantic.model_validate(
            {"provider": "openai", "min_similarity": 0.5, "answer_similarity": 0.6, "openai": {"base_url": url}}
        )
        app = RecordingApp(root, watch=False, settings=settings)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("slash")
            screen = app.screen
            assert isinstance(screen, SearchScreen)
            status = screen.query_one("#search-status", Label)

            async def again() -> bool:  # the first searches start the build; ask until it is done
                before = screen.searches
                screen.search("which JS package manager do I use")
                await wait_for(pilot, lambda: screen.searches > before, what="a search")
                return "hybrid (100% with vectors)" in str(status.visual)  # the build done, not just begun

            for _ in range(100):
                if await again():
                    break
                await pilot.pause(0.1)
            assert str(status.visual).startswith("enter opens · esc closes · ")  # keys first: never cut (B27-6)
            assert "· hybrid (100% with vectors)" in str(status.visual)
            assert screen.hits[0].text == PNPM
