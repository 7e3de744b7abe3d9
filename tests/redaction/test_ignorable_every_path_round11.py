"""Issue 32, point 5: every Default_Ignorable_Code_Point character is gone on every path text takes into memory
and back out to a model: MCP and CLI writes, an accepted inbox line, and a hand edit as the context block and
``memory_read`` show it.

``test_a_hand_edit_reaches_the_block_without_it`` and ``test_memory_read_of_a_hand_edit_shows_none`` fail on the
code before round 11: the block's own list of hidden characters (kept by ``memory_read`` too) lacked U+3164, the
variation selectors, U+034F, U+FFF9-FFFB and the rest of the class that writes already removed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.mcp_helpers import call, mcp_session
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine.agents.confinedread import read_confined
from memrepo.engine.read.context import ContextFile, build_context
from memrepo.engine.repo.store import MemoryStore

IGNORABLE = ["\u3164", "\ufe0f", "\u034f", "\ufff9", "\ufffb", "\u115f", "\u17b4", "\u180b", "\uffa0", "\U000e0041"]
HAND = "- Prefers{c} dark mode in every editor [by: user]\n"


@pytest.mark.parametrize("char", IGNORABLE)
def test_a_hand_edit_reaches_the_block_without_it(char: str) -> None:
    data = ("# About me\n\n" + HAND.format(c=char)).encode()
    block = build_context("abc1234", [ContextFile("me.md", data, 500)])
    assert char not in block.text
    assert "Prefers dark mode in every editor" in block.text


@pytest.mark.parametrize("char", IGNORABLE)
def test_memory_read_of_a_hand_edit_shows_none(tmp_path: Path, char: str) -> None:
    root = tmp_path / "m"
    MemoryStore.open(root, plain_settings())
    me = root / "me.md"
    me.write_text(me.read_text() + HAND.format(c=char), encoding="utf-8")
    text = read_confined(root, "me.md").text
    assert char not in text and "Prefers dark mode in every editor" in text


def test_the_emoji_joiner_stays_in_the_block() -> None:
    """Control: the zero-width joiner inside an emoji sequence is not hidden text."""
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    block = build_context(
        "abc1234", [ContextFile("me.md", f"# About me\n\n- Family {family} [by: user]\n".encode(), 500)]
    )
    assert "\u200d" in block.text


def test_a_cli_write_stores_none(tmp_path: Path) -> None:
    root = tmp_path / "m"
    MemoryStore.open(root, plain_settings())
    out = CliRunner().invoke(main, ["--repo", str(root), "remember", "Builds run\u3164 on the\ufe0f arm runners"])
    assert out.exit_code == 0, out.output
    stored = "".join(p.read_text(encoding="utf-8") for p in root.glob("*.md"))
    assert "Builds run on the arm runners" in stored and "\u3164" not in stored and "\ufe0f" not in stored


def test_an_accepted_hand_edited_inbox_line_is_stored_without_it(tmp_path: Path) -> None:
    root = tmp_path / "m"
    MemoryStore.open(root, plain_settings())
    inbox = root / "inbox.md"
    line = "- Canary\u3164 builds go to eu-west\u034f first [by: agent; added: 2026-12-05; kind: fact; task: t2]\n"
    inbox.write_text(inbox.read_text(encoding="utf-8") + line, encoding="utf-8")
    runner = CliRunner()
    listed = runner.invoke(main, ["--repo", str(root), "inbox"]).output
    ref = re.search(r"repo:inbox\.md#L\d+@[0-9a-f]+", listed)
    assert ref, listed
    done = runner.invoke(main, ["--repo", str(root), "inbox", "accept", ref.group(0)])
    assert done.exit_code == 0, done.output
    stored = "".join(p.read_text(encoding="utf-8") for p in root.glob("*.md") if p.name != "inbox.md")
    assert "Canary builds go to eu-west first" in stored
    assert "\u3164" not in stored and "\u034f" not in stored


async def test_mcp_remember_and_read_carry_none(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    MemoryStore.open(mem, plain_settings())
    me = mem / "me.md"
    me.write_text(me.read_text(encoding="utf-8") + HAND.format(c="\u3164"), encoding="utf-8")
    async with mcp_session(mem, tmp_path) as s:
        err, text = await call(
            s, "memory_remember", content="Staging\ufffb deploys happen at noon", kind="fact", scope="global"
        )
        assert not err, text
        err, text = await call(s, "memory_read", ref_or_path="me.md")
        assert not err, text
        assert "\u3164" not in text and "Prefers dark mode in every editor" in text
    stored = "".join(p.read_text(encoding="utf-8") for p in mem.glob("*.md"))
    assert "Staging deploys happen at noon" in stored and "\ufffb" not in stored
