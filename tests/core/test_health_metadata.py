"""Health's metadata row catches the hand edits that break a line's metadata (issue 34 item 3).

Before, these edits passed as "every entry's metadata reads": the entry lost its metadata (or part
of it) without a word, so the line's ``by:`` fell back to the user, its ``added:`` date was lost.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo import health
from memrepo.engine.repo.store import MemoryStore

LINE = "- Prefers pnpm [by: agent; added: 2025-01-02; kind: fact]"


@pytest.mark.parametrize(
    ("broken", "said"),
    [
        ("- Prefers pnpm by: agent; added: 2025-01-02; kind: fact]", "["),  # the [ deleted
        ("- Prefers pnpm [[by: agent; added: 2025-01-02; kind: fact]", "["),  # a [ too many
        ("- Prefers pnpm [by: agent; added: 2025-01-02; kind: fact] and yarn", "after"),  # text typed after it
        ("- Prefers pnpm [by: agent; by: user; added: 2025-01-02]", "twice"),  # a key twice
        ("- Prefers pnpm [by: agent; added: 2025-01-02; kind:]", "empty"),  # a value deleted
    ],
    ids=["no-opening-bracket", "double-opening-bracket", "text-after", "key-twice", "empty-value"],
)
def test_a_broken_metadata_edit_is_a_warn_naming_the_line(tmp_path: Path, broken: str, said: str) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text="Prefers pnpm", by="agent"))
    me = store.root / "me.md"
    lines = me.read_text().splitlines()
    number = next(n for n, line in enumerate(lines, 1) if line.startswith("- Prefers pnpm"))
    lines[number - 1] = broken
    me.write_text("\n".join(lines) + "\n")
    row = next(r for r in health.check(store) if r.name == "metadata")
    assert row.status.value == "WARN", row.reason
    assert f"me.md#L{number}" in row.reason and said in row.reason


def test_good_metadata_and_plain_brackets_stay_ok(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    me = store.root / "me.md"
    me.write_text(
        me.read_text()
        + LINE
        + "\n- A task box [ ] and a link [[lessons]] [by: user]\n- Arrays look like a[0] here\n"
        + "- Cites a paper [1] in prose\n"
    )
    row = next(r for r in health.check(store) if r.name == "metadata")
    assert row.status.value == "OK", row.reason
