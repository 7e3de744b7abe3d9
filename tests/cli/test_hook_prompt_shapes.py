"""The prompt hook reads a prompt as people write it: an exact identifier among task words, a question and a new fact
in one prompt (breaker7 B7-7, B7-8; engine/read/recallprompt.py).

Claude Code's UserPromptSubmit payload (as in test_claude_code.py) with ``cwd`` in the project; the index built, as
after a session's first prompts.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from test_claude_code import hook
from test_hook_replaced_lines import added, prompt_payload

from memrepo.engine.models import Candidate
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.repo.store import MemoryStore

BUG = "The double charge bug (SHOP-4417): the payment retry fires twice when the gateway times out"
DEPLOY = "The shop deploys with make ship"


@pytest.fixture
def shop(tmp_path: Path) -> tuple[MemoryStore, Path, Path]:
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "shop"
    project.mkdir()
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for text in (DEPLOY, BUG, "Shop backend runs on Postgres 14", "The on-call rota changes on Mondays"):
        store.remember(Candidate(text=text, scope="workspace", workspace=str(project), by="user"))
    index = RecallIndex(store.root)
    try:
        index.sync()
    finally:
        index.close()
    return store, project, home


def ask(shop: tuple[MemoryStore, Path, Path], tmp_path: Path, prompt: str) -> list[str]:
    store, project, home = shop
    return added(hook(store.root, "prompt", prompt_payload(project, tmp_path, prompt), home))


def test_a_line_holding_the_prompts_exact_id_is_added_whatever_surrounds_it(shop, tmp_path: Path) -> None:
    for prompt in ("Can you look at SHOP-4417 again, the one we tracked?", "shop-4417 is back, the one we tracked?"):
        assert ask(shop, tmp_path, prompt)[:1] == [BUG], prompt
    # a longer identifier holding it is another thing; an id memory does not hold adds nothing
    assert BUG not in ask(shop, tmp_path, "Can you look at SHOP-4417-B again, the one we tracked?")
    assert ask(shop, tmp_path, "Can you look at SHOP-9999 again, the one we tracked?") == []


def test_a_prompt_that_asks_and_tells_is_answered_for_its_question(shop, tmp_path: Path) -> None:
    assert DEPLOY in ask(shop, tmp_path, "How does the shop deploy?")
    prompt = "How does the shop deploy? Also remember that the staging database is called olive."
    assert ask(shop, tmp_path, prompt)[:1] == [DEPLOY]
    # a sentence with nothing in memory and one word of filler: still nothing
    assert ask(shop, tmp_path, "Where is the login redirect configured? Thanks!") == []
