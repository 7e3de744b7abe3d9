"""An editor's stale save never undoes a forget silently (engine/write/stalesave.py, docs/architecture.md §3).

The editor read me.md, memrepo forgot an entry in it (or replaced one), the editor saved its copy: the
forgotten line is back. Found by breaker3 with vim and nano in tmux: the save was committed as "Hand
edits" by the next write with no question, so the acknowledged forget was gone. It is now held as a
question; "put back" keeps the save without the lines memrepo removed.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from helpers.repo_helpers import commit_by_hand, git, plain_settings

from memrepo.engine.errors import HandEditQuestion
from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings())


def stale_save(path: Path, text: str) -> None:
    """Save ``text`` as an editor does (a temp file renamed over it), older than the settle quiet time."""
    tmp = path.with_name(f".{path.name}.editor-tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
    os.utime(path, (time.time() - 1, time.time() - 1))


def forget_then_stale_save(store: MemoryStore) -> Path:
    """me.md holds a secret-ish fact; the editor reads it, memrepo forgets it, the editor saves with a line."""
    written = store.remember(Candidate(text="My old flat was on Elm Street", by="user"))
    assert written.commit and written.ref
    me = store.root / "me.md"
    read = me.read_text()
    assert store.forget(written.ref).commit
    assert "Elm Street" not in me.read_text()
    stale_save(me, read + "- Typed in the editor [by: user]\n")
    return me


def test_a_save_that_brings_back_a_forgotten_entry_is_held_as_a_question(store: MemoryStore) -> None:
    me = forget_then_stale_save(store)
    head = store.head()
    assert store.commit_hand_edits() is None  # not committed silently
    assert store.head() == head
    status = store.status()
    assert status.state is RepoState.HAND_EDITED
    (q,) = status.questions
    assert q.path == "me.md" and q.dropped == [] and len(q.revived) == 1 and "Elm Street" in q.revived[0]
    assert "brings back 1 entry memrepo removed" in q.message and "--put-back me.md" in q.message
    # The next write never commits the save on its way: refused with the question, nothing written.
    saved = me.read_bytes()
    with pytest.raises(HandEditQuestion, match="brings back 1 entry memrepo removed"):
        store.remember(Candidate(text="I water the plants on Sundays", by="user"))
    assert store.head() == head and me.read_bytes() == saved
    assert "Elm Street" not in git(store.root, "show", "HEAD:me.md")


def test_put_back_keeps_the_save_and_the_forget(store: MemoryStore) -> None:
    me = forget_then_stale_save(store)
    (q,) = store.status().questions
    commit = store.answer_hand_edit("me.md", q.seen, commit=False)
    assert commit is not None and commit == store.head()
    text = git(store.root, "show", "HEAD:me.md")
    assert "Elm Street" not in text and "Typed in the editor" in text
    assert me.read_text() == text
    assert store.status().state is RepoState.CLEAN


def test_commit_keeps_the_save_as_it_is(store: MemoryStore) -> None:
    forget_then_stale_save(store)
    (q,) = store.status().questions
    store.answer_hand_edit("me.md", q.seen, commit=True)
    text = git(store.root, "show", "HEAD:me.md")
    assert "Elm Street" in text and "Typed in the editor" in text


def test_a_replaced_entry_comes_back_once_put_back(store: MemoryStore) -> None:
    """remember --subject replaces a line: the stale copy lacks the new one and holds the old one."""
    store.remember(Candidate(text="Editor is nano", by="user", subject="editor"))
    me = store.root / "me.md"
    read = me.read_text()
    store.remember(Candidate(text="Editor is helix", by="user", subject="editor"))
    stale_save(me, read + "- Typed in the editor [by: user]\n")
    (q,) = store.status().questions
    assert any("helix" in x for x in q.dropped) and any("nano" in x for x in q.revived)
    assert "drops 1 entry memrepo wrote after its copy was read and brings back 1 entry memrepo removed" in q.message
    store.answer_hand_edit("me.md", q.seen, commit=False)
    text = git(store.root, "show", "HEAD:me.md")
    assert "helix" in text and "nano" not in text and "Typed in the editor" in text


def test_adding_back_a_line_the_user_removed_by_hand_is_no_question(store: MemoryStore) -> None:
    """Only memrepo's removals are guarded: a user's own edits are theirs to undo."""
    store.remember(Candidate(text="I keep a paper diary", by="user"))
    me = store.root / "me.md"
    text = me.read_text()
    line = next(x for x in text.splitlines(keepends=True) if "paper diary" in x)
    stale_save(me, text.replace(line, ""))
    assert store.commit_hand_edits(confirm=True) is not None  # the user removes it, and says so
    stale_save(me, me.read_text() + line)
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None
    assert "paper diary" in git(store.root, "show", "HEAD:me.md")


def test_a_line_a_git_commit_by_hand_removed_is_no_forget_to_guard(store: MemoryStore) -> None:
    """A merge by `git pull` or a `git commit -am` that removed a line is not memrepo's forget: a save that has the
    line again (memrepo's own write landing in the work tree during the merge, found by breaker3 under SIGKILL
    with git running beside it) is committed, never held and "put back" without it."""
    store.remember(Candidate(text="I keep a paper diary", by="user"))
    me = store.root / "me.md"
    text = me.read_text()
    line = next(x for x in text.splitlines(keepends=True) if "paper diary" in x)
    me.write_text(text.replace(line, ""))
    commit_by_hand(store.root, "removed by git commit -am")
    stale_save(me, me.read_text() + line)
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None
    assert "paper diary" in git(store.root, "show", "HEAD:me.md")


def test_a_stale_inbox_that_brings_back_an_accepted_entry_is_held(store: MemoryStore) -> None:
    """The app accepts an inbox entry while an editor has inbox.md open; the editor saves: the entry would be in
    the inbox again and in me.md (seen with nano and the app in tmux)."""
    inboxed = store.remember(Candidate(text="The build cache lives on the NAS", by="agent", untrusted=True))
    assert inboxed.action.value == "inboxed" and inboxed.ref
    inbox = store.root / "inbox.md"
    read = inbox.read_text()
    assert store.accept(inboxed.ref).commit
    stale_save(inbox, read)
    (q,) = store.status().questions
    assert q.path == "inbox.md" and len(q.revived) == 1 and "build cache" in q.revived[0]
    store.answer_hand_edit("inbox.md", q.seen, commit=False)
    assert "build cache" not in inbox.read_text()
    assert "build cache" in git(store.root, "show", "HEAD:me.md")
    assert store.status().state is RepoState.CLEAN
