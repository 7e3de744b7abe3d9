"""What a long-running process keeps of the recall index's walks (docs/architecture.md §4; issue 30: RSS < 200 MB at
20,000 files). A walk's stats are kept only until the reader that adopts the index takes them; each is four fields."""

from __future__ import annotations

import os
from pathlib import Path

from helpers.repo_helpers import plain_settings

from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallfile import open_index
from memrepo.engine.read.recallkeys import FileStat, walk
from memrepo.engine.repo.repo import MemoryRepo


def _files(root: Path, count: int) -> None:
    (root / "topics").mkdir(parents=True)
    for i in range(count):
        (root / "topics" / f"t{i}.md").write_text(f"# Topic {i}\n\n- Fact {i} about the release\n", encoding="utf-8")


def test_a_walk_holds_the_four_fields_recall_reads(tmp_path: Path) -> None:
    _files(tmp_path, 3)
    found = walk(tmp_path)
    st = os.stat(tmp_path / "topics" / "t1.md")
    assert found["topics/t1.md"] == FileStat(st.st_mtime_ns, st.st_size, st.st_ctime_ns, st.st_ino)
    assert found["topics/t1.md"].st_size == st.st_size


def test_only_the_index_opened_for_adoption_keeps_its_walk(tmp_path: Path) -> None:
    _files(tmp_path, 5)
    (tmp_path / ".git").mkdir()
    plain = RecallIndex(tmp_path)
    plain.sync()
    assert plain.last_walk is None  # a sync keeps no stats nobody asked for
    plain.close()
    opened = open_index(tmp_path)
    assert opened.last_walk is not None and set(opened.last_walk) == {f"topics/t{i}.md" for i in range(5)}
    opened.close()


async def test_a_long_running_process_keeps_no_walk_after_its_recalls(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    repo = await MemoryRepo.open(root, plain_settings())
    try:
        _files(root, 4)
        await repo.warm_recall()
        index = repo._store.reads.recall_index_built
        assert index is not None and index.last_walk is None  # taken by the reader at adoption
        (root / "topics" / "t9.md").write_text("# Late\n\n- A late fact\n", encoding="utf-8")
        assert await repo.recall("late fact")  # a full sync walks every file again
        assert index.last_walk is None  # and keeps none of it (18 MB at 20,000 files)
    finally:
        await repo.close()
