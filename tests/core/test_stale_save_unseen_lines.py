"""A stale copy's new line never "stands for" an entry memrepo wrote after the copy was read (breaker21 B21-5,
B21-6; engine/write/staleedits.py ``rewritten_lines``, docs/architecture.md §3).

Every line the agent writes in a day carries the same metadata. A save's new line with that metadata counted as
the rewrite of the missing line it read most like, even one memrepo added after the save's base, which the
editor's copy never held: a stale copy that reworded an older agent line, or that duplicated one (vim ``yyp``)
and edited the copy, dropped the agent's newer acknowledged line, with no question or with a question naming the
wrong line, and both answers lost it. Now a line of the base is rewritten first, and a line added after it only
when the texts pair as an edit; otherwise the save is asked about, naming the newer line, and "put back" keeps it.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore

OLDER = "Use pnpm for the web app"
NEWER = "Run the e2e tests with playwright before each release"
REWRITE = "Run the web app with pnpm dev on port 3000"  # reads a little more like NEWER (0.421) than OLDER (0.394)


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings())


def stale_save(path: Path, text: str) -> None:
    """Save ``text`` as an editor does (a temp file renamed over it), older than the settle quiet time."""
    tmp = path.with_name(f".{path.name}.editor-tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
    os.utime(path, (time.time() - 1, time.time() - 1))


def _line(text: str, needle: str) -> str:
    return next(line for line in text.splitlines() if needle in line)


def _head_lines(store: MemoryStore, needle: str) -> int:
    return sum(needle in line for line in git(store.root, "show", "HEAD:me.md").splitlines())


def _asked_about_newer_then_put_back(store: MemoryStore) -> None:
    head = store.head()
    assert store.commit_hand_edits() is None  # never committed silently
    assert store.head() == head
    (q,) = store.status().questions
    assert len(q.dropped) == 1 and NEWER in q.dropped[0], q.message  # the line really missing, alone
    store.answer_hand_edit("me.md", q.seen, commit=False)
    assert _head_lines(store, NEWER) == 1  # the agent's acknowledged line is kept
    assert _head_lines(store, REWRITE) == 1 and _head_lines(store, OLDER) == 0  # and the user's rewrite
    assert store.status().state is RepoState.CLEAN


def test_a_stale_rewrite_of_a_line_of_the_copy_never_stands_for_a_newer_line(store: MemoryStore) -> None:
    """B21-5, silent form: a line written between the older line and the copy makes the copy's base hold it."""
    store.remember(Candidate(text="I live in Lyon"))
    store.remember(Candidate(text=OLDER, by="agent"))
    store.remember(Candidate(text="I use zsh"))
    me = store.root / "me.md"
    copy = me.read_text()  # the editor's copy
    store.remember(Candidate(text=NEWER, by="agent"))  # lands after the copy was read
    line = _line(copy, OLDER)
    stale_save(me, copy.replace(line, line.replace(OLDER, REWRITE)))
    head = store.head()
    assert store.commit_hand_edits() is None
    (q,) = store.status().questions
    assert len(q.dropped) == 1 and NEWER in q.dropped[0], q.message  # the rewritten line is the user's
    assert store.head() == head
    store.answer_hand_edit("me.md", q.seen, commit=False)
    assert _head_lines(store, NEWER) == 1 and _head_lines(store, REWRITE) == 1
    assert _head_lines(store, OLDER) == 0  # the user's rewrite stands
    assert store.status().state is RepoState.CLEAN


def test_a_stale_rewrite_of_the_copys_newest_line_names_the_newer_line(store: MemoryStore) -> None:
    """B21-5: the question named the line the user rewrote, and "put back" lost the agent's newer line."""
    store.remember(Candidate(text="I live in Lyon"))
    store.remember(Candidate(text=OLDER, by="agent"))
    me = store.root / "me.md"
    copy = me.read_text()
    store.remember(Candidate(text=NEWER, by="agent"))
    line = _line(copy, OLDER)
    stale_save(me, copy.replace(line, line.replace(OLDER, REWRITE)))
    _asked_about_newer_then_put_back(store)


def test_a_copied_entry_line_in_a_stale_copy_never_stands_for_a_newer_line(store: MemoryStore) -> None:
    """B21-6: the user duplicates an entry line (vim ``yyp``) or types one in the entry format and edits it."""
    store.remember(Candidate(text="I live in Lyon"))
    store.remember(Candidate(text=OLDER, by="agent"))
    me = store.root / "me.md"
    copy = me.read_text()
    newer = store.remember(Candidate(text="Deploys to prod need a ticket in the ops channel", by="agent"))
    assert newer.ref
    line = _line(copy, OLDER)
    added = line.replace(OLDER, "Use vitest for unit tests")
    stale_save(me, copy.replace(line, f"{line}\n{added}"))
    head = store.head()
    assert store.commit_hand_edits() is None
    (q,) = store.status().questions
    assert len(q.dropped) == 1 and "Deploys to prod" in q.dropped[0], q.message
    assert store.head() == head
    store.answer_hand_edit("me.md", q.seen, commit=False)
    assert _head_lines(store, "Deploys to prod need a ticket") == 1
    assert _head_lines(store, "Use vitest for unit tests") == 1 and _head_lines(store, OLDER) == 1
    assert store.status().state is RepoState.CLEAN
