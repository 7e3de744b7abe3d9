"""Opening the recall index never deletes a file another process may be writing (docs/architecture.md §4).

A fresh-clone CI run of this round failed ``tests/mcp/test_mcp.py::test_sessions_share_a_workspace_and_stay_isolated
_across_workspaces``: three MCP servers opened one new index, and a recall answered "the recall index ... could not
be written (disk I/O error)". Opening treated any error but "busy" as a file of another version and deleted the
file and its journal, under the servers writing it. Only a file SQLite calls not a database, or damaged, is deleted
now; a passing error is tried again, then the process keeps its index in memory.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from memrepo.engine.read import recallopen
from memrepo.engine.read.recall import RecallIndex


def _io_error() -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError("disk I/O error")
    exc.sqlite_errorcode = sqlite3.SQLITE_IOERR  # type: ignore[attr-defined]
    return exc


def _index(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "memory"
    (root / ".git" / "memrepo").mkdir(parents=True)
    (root / "notes.md").write_text("# Notes\n\n- The nightly runs at 02:00 [by: user]\n", encoding="utf-8")
    path = root / ".git" / "memrepo" / "recall.sqlite"
    first = RecallIndex(root, path)
    assert first.sync() == 1
    first.close()
    return root, path


def test_a_passing_error_on_open_keeps_the_file_and_the_next_try_uses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, path = _index(tmp_path)
    inode, real, calls = path.stat().st_ino, recallopen.connect, []

    def flaky(target: str) -> sqlite3.Connection:
        calls.append(target)
        if len(calls) == 1:
            raise _io_error()
        return real(target)

    monkeypatch.setattr(recallopen, "connect", flaky)
    again = RecallIndex(root, path)
    assert again.path == str(path) and path.stat().st_ino == inode  # the same file, not deleted and made again
    assert again.built and again.sync() == 0  # what was indexed is there
    assert [again.entry(i)[2] for i, _ in again.search("nightly")] == ["The nightly runs at 02:00"]


def test_an_error_that_stays_leaves_the_file_and_keeps_the_index_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, path = _index(tmp_path)
    inode, real = path.stat().st_ino, recallopen.connect

    def failing(target: str) -> sqlite3.Connection:
        if target != ":memory:":
            raise _io_error()
        return real(target)

    monkeypatch.setattr(recallopen, "connect", failing)
    held = RecallIndex(root, path)
    assert held.path == ":memory:"
    assert path.exists() and path.stat().st_ino == inode


def test_a_file_that_is_not_a_database_is_still_made_again(tmp_path: Path) -> None:
    root, path = _index(tmp_path)
    path.write_bytes(b"not a database at all" * 100)
    again = RecallIndex(root, path)
    assert again.path == str(path)
    assert again.sync() == 1
    assert [again.entry(i)[2] for i, _ in again.search("nightly")] == ["The nightly runs at 02:00"]
