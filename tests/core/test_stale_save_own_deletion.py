"""A stale editor save that also deletes one of the user's own lines asks about memrepo's line only (breaker28 B28-5).

The editor read me.md (Alpha, Bravo); memrepo then wrote Charlie; the user deleted Alpha in the editor and saved
the stale buffer. Two of three entries were gone from HEAD's view, so the question said "lost 2 of its 3 entries"
(not the line memrepo wrote after the copy), and ``--put-back`` put the committed text back: Alpha, which the user
had deleted, came back. The save is now judged as the user's edit of their copy: the stale-save question names
Charlie alone, and put-back keeps the save (Alpha deleted) with Charlie back. Once with a simulated save (the
bytes an editor writes), once with real vim in tmux.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.editor_tmux import Run, screen, start_vim, tmux_server, wait_until
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore

ALPHA = "Alpha: the user's own line they delete"
BRAVO = "Bravo: the user's line that stays"
CHARLIE = "Charlie: the agent's line written after the editor read the file"


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text=ALPHA, by="user"))
    store.remember(Candidate(text=BRAVO, by="user"))
    return store


def _asked_about_charlie_and_put_back(store: MemoryStore) -> None:
    head = store.head()
    assert store.commit_hand_edits() is None and store.head() == head  # never committed silently
    (q,) = store.status().questions
    assert q.dropped == [next(line for line in (git(store.root, "show", "HEAD:me.md")).splitlines() if CHARLIE in line)]
    assert CHARLIE in q.message and "lost 2" not in q.message and ALPHA not in q.message, q.message
    store.answer_hand_edit("me.md", q.seen, commit=False)  # put back
    text = git(store.root, "show", "HEAD:me.md")
    assert CHARLIE in text and BRAVO in text
    assert ALPHA not in text  # before: the committed text back, the user's deletion undone
    assert store.status().state is RepoState.CLEAN


def test_a_stale_save_deleting_the_users_own_line_asks_about_memreps_line(store: MemoryStore) -> None:
    me = store.root / "me.md"
    copy = me.read_text()  # the editor reads the file
    store.remember(Candidate(text=CHARLIE, by="agent"))
    saved = "".join(line for line in copy.splitlines(keepends=True) if ALPHA not in line)
    (store.root / ".me.md.tmp").write_text(saved)  # the editor's save: a new file renamed over the old
    os.replace(store.root / ".me.md.tmp", me)
    _asked_about_charlie_and_put_back(store)


@pytest.fixture
def vim(store: MemoryStore) -> Iterator[Run]:
    yield from tmux_server("memrepo-b28-5", "vim")


@pytest.mark.slow
def test_vim_stale_buffer_deleting_the_users_own_line(store: MemoryStore, vim: Run) -> None:
    root = store.root
    start_vim(vim, root, "set nocompatible")
    store.remember(Candidate(text=CHARLIE, by="agent"))
    vim("send-keys", "-t", "0", f"/{ALPHA[:5]}", "Enter", "dd", ":w", "Enter")
    wait_until(lambda: "(y/n)" in screen(vim), "vim's changed-since-reading warning")
    vim("send-keys", "-t", "0", "y", "Enter")
    wait_until(lambda: ALPHA not in (root / "me.md").read_text(), "vim's save")
    vim("send-keys", "-t", "0", ":q!", "Enter")
    _asked_about_charlie_and_put_back(store)
