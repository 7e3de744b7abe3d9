"""A save cut mid-write is a question, never a silent "Hand edits" commit (engine/write/tornsave.py, §3).

Found by breaker10 (B10-6, B10-9): an editor saving me.md in place in two halves 0.4 s apart, beside
`memrepo remember` in a loop, had its first half ("- Agent fact number 1 " and no more) committed as
"Hand edits"; salvage's merge of such a half save wrote torn lines with `[conflict: ...]` markers, the editor
saved them back whole, and they were committed too, tearing acknowledged facts. Such a line keeps most
words of the entry it tears, so neither the entry count nor the stale-save look saw a loss.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore
from memrepo.tui.handedits import question_title


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings())


def facts(store: MemoryStore, n: int) -> None:
    for i in range(1, n + 1):
        assert store.remember(Candidate(text=f"Agent fact number {i} about the build cache", by="user")).commit


def save_in_place(path: Path, data: bytes) -> None:
    """What an editor's in-place save leaves on disk, looking settled (older than the settle quiet time)."""
    with open(path, "r+b") as f:
        f.truncate(0)
        f.write(data)
    os.utime(path, (time.time() - 2, time.time() - 2))


def test_a_first_half_save_ending_mid_line_is_asked_and_not_committed(store: MemoryStore) -> None:
    me = store.root / "me.md"
    facts(store, 1)
    text = me.read_bytes()
    save_in_place(me, text[: text.index(b"number 1 ") + len(b"number 1 ")])
    (q,) = store.status().questions
    assert "cut mid-write" in q.message and '"- Agent fact number 1"' in q.message
    store.commit_hand_edits()
    assert "Agent fact number 1 about the build cache [by: user" in git(store.root, "show", "HEAD:me.md")
    assert store.status().state is RepoState.HAND_EDITED  # held, not committed


TORN = [
    "- Agent fact number 2 about the build cache [by: user; added: 2026-12-05; kind [conflict: 568ee6d4]\n",
    "- Agent fact number 2 about the build cache [by: user; added: 2026-12-05; kind: fact; conflict [conflict: 6542a549]\n",
    "- Agent fact number 2 about the build cach\n",
]


def _torn_copy(me: Path) -> bytes:
    """me.md with facts 3-5 replaced in place by the torn lines breaker10 found committed, plus the editor's line."""
    lines = me.read_text().splitlines(keepends=True)
    at = [i for i, line in enumerate(lines) if any(f"number {n} " in line for n in (3, 4, 5))]
    for torn, i in zip(TORN, at, strict=True):
        lines[i] = torn
    return ("".join(lines) + "- editor save 7 begin [by: user]\n").encode()


def test_torn_lines_with_conflict_markers_saved_whole_are_asked(store: MemoryStore) -> None:
    me = store.root / "me.md"
    facts(store, 5)
    save_in_place(me, _torn_copy(me))
    (q,) = store.status().questions
    assert "a save holds 3 lines cut mid-write" in q.message and q.torn == [t.rstrip("\n") for t in TORN]
    assert question_title(q) == "me.md: a save holds 3 lines cut mid-write"  # the app's dialog says the same
    store.commit_hand_edits()
    head = git(store.root, "show", "HEAD:me.md")
    assert all(f"Agent fact number {n} about the build cache [by: user" in head for n in range(1, 6))
    assert "[conflict:" not in head


def test_put_back_keeps_the_whole_lines_and_restores_the_torn_entries(store: MemoryStore) -> None:
    me = store.root / "me.md"
    facts(store, 5)
    save_in_place(me, _torn_copy(me))
    (q,) = store.status().questions
    assert store.answer_hand_edit("me.md", q.seen, commit=False) is not None
    head = git(store.root, "show", "HEAD:me.md")
    assert all(f"- Agent fact number {n} about the build cache [by: user;" in head for n in range(1, 6))
    assert "- editor save 7 begin [by: user]" in head
    assert "[conflict:" not in head and "build cach\n" not in head
    assert store.status().state is RepoState.CLEAN


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t.replace("about the build cache [", "about the build cache, twice a day ["),  # edited in place
        lambda t: t.replace("- Agent fact number 2 about the build cache", "- Agent fact number 2"),  # words cut
        lambda t: t + "- Typed in an editor that adds no newline [by: user]",  # appended, no final newline
        lambda t: t + "- See [[topics/build]] for more\n",  # a link, no metadata
    ],
)
def test_whole_edits_ask_nothing(store: MemoryStore, edit) -> None:  # type: ignore[no-untyped-def]
    me = store.root / "me.md"
    facts(store, 3)
    save_in_place(me, edit(me.read_text()).encode())
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None


def test_put_back_of_a_merged_pair_keeps_the_whole_line_without_its_conflict_key(store: MemoryStore) -> None:
    """Salvage's merge of a half save keeps both versions of a line, each marked with one conflict id; the
    torn one goes, and the whole one is the entry again, not half of a conflict with nothing."""
    me = store.root / "me.md"
    facts(store, 3)
    text = me.read_text()
    whole = next(line for line in text.splitlines() if "number 2 " in line)
    pair = whole.replace("[by: user;", "[by: user; [conflict: 48119f6b]", 1).split("[conflict")[0]
    pair = f"{pair}[conflict: 48119f6b]\n{whole[:-1]}; conflict: 48119f6b]\n"
    save_in_place(me, text.replace(whole + "\n", pair).encode())
    (q,) = store.status().questions
    assert len(q.torn) == 1 and "[conflict: 48119f6b]" in q.torn[0]
    store.answer_hand_edit("me.md", q.seen, commit=False)  # mended back to HEAD's text: nothing to commit
    assert git(store.root, "show", "HEAD:me.md") == text and me.read_text() == text
    assert store.status().state is RepoState.CLEAN
