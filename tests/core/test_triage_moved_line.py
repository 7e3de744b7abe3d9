"""Triage one by one as listed: an entry whose line moved up after a discard above it is still found by what the
person saw (breaker24 B24-12; engine/write/triage.py ``_inbox_entry``, docs/architecture.md §6).

``REF@SEEN`` names the exact line seen. The next listed ref was refused as "no entry is there any more" once
the discard above it moved it up one line; the line is found where it moved, and a line that is gone (or only
a different line in its place) is still refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.errors import ChangedSinceSeen
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

ONE, TWO = "Fact one from the web page", "Fact two from the web page"


def test_the_next_listed_entry_is_accepted_after_a_discard_above_it(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for text in (ONE, TWO):
        store.remember(Candidate(text=text, untrusted=True, task="t1"))
    listed = {e.text: f"{e.ref}@{e.seen}" for e in store.read_file("inbox.md").entries}
    store.discard(listed[ONE])
    store.accept(listed[TWO])  # its line moved up one: found by what was seen
    assert TWO in (tmp_path / "memory" / "me.md").read_text()
    assert store.read_file("inbox.md").entries == []
    with pytest.raises(ChangedSinceSeen):  # gone: still refused, nothing accepted
        store.accept(listed[ONE])
    assert ONE not in (tmp_path / "memory" / "me.md").read_text()
