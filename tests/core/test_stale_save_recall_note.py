"""Recall's note while a stale-save question waits names only the entries the question keeps (breaker8 B8-5).

An editor read me.md, the user deleted two old lines in it, an agent wrote two entries meanwhile, and the editor
saved: the question counts the agent's two entries ("drops 2 entries memrepo wrote"); the user's deletions are
theirs, and "put back" keeps them deleted (engine/write/stalesave.py). Recall's note (engine/read/heldread.py)
still quoted the deleted lines as "the committed entries memrepo keeps", which no answer keeps.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from test_stale_save_base import stale_save

from memrepo.engine.models import Candidate
from memrepo.engine.read.heldread import held_recall_line
from memrepo.engine.repo.store import MemoryStore

KEPT = ("I moved to Porto", "My editor is now Neovim", "I row on Sundays", "I drink green tea", "I use fish shell")
"""Entries the save keeps: the two it loses are not most of the file (a question of its own)."""


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings())


def _without(text: str, *needles: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not any(n in line for n in needles))


def test_the_note_quotes_the_dropped_entries_not_the_user_s_deletions(store: MemoryStore) -> None:
    me = store.root / "me.md"
    for text in ("I live in Lyon", "My editor is Emacs", *KEPT):  # the newest kept: the base is found
        assert store.remember(Candidate(text=text, by="user")).commit
    copy = me.read_text()  # the editor reads the file
    for text in ("The user is allergic to peanuts", "The user's editor font is Iosevka"):
        assert store.remember(Candidate(text=text, by="agent")).commit
    stale_save(me, _without(copy, "Lyon", "Emacs"))
    (q,) = store.status().questions  # the question held.json now names (.heldread)
    assert len(q.dropped) == 2 and "Emacs" not in q.message
    said = held_recall_line(store.root, "editor")
    assert said is not None and "Iosevka" in said, said  # a dropped entry: memrepo keeps it until the answer
    assert "Emacs" not in said, said  # the user deleted it: no answer keeps it
    assert "Lyon" not in (held_recall_line(store.root, "Lyon") or "")
    counted = held_recall_line(store.root, "quantum")
    assert counted is not None and "2 committed entries, none matching" in counted, counted


def test_a_deleted_file_still_quotes_every_committed_entry(store: MemoryStore) -> None:
    """With no stale copy (the file deleted), every committed entry is what the question is about."""
    for text in ("I live in Lyon", "My editor is Emacs"):
        assert store.remember(Candidate(text=text, by="user")).commit
    (store.root / "me.md").unlink()
    (q,) = store.status().questions
    assert q.deleted and not q.dropped
    said = held_recall_line(store.root, "editor Lyon")
    assert said is not None and "Emacs" in said and "Lyon" in said, said
