"""A save that changes a line memrepo wrote is an edit, not a stale copy (breaker7 B7-10, loss8).

breaker7 ran `memrepo remember "Lunch is at noon"`, then changed that line in the current file to
"- Lunch is at 12:30 [by: user]" (its metadata cut with the old value). status asked "a save drops 1 entry
memrepo wrote after its copy was read (an editor's copy from before?)", and the offered put-back kept both
noon and 12:30 as the user's facts. The two are told apart by the save's base: a copy read after memrepo
wrote the line holds every other line memrepo added since, and the changed line sits where the old one was,
keeping most of its words. A stale copy that lacks a line memrepo added later is still asked about.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.editor_tmux import Run, tmux_server, wait_until
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings())


def settle(path: Path) -> None:
    os.utime(path, (time.time() - 1, time.time() - 1))


def _remember(store: MemoryStore, *texts: str) -> None:
    for text in texts:
        assert store.remember(Candidate(text=text, by="user")).commit


def test_changing_a_recent_line_and_its_metadata_is_an_edit(store: MemoryStore) -> None:
    """breaker7's exact edit (sed -i on the current file): the value and the metadata changed together."""
    _remember(store, "Always answer in metric units", "The office wifi is Orchard", "Lunch is at noon")
    me = store.root / "me.md"
    text = me.read_text()
    line = next(x for x in text.splitlines() if "Lunch is at noon" in x)
    me.write_text(text.replace(line, "- Lunch is at 12:30 [by: user]"))
    settle(me)
    assert store.status().questions == []
    commit = store.commit_hand_edits()
    assert commit is not None
    head = git(store.root, "show", "HEAD:me.md")
    assert "Lunch is at 12:30" in head and "Lunch is at noon" not in head
    body = git(store.root, "show", "-s", "--format=%B", commit)
    assert f"Removed entries memrepo wrote:\n  me.md: {line}\n" in body  # still named in the log


def test_a_stale_copy_with_a_like_line_in_the_same_place_is_still_asked_about(store: MemoryStore) -> None:
    """The copy was read before memrepo wrote both lines: it lacks "Dinner ..." too, so "Lunch is at 13" typed
    where memrepo's "Lunch is at 12" now sits is no edit of it. Both are asked about; put-back keeps all."""
    me = store.root / "me.md"
    read = me.read_text()
    _remember(store, "Lunch is at 12", "Dinner is at 7")
    me.write_text(read + "- Lunch is at 13 [by: user]\n")
    settle(me)
    (q,) = store.status().questions
    assert sorted("Lunch" in x for x in q.dropped) == [False, True] and "drops 2 entries" in q.message


def test_an_unrelated_line_in_the_same_place_is_still_a_stale_copy(store: MemoryStore) -> None:
    me = store.root / "me.md"
    read = me.read_text()
    _remember(store, "I review pull requests before lunch")
    me.write_text(read + "- Typed in the editor [by: user]\n")
    settle(me)
    (q,) = store.status().questions
    assert len(q.dropped) == 1 and "pull requests" in q.dropped[0]


# -- a real vim in tmux ---------------------------------------------------------------------------


@pytest.fixture
def tmux() -> Iterator[Run]:
    yield from tmux_server("loss8", "vim")


@pytest.mark.slow
def test_vim_retyping_a_recent_line_is_committed_as_an_edit(store: MemoryStore, tmux: Run) -> None:
    """In vim, `cc` on memrepo's newest line and a new value typed without the metadata, then `:w`."""
    root = store.root
    _remember(store, "Always answer in metric units", "The office wifi is Orchard", "Lunch is at 12")
    vimrc = "set nocompatible directory=. nobackup nowritebackup viminfo= noautoread"
    started = tmux("new-session", "-d", "-x", "120", "-y", "30", "-c", str(root), f"vim -u NONE -c '{vimrc}' me.md")
    assert started.returncode == 0, started.stderr
    wait_until((root / ".me.md.swp").exists, "vim's swap file")
    tmux("send-keys", "-t", "0", "/Lunch is at 12", "Enter")
    tmux("send-keys", "-t", "0", "cc- Lunch is at 13 [by: user]", "Escape", ":w", "Enter")
    me = root / "me.md"
    wait_until(lambda: "Lunch is at 13" in me.read_text(), "vim's save")
    tmux("send-keys", "-t", "0", ":q!", "Enter")
    settle(me)
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None
    head = git(root, "show", "HEAD:me.md")
    assert "Lunch is at 13" in head and "Lunch is at 12" not in head
    assert "metric units" in head and "Orchard" in head
