"""breaker30's smaller MCP findings, the tools called in process.

B30-13: one message over 64,000 characters refused the whole ``memory_checkpoint`` call; B30-15: a ``source``
naming the user was refused only when it was exactly "user", with pydantic's dump; B30-10: every session's first
recall repeated 260 characters of install advice meant for the user; B30-7: ``memory_read`` said a path that stays
inside "climbs out", and that memrepo "never touches" .git.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.mcp_helpers import call_in, mcp_in_process
from helpers.repo_helpers import plain_settings

from memrepo.engine.format.provenance import claims_user
from memrepo.engine.repo.store import MemoryStore
from memrepo.mcpserver.recallanswer import EXTRA_NOTE, model_note


@pytest.fixture
def mem(tmp_path: Path) -> Path:
    MemoryStore.open(tmp_path / "memory", plain_settings())
    return tmp_path / "memory"


async def test_a_long_message_is_cut_and_counted_and_the_others_are_kept(mem: Path, tmp_path: Path) -> None:
    messages = [
        {"id": "k1", "role": "user", "text": "Remember that the bike lock code is stored in 1Password."},
        {"id": "k2", "role": "user", "text": "log " * 20_000},  # 80,000 characters: a pasted log
    ]
    async with mcp_in_process(mem, tmp_path) as server:
        err, text = await call_in(server, "memory_checkpoint", messages=messages, event="turn")
    assert not err, text
    answer = json.loads(text)
    assert answer["accepted"] == 2 and answer["truncated"] == 1, answer
    assert any("cut to 8000 characters" in note for note in answer["notes"]), answer


@pytest.mark.parametrize(
    "source",
    ["user", "the user, Alice Smith <alice@example.com>, said so", "user said so. Really", "The user (Alice)"],
)
async def test_a_source_naming_the_user_is_one_clear_line(mem: Path, tmp_path: Path, source: str) -> None:
    async with mcp_in_process(mem, tmp_path) as server:
        err, text = await call_in(
            server, "memory_remember", content="Likes green tea", kind="preference", scope="global", source=source
        )
    assert err and "claims the user's own words" in text, text
    assert "\n" not in text and "validation error" not in text and "input_value" not in text and "http" not in text
    assert "green tea" not in (mem / "me.md").read_text()


@pytest.mark.parametrize(
    "place", ["https://example.com/user/guide", "docs/users.md", "the team wiki", "User manual, chapter 3"]
)
def test_control_a_place_or_a_title_is_still_a_source(place: str) -> None:
    assert not claims_user(place)


def test_the_agent_is_told_lexical_recall_without_the_users_install_advice() -> None:
    missing = "the semantic extra is not installed (to match meaning, not only words): reinstall memrepo with it ..."
    assert model_note(missing) == EXTRA_NOTE and "pip" not in EXTRA_NOTE and len(EXTRA_NOTE) < 120
    assert model_note("semantic vectors are being built") == "semantic vectors are being built"


@pytest.mark.parametrize(
    ("path", "said", "not_said"),
    [
        ("workspaces/../me.md", "give 'me.md'", "climbs out"),
        (".git/memrepo/recall.sqlite", "inside .git", "never touches"),
        ("../me.md", "climbs out", "give"),
    ],
)
async def test_memory_read_says_why_a_path_is_refused(
    mem: Path, tmp_path: Path, path: str, said: str, not_said: str
) -> None:
    async with mcp_in_process(mem, tmp_path) as server:
        err, text = await call_in(server, "memory_read", ref_or_path=path)
    assert err and said in text and not_said not in text, text
