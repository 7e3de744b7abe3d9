"""A first build that commits in batches shares the index file with another process's sync (docs/architecture.md §4).

CI (stop 52) failed ``tests/mcp/test_mcp.py::test_sessions_share_a_workspace_and_stay_isolated_across_workspaces``:
three MCP servers on one memory folder, and a recall answered "the recall index ... could not be written (UNIQUE
constraint failed: items.id)". A first build commits every ``BUILD_BATCH_FILES`` files so writers get the file between
batches; it then went on with the entry sequence number it had read before, so entries another process indexed in
that gap had the ids the build gave next.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from memrepo.engine.read import recall as recall_module
from memrepo.engine.read.recall import RecallIndex


class _Gap:
    """The build's connection; when it begins its second batch, another index writes first (another process)."""

    def __init__(self, db: sqlite3.Connection, between: Any) -> None:
        self._db, self._between, self._begins = db, between, 0

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "BEGIN IMMEDIATE":
            self._begins += 1
            if self._begins == 2:
                self._between()
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def _file(i: int) -> str:
    return f"# Notes {i}\n\n" + "".join(f"- Note {i}.{j} about widget {i * 10 + j} [by: agent]\n" for j in range(3))


def test_a_batched_build_goes_on_after_another_process_indexed_in_its_gap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "memory"
    (root / ".git" / "memrepo").mkdir(parents=True)
    for i in range(4):
        (root / f"n{i}.md").write_text(_file(i), encoding="utf-8")
    monkeypatch.setattr(recall_module, "BUILD_BATCH_FILES", 1)
    path = root / ".git" / "memrepo" / "recall.sqlite"
    builder, other = RecallIndex(root, path), RecallIndex(root, path)

    def between() -> None:  # another process: a line remembered into a file the build's walk did not see
        (root / "late.md").write_text("# Late\n\n- The late note about gadgets [by: agent]\n", encoding="utf-8")
        assert other.sync(["late.md"], partial=True) == 1

    builder._db = _Gap(builder._db, between)  # type: ignore[assignment]
    assert builder.sync() == 4  # no "UNIQUE constraint failed: items.id"

    fresh = RecallIndex(root, path)
    assert fresh.sync() == 0  # what both wrote is the folder as it is: nothing left to read
    assert [fresh.entry(i)[2] for i, _ in fresh.search("gadgets")] == ["The late note about gadgets"]
    assert fresh.entry(fresh.search("widget 31")[0][0])[2] == "Note 3.1 about widget 31"
    assert len(fresh) == 13  # the count both kept: 4 files of 3 and the late line
    ids = [iid for (iid,) in fresh._db.execute("SELECT id FROM items")]
    assert len(ids) == len(set(ids)) == 13
