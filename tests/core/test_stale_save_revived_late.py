"""A stale save never brings a forgotten line back silently, however long after the forget
(engine/write/stalesave.py, docs/architecture.md §3, breaker27 B27-3).

vim read me.md, the user forgot "I live in Lyon", and vim saved its copy more than an hour later (a buffer left
open all morning): the guard looked only at memrepo's commits of the last hour (``WINDOW_S``), so the save was
committed as "Hand edits" with the forgotten line back and nothing said. It now goes by the save's base, as the
drop side does: a line memrepo removed after the version the editor read is revived, whatever its age. The hour is
stood for by setting ``WINDOW_S`` to 0 (no test waits an hour).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.errors import HandEditQuestion
from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.write import stalesave


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MemoryStore:
    monkeypatch.setattr(stalesave, "WINDOW_S", 0.0)  # every commit is older than the window: "hours later"
    return MemoryStore.open(tmp_path / "memory", plain_settings())


def _save(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.editor-tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
    os.utime(path, (time.time() - 1, time.time() - 1))


def test_a_save_long_after_the_forget_is_still_asked(store: MemoryStore) -> None:
    assert store.remember(Candidate(text="I cycle to work", by="user")).commit
    written = store.remember(Candidate(text="I live in Lyon", by="user"))
    assert written.ref
    me = store.root / "me.md"
    read = me.read_text()  # the editor reads the file
    assert store.forget(written.ref).commit
    assert store.remember(Candidate(text="I drink oolong tea", by="user")).commit  # memrepo writes on meanwhile
    _save(me, read + "- User typed line ZZZ [by: user]\n")
    head = store.head()
    status = store.status()
    assert status.state is RepoState.HAND_EDITED
    (q,) = status.questions
    assert len(q.revived) == 1 and "Lyon" in q.revived[0], q
    assert "brings back 1 entry memrepo removed after its copy was read" in q.message
    with pytest.raises(HandEditQuestion):
        store.remember(Candidate(text="I water the plants on Sundays", by="user"))
    assert store.head() == head and "Lyon" not in git(store.root, "show", "HEAD:me.md")
    store.answer_hand_edit("me.md", q.seen, commit=False)  # put back: the save, without the forgotten line
    text = git(store.root, "show", "HEAD:me.md")
    assert "Lyon" not in text and "ZZZ" in text and "oolong" in text


def test_a_line_typed_again_into_a_copy_read_after_the_forget_is_the_user_s(store: MemoryStore) -> None:
    written = store.remember(Candidate(text="I live in Lyon", by="user"))
    assert written.ref
    me = store.root / "me.md"
    line = next(x for x in me.read_text().splitlines(keepends=True) if "Lyon" in x)
    assert store.forget(written.ref).commit
    assert store.remember(Candidate(text="I drink oolong tea", by="user")).commit
    _save(me, me.read_text() + line)  # the very line, typed into a fresh copy: the user means it
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None
    assert "I live in Lyon" in git(store.root, "show", "HEAD:me.md")
