"""During a merge conflict, reads never give both sides as valid memories (engine/format/conflicts.py,
engine/read/conflictnote.py, docs/architecture.md §4, B5-6).

A real ``git merge`` stops on a conflict in me.md: both sides sit between marker lines in the work tree.
Recall (in process and the ``memrepo`` command) returns neither side; the context block leaves them out and
its me.md header says which lines and why; the entries outside the conflict are read as usual.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers.mcp_helpers import mcp_session, text_of
from helpers.repo_helpers import USER, commit_by_hand, git, plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def conflicted(tmp_path: Path) -> MemoryStore:
    store = MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)
    root = store.root
    for text in ("Uses fish shell", "Drinks oolong tea in the morning", "Keeps notes in plain text"):
        assert store.remember(Candidate(text=text, kind="preference", by="user")).commit
    git(root, "checkout", "-q", "-b", "other")
    me = root / "me.md"
    me.write_text(me.read_text().replace("Uses fish shell", "Uses zsh shell"))
    commit_by_hand(root, "zsh on the other branch")
    git(root, "checkout", "-q", "main")
    me.write_text(me.read_text().replace("Uses fish shell", "Uses bash shell"))
    commit_by_hand(root, "bash on main")
    merged = subprocess.run(["git", *USER, "merge", "other"], cwd=root, capture_output=True, text=True)
    assert merged.returncode != 0 and "CONFLICT" in merged.stdout, merged.stdout + merged.stderr
    text = me.read_text()
    assert "<<<<<<< HEAD" in text and "Uses bash shell" in text and "Uses zsh shell" in text
    return store


def _conflict_lines(root: Path) -> tuple[int, int]:
    lines = (root / "me.md").read_text().splitlines()
    first = next(n for n, line in enumerate(lines, 1) if line.startswith("<<<<<<<"))
    last = next(n for n, line in enumerate(lines, 1) if line.startswith(">>>>>>>"))
    return first, last


def test_recall_gives_neither_side_of_a_conflict(conflicted: MemoryStore) -> None:
    hits = conflicted.recall("shell")
    assert not any("bash" in h.text or "zsh" in h.text for h in hits), [h.text for h in hits]
    # The lines outside the conflict are memories as before.
    assert any("oolong" in h.text for h in conflicted.recall("oolong tea"))


def test_the_context_block_leaves_the_conflict_out_and_says_so(conflicted: MemoryStore) -> None:
    first, last = _conflict_lines(conflicted.root)
    block = conflicted.context().text
    assert "bash shell" not in block and "zsh shell" not in block
    assert "oolong" in block
    assert f"## me.md (merge conflict at L{first}-L{last}: its lines are left out" in block


def _memrepo(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(root), *args], capture_output=True, text=True
    )


def test_a_new_process_reads_the_same(conflicted: MemoryStore) -> None:
    root = conflicted.root
    conflicted.close()
    first, last = _conflict_lines(root)
    shown = _memrepo(root, "context")
    assert shown.returncode == 0, shown.stderr
    assert "bash shell" not in shown.stdout and "zsh shell" not in shown.stdout
    assert f"merge conflict at L{first}-L{last}" in shown.stdout
    recalled = _memrepo(root, "recall", "shell")
    assert "bash" not in recalled.stdout and "zsh" not in recalled.stdout
    # What recall did not find is said on standard error, beside "no memory matches" or the hits.
    said = f"memrepo: a merge conflict in me.md (L{first}-L{last}): the lines between its markers are left out"
    assert said in recalled.stderr, recalled.stderr
    assert said in _memrepo(root, "recall", "oolong").stderr


async def test_the_mcp_server_says_so_too(conflicted: MemoryStore, tmp_path: Path) -> None:
    root = conflicted.root
    conflicted.close()
    first, last = _conflict_lines(root)
    async with mcp_session(root, tmp_path) as session:
        nothing = text_of(await session.call_tool("memory_recall", {"query": "shell"}))
        assert "bash" not in nothing and "zsh" not in nothing
        assert f"(a merge conflict in me.md (L{first}-L{last}): the lines between" in nothing, nothing
        found = text_of(await session.call_tool("memory_recall", {"query": "oolong tea"}))
        assert "oolong" in found and "a merge conflict in me.md" in found, found
        block = text_of(await session.call_tool("memory_context", {}))
        assert "bash shell" not in block and f"merge conflict at L{first}-L{last}" in block


def test_once_resolved_the_chosen_side_is_a_memory_again(conflicted: MemoryStore) -> None:
    root = conflicted.root
    me = root / "me.md"
    lines = me.read_text().splitlines(keepends=True)
    first, last = _conflict_lines(root)
    kept = [ln for ln in lines[first:last] if "zsh" in ln]
    me.write_text("".join(lines[: first - 1] + kept + lines[last:]))
    git(root, "add", "me.md")
    git(root, *USER, "commit", "-q", "--no-edit")
    assert any("zsh" in h.text for h in conflicted.recall("shell"))
    assert "merge conflict" not in conflicted.context().text
    assert "merge conflict" not in _memrepo(root, "recall", "shell").stderr
