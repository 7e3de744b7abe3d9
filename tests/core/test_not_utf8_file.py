"""One byte that is not UTF-8 neither hides a file from recall nor reads as dropped entries (B5-8).

An editor set to Latin-1 appends ``caf\\xe9``: the file stops being UTF-8 text. Recall reads it with
the bad byte replaced (docs/recall.md), and the hand-edit question names the real cause, not
"a save drops N entries" (docs/architecture.md §3).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers.mcp_helpers import mcp_session, text_of
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def _latin1_me(repo_path: Path) -> MemoryStore:
    store = MemoryStore.open(repo_path, plain_settings(), create=True)
    for i in range(4):
        store.remember(Candidate(text=f"Uses pnpm workspace layout {i}", kind="preference"))
    with open(repo_path / "me.md", "ab") as f:  # as an editor saving Latin-1 would
        f.write(b"- Favourite caf\xe9 is Blue Door\n")
    return store


def test_the_question_names_the_bad_byte_not_dropped_entries(repo_path: Path) -> None:
    store = _latin1_me(repo_path)
    [question] = store.status().questions
    assert question.path == "me.md" and question.not_text.startswith("byte ")
    last = (repo_path / "me.md").read_bytes().count(b"\n")  # the Latin-1 line is the file's last
    assert question.not_text.endswith(f", line {last}")
    assert "not UTF-8 text" in question.message and "drops" not in question.message
    assert question.dropped == []
    assert "Blue Door" not in git(repo_path, "show", "HEAD:me.md")  # kept until the user answers


def test_recall_reads_a_file_with_a_bad_byte(repo_path: Path) -> None:
    store = _latin1_me(repo_path)
    hits = store.recall("pnpm workspace layout")
    assert len(hits) == 4 and all(h.path == "me.md" for h in hits)
    [cafe] = store.recall("Blue Door")
    assert cafe.text == "Favourite caf\ufffd is Blue Door"


def test_cli_recall_finds_entries_of_a_file_with_a_bad_byte(repo_path: Path) -> None:
    _latin1_me(repo_path).close()
    out = subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo_path), "recall", "pnpm"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("Uses pnpm workspace layout") == 4
    last = (repo_path / "me.md").read_bytes().count(b"\n")
    assert "not UTF-8 text" in out.stderr and "me.md (byte " in out.stderr and f"line {last})" in out.stderr


async def test_mcp_recall_says_the_file_is_not_utf8(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    _latin1_me(mem).close()
    async with mcp_session(mem, tmp_path) as session:
        text = text_of(await session.call_tool("memory_recall", {"query": "pnpm workspace layout"}))
    assert text.count("Uses pnpm workspace layout") == 4
    assert "not UTF-8 text" in text and "me.md (byte" in text
