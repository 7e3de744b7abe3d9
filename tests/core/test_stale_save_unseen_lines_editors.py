"""Real vim in tmux: a stale buffer whose user copies an entry line (``yyp``) and edits the copy never drops the
agent's newer line silently (breaker21 B21-6; engine/write/staleedits.py ``rewritten_lines``, docs/architecture.md
§3).

vim opens me.md, whose newest line is the agent's "Use pnpm for the web app"; the agent then writes "Deploys to
prod need a ticket in the ops channel"; in the buffer the user duplicates the pnpm line and changes the copy's
text, then saves, answering vim's "changed since reading" warning with yes. The copy carries the agent's metadata
of the day, and it "stood for" the agent's newer line, which the next write's "Hand edits" commit dropped with no
question. Now the save is asked about, naming the agent's line, and "put back" keeps both new lines.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.editor_tmux import Run, screen, start_vim, tmux_server, wait_until
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore

NEWER = "Deploys to prod need a ticket in the ops channel"


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings())


@pytest.fixture
def vim(store: MemoryStore) -> Iterator[Run]:
    yield from tmux_server("memrepo-fix12a", "vim")


@pytest.mark.slow
def test_vim_yyp_in_a_stale_buffer_keeps_the_agents_newer_line(store: MemoryStore, vim: Run) -> None:
    store.remember(Candidate(text="I live in Lyon"))
    store.remember(Candidate(text="Use pnpm for the web app", by="agent"))
    start_vim(vim, store.root, "set nocompatible")
    store.remember(Candidate(text=NEWER, by="agent"))  # lands after vim read the file
    vim("send-keys", "-t", "0", "/Use pnpm", "Enter", "yyp", ":s/Use pnpm for the web app/Use vitest for unit tests/")
    vim("send-keys", "-t", "0", "Enter", ":w", "Enter")
    wait_until(lambda: "(y/n)" in screen(vim), "vim's changed-since-reading warning")
    vim("send-keys", "-t", "0", "y", "Enter")
    me = store.root / "me.md"
    wait_until(lambda: "Use vitest for unit tests" in me.read_text(), "vim's save")
    vim("send-keys", "-t", "0", ":q!", "Enter")
    head = store.head()
    assert store.commit_hand_edits() is None  # never committed silently
    assert store.head() == head
    (q,) = store.status().questions
    assert len(q.dropped) == 1 and NEWER in q.dropped[0], q.message
    store.answer_hand_edit("me.md", q.seen, commit=False)
    lines = git(store.root, "show", "HEAD:me.md").splitlines()
    assert sum(NEWER in line for line in lines) == 1
    assert sum("Use vitest for unit tests" in line for line in lines) == 1
    assert sum("Use pnpm for the web app" in line for line in lines) == 1
    assert store.status().state is RepoState.CLEAN
