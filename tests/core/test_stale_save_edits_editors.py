"""Real vim and nano in tmux: a stale buffer that edits a line memrepo forgot meanwhile never brings it back
(engine/write/staleedits.py, docs/architecture.md §3, breaker10 B10-8).

The editor opens me.md, ``memrepo forget`` removes the agent's line, the user edits that line in the buffer
(fixes a word) and saves, answering the editor's "changed since reading" warning with yes. Before, the save
was committed as "Hand edits" with no question and the forgotten entry was back in HEAD (the loss9 stress
script: 2 revivals in 40 rounds, nano and an IDE-style save). Now it is a question, and "put back" keeps the
user's other line and the forget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers.editor_tmux import Run, nano_replace_all, screen, start_nano, start_vim, tmux_server, wait_until
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings())


@pytest.fixture
def vim(store: MemoryStore) -> Iterator[Run]:
    yield from tmux_server("memrepo-loss9", "vim")


@pytest.fixture
def nano(store: MemoryStore) -> Iterator[Run]:
    yield from tmux_server("memrepo-loss9", "nano")


def _forgotten_then_saved(store: MemoryStore, open_editor: Callable[[], Callable[[], None]]) -> None:
    """The agent's line is forgotten while the editor holds it; the editor's save edits it."""
    written = store.remember(Candidate(text="My old flat was on Elm Street", by="agent"))
    assert written.ref
    save = open_editor()
    assert store.forget(written.ref).commit
    save()
    me = store.root / "me.md"
    wait_until(lambda: "number 12" in me.read_text() and "Typed in" in me.read_text(), "the editor's save")


def _asked_and_put_back(store: MemoryStore) -> None:
    head = store.head()
    assert store.commit_hand_edits() is None  # never committed silently
    assert store.head() == head
    (q,) = store.status().questions
    assert len(q.revived) == 1 and "number 12" in q.revived[0], q.message
    store.answer_hand_edit("me.md", q.seen, commit=False)
    text = git(store.root, "show", "HEAD:me.md")
    assert "Elm Street" not in text and "Typed in" in text
    assert store.status().state is RepoState.CLEAN


@pytest.mark.slow
@pytest.mark.parametrize("vimrc", ["set nocompatible", "set nocompatible backupcopy=yes", "set nocompatible nowb"])
def test_vim_stale_buffer_editing_a_forgotten_line_is_asked(store: MemoryStore, vim: Run, vimrc: str) -> None:
    root = store.root

    def open_vim() -> Callable[[], None]:
        start_vim(vim, root, vimrc)

        def save() -> None:
            vim("send-keys", "-t", "0", ":%s/Elm Street/Elm Street, number 12/", "Enter")
            vim("send-keys", "-t", "0", "Go- Typed in vim [by: user]", "Escape", ":w", "Enter")
            wait_until(lambda: "(y/n)" in screen(vim), "vim's changed-since-reading warning")
            vim("send-keys", "-t", "0", "y", "Enter")

        return save

    _forgotten_then_saved(store, open_vim)
    vim("send-keys", "-t", "0", ":q!", "Enter")
    _asked_and_put_back(store)


@pytest.mark.slow
def test_nano_stale_buffer_editing_a_forgotten_line_is_asked(store: MemoryStore, nano: Run) -> None:
    root = store.root

    def open_nano() -> Callable[[], None]:
        start_nano(nano, root)

        def save() -> None:
            nano_replace_all(nano, "Elm Street", "Elm Street, number 12")
            nano("send-keys", "-t", "0", "M-/")
            nano("send-keys", "-t", "0", "-l", "--", "- Typed in nano [by: user]")
            nano("send-keys", "-t", "0", "Enter", "C-o")
            wait_until(lambda: "File Name to Write" in screen(nano), "nano's write prompt")
            nano("send-keys", "-t", "0", "Enter")
            wait_until(lambda: "continue saving" in screen(nano).casefold(), "nano's changed-since question")
            nano("send-keys", "-t", "0", "y")

        return save

    _forgotten_then_saved(store, open_nano)
    nano("send-keys", "-t", "0", "C-x")
    _asked_and_put_back(store)
