"""A changed allow-list empties the recall index in place, so a process holding it open keeps working."""

from __future__ import annotations

import sqlite3

from memrepo.engine.models import Candidate
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.redaction import allow
from memrepo.engine.repo.store import MemoryStore


def test_an_open_index_survives_another_process_seeing_a_new_allow_list(store: MemoryStore) -> None:
    store.remember(Candidate(text="The billing service reads invoices nightly"))
    assert [h.text for h in store.recall("billing invoices")]  # the store now holds the index open
    allow.add(store.root / ".git" / "memrepo", "hunter2-correct-horse-battery", "labelled-secret")
    other = RecallIndex(store.root)  # another process opens it under the new list: emptied, not deleted
    try:
        assert other.built is False
        rows = sqlite3.connect(other.path).execute("SELECT count(*) FROM items").fetchone()[0]
        assert rows == 0
    finally:
        other.close()
    store.remember(Candidate(text="Invoices are archived after seven years"))  # the open index syncs this write
    texts = [h.text for h in store.recall("invoices")]
    assert any("archived" in t for t in texts) and any("nightly" in t for t in texts)
