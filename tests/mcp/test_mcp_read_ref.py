"""memory_read by an entry ref reads that entry, with or without ``repo:`` (breaker8 B8-7): the block shows a file
header and ``L<n>``, and agents drop the prefix; before, ``workspaces/x.md#L11`` was "no file" and a ref read on to
the end of the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.mcp_helpers import call, mcp_session
from helpers.repo_helpers import plain_settings

from memrepo.engine.agents.confinedread import read_confined
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def refs(tmp_path: Path) -> tuple[Path, list[str]]:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    texts = ["Prefers tea over coffee", "Uses fish as the shell", "Runs 10 km on Sundays"]
    made = [
        store.remember(Candidate(text=t, kind="preference", by="user", origin="cli")).ref  # type: ignore[union-attr]
        for t in texts
    ]
    return store.root, [str(r) for r in made]


def test_a_ref_reads_its_one_line_and_repo_may_be_left_out(refs: tuple[Path, list[str]]) -> None:
    root, made = refs
    first = made[0]
    for ref in (first, first.removeprefix("repo:")):
        got = read_confined(root, ref)
        assert got.text.startswith("- Prefers tea over coffee") and "\n" not in got.text, got
        assert got.start_line == got.end_line and got.truncated  # more follows: the agent can ask for it
    # an explicit range still reads on
    got = read_confined(root, first, end_line=read_confined(root, made[2]).end_line)
    assert "Prefers tea" in got.text and "Runs 10 km" in got.text


async def test_memory_read_takes_the_blocks_path_and_line(refs: tuple[Path, list[str]], tmp_path: Path) -> None:
    root, made = refs
    async with mcp_session(root, tmp_path) as s:
        err, text = await call(s, "memory_read", ref_or_path=made[1].removeprefix("repo:"))
    assert not err and "Uses fish as the shell" in text and "Prefers tea" not in text and "Runs 10 km" not in text
