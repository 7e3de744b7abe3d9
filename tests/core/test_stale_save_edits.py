"""An editor's stale copy that edits a line memrepo changed meanwhile loses nothing and revives nothing
(engine/write/staleedits.py, engine/write/stalesave.py, docs/architecture.md §3).

Found by breaker10: B10-8, a stale copy that edits a line just forgotten (`memrepo forget`) was committed as
"Hand edits" with no question, so the forgotten entry came back in other words; B10-2, the user edits the
agent's line in a stale copy while memrepo rewrites that line (a reinforce, a ``--subject`` replace) and
adds another: "put back" kept the user's value and the agent's side by side as two current entries. The
save is now asked about, and "put back" merges against the version the editor read, so the two values of one
line are one conflict (``conflict:`` key, the Inbox pane) for the user to pick.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.format.merge import CONFLICT_KEY
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


def _line(text: str, needle: str) -> str:
    return next(line for line in text.splitlines() if needle in line)


def test_a_stale_copy_editing_a_forgotten_line_is_asked_and_put_back_keeps_it_forgotten(store: MemoryStore) -> None:
    written = store.remember(Candidate(text="My old flat was on Elm Street", by="agent"))
    assert written.ref
    me = store.root / "me.md"
    read = me.read_text()
    assert store.forget(written.ref).commit
    line = _line(read, "Elm Street")
    stale_save(me, read.replace(line, line.replace("Elm Street", "Elm Street, number 12")) + "- Typed [by: user]\n")
    head = store.head()
    assert store.commit_hand_edits() is None  # not committed silently
    assert store.head() == head
    (q,) = store.status().questions
    assert q.dropped == [] and len(q.revived) == 1 and "number 12" in q.revived[0]
    store.answer_hand_edit("me.md", q.seen, commit=False)
    text = git(store.root, "show", "HEAD:me.md")
    assert "Elm Street" not in text and "- Typed [by: user]" in text
    assert store.status().state is RepoState.CLEAN


def test_a_fresh_edit_of_a_line_like_a_forgotten_one_is_no_revival(store: MemoryStore) -> None:
    first = store.remember(Candidate(text="Agent fact one about the build cache", by="agent"))
    store.remember(Candidate(text="Agent fact two about the build cache", by="agent"))
    assert first.ref and store.forget(first.ref).commit
    me = store.root / "me.md"
    read = me.read_text()  # read after the forget: a fresh copy
    line = _line(read, "fact two")
    stale_save(me, read.replace(line, line.replace("fact two", "fact two (checked)")))
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None
    assert "fact two (checked)" in git(store.root, "show", "HEAD:me.md")


def test_put_back_of_a_stale_edit_of_a_replaced_line_is_one_conflict_not_two_values(store: MemoryStore) -> None:
    store.remember(Candidate(text="My editor is vim", by="agent", subject="editor"))
    me = store.root / "me.md"
    read = me.read_text()  # the editor's copy
    store.remember(Candidate(text="My editor is helix", by="agent", subject="editor", source="session-2"))
    store.remember(Candidate(text="The build uses ninja", by="agent"))
    line = _line(read, "My editor is vim")
    stale_save(me, read.replace(line, line.replace("vim", "emacs")) + "- Typed [by: user]\n")
    (q,) = store.status().questions
    assert any("ninja" in d for d in q.dropped)
    store.answer_hand_edit("me.md", q.seen, commit=False)
    text = git(store.root, "show", "HEAD:me.md")
    assert "ninja" in text and "- Typed [by: user]" in text and "is vim" not in text
    values = [ln for ln in text.splitlines() if "My editor is" in ln]
    assert len(values) == 2 and all(f"{CONFLICT_KEY}:" in ln for ln in values), values
    assert store.status().state is RepoState.CLEAN


def test_a_stale_edit_of_the_old_value_never_silently_replaces_the_agents_new_one(store: MemoryStore) -> None:
    """The same metadata on both values (same day, subject, author): the user's edit of the old value read as a
    rewrite of the agent's new line, so the save was committed with no question and the new value was gone."""
    store.remember(Candidate(text="My editor is vim", by="agent", subject="editor"))
    me = store.root / "me.md"
    read = me.read_text()
    store.remember(Candidate(text="My editor is helix", by="agent", subject="editor"))
    line = _line(read, "My editor is vim")
    stale_save(me, read.replace(line, line.replace("vim", "emacs")))
    head = store.head()
    assert store.commit_hand_edits() is None
    assert store.head() == head
    (q,) = store.status().questions
    assert any("helix" in d for d in q.dropped)
    store.answer_hand_edit("me.md", q.seen, commit=False)
    values = [ln for ln in git(store.root, "show", "HEAD:me.md").splitlines() if "My editor is" in ln]
    assert len(values) == 2 and all(f"{CONFLICT_KEY}:" in ln for ln in values), values


