"""Opening a derived SQLite file again in one process keeps the locks its other connections hold.

POSIX drops every advisory lock a process holds on a file when it closes any
descriptor of that file. The index's opener used to ``os.open`` the file to set
its mode and close it: the write lock another connection of the same process
held was gone, and a second process wrote beside it (CI: "UNIQUE constraint
failed: items.id", "disk I/O error" in the MCP test of two sessions on one
workspace). See docs/architecture.md §4 and engine/files/sqlitefile.py.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo.engine.files.sqlitefile import make_private
from memrepo.engine.read.recallkeys import connect
from memrepo.engine.read.semantic_store import VectorStore
from memrepo.engine.read.workspacemap import WorkspaceMap

_PROBE = (
    "import sqlite3, sys\n"
    "db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)\n"
    "try:\n"
    "    db.execute('BEGIN IMMEDIATE')\n"
    "    print('got')\n"
    "except sqlite3.OperationalError:\n"
    "    print('locked')\n"
)


def _other_process_can_write(path: Path) -> bool:
    out = subprocess.run([sys.executable, "-c", _PROBE, str(path)], capture_output=True, text=True, check=True)
    return out.stdout.strip() == "got"


def _open_recall(tmp: Path, path: Path) -> object:
    return connect(str(path))


def _open_vectors(tmp: Path, path: Path) -> object:
    return VectorStore(tmp, path)


def _open_map(tmp: Path, path: Path) -> object:
    return WorkspaceMap(tmp, str(path))


@pytest.mark.parametrize(
    ("name", "opener"),
    [("recall.sqlite", _open_recall), ("vectors.sqlite", _open_vectors), ("workspaces.sqlite", _open_map)],
)
def test_a_second_open_in_the_same_process_keeps_the_first_ones_write_lock(
    tmp_path: Path, name: str, opener: Callable[[Path, Path], object]
) -> None:
    path = tmp_path / ".git" / "memrepo" / name
    path.parent.mkdir(parents=True)
    first = opener(tmp_path, path)  # makes the file and its tables
    holder = sqlite3.connect(str(path), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # this process holds the write lock
    assert not _other_process_can_write(path)
    second = opener(tmp_path, path)  # another thread of the same process opens it (the MCP server's case)
    try:
        assert not _other_process_can_write(path), "the write lock was dropped by the second open"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        for each in (first, second):
            close = getattr(each, "close", None)
            if close is not None:
                close()
    assert _other_process_can_write(path)  # the probe does see a free file


def test_make_private_creates_an_owner_only_file_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        make_private(str(tmp_path / "a.sqlite"))
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.sqlite").stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["a.sqlite"]  # no scratch file left


def test_make_private_narrows_an_older_file_and_keeps_its_bytes(tmp_path: Path) -> None:
    path = tmp_path / "b.sqlite"
    path.write_bytes(b"kept")
    path.chmod(0o644)
    inode = path.stat().st_ino
    make_private(str(path))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_bytes() == b"kept" and path.stat().st_ino == inode


def test_make_private_leaves_a_file_made_meanwhile_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.sqlite"
    real_link = os.link

    def other_made_it_first(src: str, dst: str) -> None:
        Path(dst).write_bytes(b"theirs")
        real_link(src, dst)  # raises FileExistsError, as the race would

    monkeypatch.setattr(os, "link", other_made_it_first)
    make_private(str(path))
    assert path.read_bytes() == b"theirs"
    assert [p.name for p in tmp_path.iterdir()] == ["c.sqlite"]
