"""A second stale save from the same editor buffer, after "put back", is asked about again (breaker30 B30-19;
engine/write/stalesave.py, docs/architecture.md §3).

vim read me.md and the user typed an entry line; memrepo wrote an entry meanwhile; vim's save dropped it and was
asked about; the user answered ``--put-back``, which committed the save with memrepo's entry put back. vim still
held its old buffer: the user typed another line and saved again, dropping the entry once more, and memrepo
committed that as the user's own deletion, no question. The put-back commit had added the user's first line, so it
read as the version the editor's copy came from. A put-back commit (``Answer: put back``) is never taken for it.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore

MEMRE = "Reviews PRs in the morning"


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for text in ("Prefers tabs over spaces", "Works from Lisbon", "Uses fish as the shell"):
        assert store.remember(Candidate(text=text, kind="preference", by="user")).commit
    return store


def _save(path: Path, text: str) -> None:
    """An editor's save: a temp file renamed over the file (vim's default, nano's ``^O`` alike)."""
    tmp = path.with_name(f".{path.name}.editor-tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
    os.utime(path, (time.time() - 1, time.time() - 1))


def _dropped(store: MemoryStore) -> list[str]:
    (q,) = store.status().questions
    return q.dropped


def test_the_same_stale_buffer_saved_again_after_put_back_is_asked_again(store: MemoryStore) -> None:
    me = store.root / "me.md"
    buffer = me.read_text()  # the editor reads the file
    assert store.remember(Candidate(text=MEMRE, kind="preference", by="user")).commit  # memrepo writes meanwhile
    buffer += "- Likes short commit messages [by: user]\n"
    _save(me, buffer)  # the first stale save: asked, as before
    assert [MEMRE in line for line in _dropped(store)] == [True]
    (q,) = store.status().questions
    store.answer_hand_edit("me.md", q.seen, commit=False)  # put back
    assert MEMRE in git(store.root, "show", "HEAD:me.md") and store.status().state is RepoState.CLEAN
    assert "Answer: put back" in git(store.root, "log", "-1", "--format=%B")

    buffer += "- Drinks oat milk [by: user]\n"
    _save(me, buffer)  # the same old buffer, saved again: it still lacks memrepo's line
    head = store.head()
    assert [MEMRE in line for line in _dropped(store)] == [True]
    assert store.commit_hand_edits() is None and store.head() == head  # never committed silently
    (q,) = store.status().questions
    store.answer_hand_edit("me.md", q.seen, commit=False)
    text = git(store.root, "show", "HEAD:me.md")
    assert MEMRE in text and "oat milk" in text and "short commit messages" in text


def test_a_fresh_copy_after_put_back_deleting_a_line_of_its_own_is_the_user_s(store: MemoryStore) -> None:
    """A copy read after the put-back holds memrepo's line: deleting one of the user's lines is no question."""
    me = store.root / "me.md"
    buffer = me.read_text()
    assert store.remember(Candidate(text=MEMRE, kind="preference", by="user")).commit
    _save(me, buffer + "- Likes short commit messages [by: user]\n")
    (q,) = store.status().questions
    store.answer_hand_edit("me.md", q.seen, commit=False)
    fresh = me.read_text()
    _save(me, "".join(line for line in fresh.splitlines(keepends=True) if "Works from Lisbon" not in line))
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None
    text = git(store.root, "show", "HEAD:me.md")
    assert "Lisbon" not in text and MEMRE in text