def test_a_fresh_edit_of_the_agents_new_value_is_a_hand_edit(store: MemoryStore) -> None:
    store.remember(Candidate(text="My editor is vim", by="agent", subject="editor"))
    store.remember(Candidate(text="My editor is helix", by="agent", subject="editor"))
    me = store.root / "me.md"
    read = me.read_text()  # read after both writes
    line = _line(read, "My editor is helix")
    stale_save(me, read.replace(line, line.replace("helix", "helix 24.07")))
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None
    assert "My editor is helix 24.07" in git(store.root, "show", "HEAD:me.md")


def test_a_stale_edit_of_an_older_agent_line_still_asks_about_the_agents_new_line(store: MemoryStore) -> None:
    """breaker7 B7-10's wider form: every line the agent writes in a day carries the same metadata, so an edited
    line of the stale copy counted as the rewrite of all of them and the agent's newer line was dropped silently.
    Each new line now rewrites only the line it reads most like."""
    me = store.root / "me.md"
    for text in ("My build cache lives in /var/cache/build", "Tests run with pytest -n 2", "CI uses two runners"):
        store.remember(Candidate(text=text, by="agent"))
    copy = me.read_text()  # the editor's copy
    store.remember(Candidate(text="The deploy key rotates every Monday", by="agent"))
    line = _line(copy, "/var/cache/build")
    stale_save(me, copy.replace(line, line.replace("/var/cache", "/srv/cache")))
    assert store.commit_hand_edits() is None
    (q,) = store.status().questions
    assert len(q.dropped) == 1 and "deploy key" in q.dropped[0], q.message
    store.answer_hand_edit("me.md", q.seen, commit=False)
    head = git(store.root, "show", "HEAD:me.md")
    assert "/srv/cache/build" in head and "deploy key" in head and "/var/cache/build" not in head


def test_the_newest_line_reworded_whole_is_asked_and_commit_keeps_the_rewording(store: MemoryStore) -> None:
    """A rewording whole (texts that do not pair as an edit) of a line added after the save's base reads the same
    as a stale copy's new line beside the agent's newer line, which the copy never held (breaker21 B21-6): it is
    asked about rather than dropped silently, and "commit" keeps the user's rewording."""
    me = store.root / "me.md"
    store.remember(Candidate(text="Tests run with pytest -n 2", by="agent"))
    store.remember(Candidate(text="My build cache lives in /var/cache/build", by="agent"))
    text = me.read_text()
    line = _line(text, "/var/cache/build")
    stale_save(me, text.replace(line, line.replace("My build cache lives in /var/cache/build", "Ccache: off")))
    (q,) = store.status().questions
    assert len(q.dropped) == 1 and "/var/cache/build" in q.dropped[0], q.message
    store.answer_hand_edit("me.md", q.seen, commit=True)
    head = git(store.root, "show", "HEAD:me.md")
    assert "Ccache: off" in head and "/var/cache/build" not in head
