"""Real vim and nano in tmux: a stale buffer that edits, in place, the newest line memrepo wrote never drops the
agent's next line silently (engine/write/staleedits.py ``rewritten_lines``, docs/architecture.md §3, breaker7
B7-10).

The editor opens me.md, whose newest line is the agent's "My build cache lives in /var/cache/build"; the agent
then writes "The deploy key rotates every Monday"; the user changes "/var" to "/srv" in the buffer and saves,
answering the editor's "changed since reading" warning with yes. The save lacks two lines of HEAD with the same
metadata (``[by: agent; added: <today>; kind: fact]``): the one it edited and the agent's new one. Before, its
edited line counted as the rewrite of every line with its metadata, so the agent's acknowledged line was
dropped by a "Hand edits" commit with no question. Now the edited line rewrites only the line it reads like: the
save is asked about naming the agent's line alone, and "put back" keeps the user's edit and the agent's line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers.editor_tmux import Run, nano_replace_all, screen, start_nano, start_vim, tmux_server, wait_until
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore

EDITED = "My build cache lives in /var/cache/build"
AGENT = "The deploy key rotates every Monday"


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings())


@pytest.fixture
def vim(store: MemoryStore) -> Iterator[Run]:
    yield from tmux_server("memrepo-loss10", "vim")


@pytest.fixture
def nano(store: MemoryStore) -> Iterator[Run]:
    yield from tmux_server("memrepo-loss10", "nano")


def _newest_edited_in_a_stale_buffer(store: MemoryStore, open_editor: Callable[[], Callable[[], None]]) -> None:
    for i in range(4):
        store.remember(Candidate(text=f"Older fact {i} about the llama farm", by="agent"))
    store.remember(Candidate(text=EDITED, by="agent"))
    save = open_editor()
    store.remember(Candidate(text=AGENT, by="agent"))  # lands after the editor read the file
    save()
    me = store.root / "me.md"
    wait_until(lambda: "/srv/cache/build" in me.read_text(), "the editor's save")


def _asked_and_put_back(store: MemoryStore) -> None:
    head = store.head()
    assert store.commit_hand_edits() is None  # never committed silently
    assert store.head() == head
    (q,) = store.status().questions
    assert len(q.dropped) == 1 and AGENT in q.dropped[0], q.message  # the user is told which line it drops
    store.answer_hand_edit("me.md", q.seen, commit=False)
    lines = git(store.root, "show", "HEAD:me.md").splitlines()
    assert sum("/srv/cache/build" in line for line in lines) == 1  # the user's edit
    assert sum(AGENT in line for line in lines) == 1  # the agent's line
    assert not any("/var/cache/build" in line for line in lines)  # the edited value, replaced by the user's
    assert sum("about the llama farm" in line for line in lines) == 4
    assert store.status().state is RepoState.CLEAN


@pytest.mark.slow
@pytest.mark.parametrize("vimrc", ["set nocompatible", "set nocompatible backupcopy=yes"])
def test_vim_stale_edit_of_the_newest_line_keeps_the_agents_next_line(store: MemoryStore, vim: Run, vimrc: str) -> None:
    root = store.root

    def open_vim() -> Callable[[], None]:
        start_vim(vim, root, vimrc)

        def save() -> None:
            vim("send-keys", "-t", "0", ":%s#/var/cache#/srv/cache#", "Enter", ":w", "Enter")
            wait_until(lambda: "(y/n)" in screen(vim), "vim's changed-since-reading warning")
            vim("send-keys", "-t", "0", "y", "Enter")

        return save

    _newest_edited_in_a_stale_buffer(store, open_vim)
    vim("send-keys", "-t", "0", ":q!", "Enter")
    _asked_and_put_back(store)


@pytest.mark.slow
def test_nano_stale_edit_of_the_newest_line_keeps_the_agents_next_line(store: MemoryStore, nano: Run) -> None:
    root = store.root

    def open_nano() -> Callable[[], None]:
        start_nano(nano, root)

        def save() -> None:
            nano_replace_all(nano, "/var/cache", "/srv/cache")
            nano("send-keys", "-t", "0", "C-o")
            wait_until(lambda: "File Name to Write" in screen(nano), "nano's write prompt")
            nano("send-keys", "-t", "0", "Enter")
            wait_until(lambda: "continue saving" in screen(nano).casefold(), "nano's changed-since question")
            nano("send-keys", "-t", "0", "y")

        return save

    _newest_edited_in_a_stale_buffer(store, open_nano)
    nano("send-keys", "-t", "0", "C-x")
    _asked_and_put_back(store)
