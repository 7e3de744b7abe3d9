"""A file over 4 MB is named, not parsed, by ``read_file`` (engine/read/readfile.py).

Found by breaker3: opening a 50 MB topics/huge.md (committed by hand) in the app's Files pane took about 10 s and
grew the app from 104 MB to 1.34 GB; every one of its 600,000 lines was parsed. Recall skips a file over 1 MB and Health
names it; the app, ``memrepo show`` and the other readers now get ``text`` None with the reason, as for a binary file.
"""

from __future__ import annotations

from pathlib import Path

from helpers.repo_helpers import plain_settings

from memrepo.engine.read.readfile import READ_FILE_MAX, read_file
from memrepo.engine.repo.store import MemoryStore


def test_a_file_over_the_bound_is_not_parsed(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    line = "- A fact about rocket fuel logistics, one of very many [by: user]\n"
    big = store.root / "topics" / "huge.md"
    big.parent.mkdir()
    big.write_text("# Huge\n\n" + line * (READ_FILE_MAX // len(line) + 1))
    view = store.read_file("topics/huge.md")
    assert view.text is None and view.entries == [] and view.size == big.stat().st_size
    assert view.error == "over 4 MB, so not read: split it"
    small = store.root / "topics" / "small.md"
    small.write_text("# Small\n\n" + line)
    assert len(read_file(store.root, "topics/small.md").entries) == 1
