"""The recall index's page size: 8 KB, for a new file and, at its next first build, for one made at 4 KB
(docs/architecture.md §4; issue 30: index size at most the markdown's)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from memrepo.engine.read import recallbuild, recallkeys
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallkeys import PAGE_SIZE, index_path
from memrepo.engine.read.recallopen import empty_index


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    lines = "".join(f"- Entry {i} about project {i % 7} and its release train {i}\n" for i in range(300))
    (root / "MEMORY.md").write_text("# Memory\n\n" + lines, encoding="utf-8")
    return root


def _page_size(root: Path) -> int:
    db = sqlite3.connect(index_path(root))
    try:
        return int(db.execute("PRAGMA page_size").fetchone()[0])
    finally:
        db.close()


def test_a_new_index_file_has_8_kb_pages(tmp_path: Path) -> None:
    root = _root(tmp_path)
    index = RecallIndex(root)
    index.sync()
    index.close()
    assert PAGE_SIZE == 8192
    assert _page_size(root) == PAGE_SIZE


def test_an_index_made_at_4_kb_takes_8_kb_pages_at_its_next_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _root(tmp_path)
    with monkeypatch.context() as m:  # an index an older memrepo made
        m.setattr(recallkeys, "PAGE_SIZE", 4096)
        m.setattr(recallbuild, "PAGE_SIZE", 4096)
        index = RecallIndex(root)
        index.sync()
        index.close()
    assert _page_size(root) == 4096
    index = RecallIndex(root)
    index.sync()  # built already: an incremental sync leaves the file as it is
    assert _page_size(root) == 4096
    empty_index(index._db)  # as an allow-list change does: built again from the files by the next process
    index.close()
    index = RecallIndex(root)
    index.sync()
    found = index.search("release train", limit=3)
    index.close()
    assert _page_size(root) == PAGE_SIZE
    assert found  # the rebuilt file answers
