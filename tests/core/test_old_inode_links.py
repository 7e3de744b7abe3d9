"""A watched old inode has a name under ``.git/memrepo/oldinodes/`` that any later process adopts
(engine/files/oldlinks.py, docs/architecture.md §3).

The watch was the writing process's alone: a save into the old inode after that process was killed had no name
and no holder. tests/cli/test_write_server_killed_salvage.py kills a real write server; these check the links'
life here: adopted by another process, taken once, removed when the watch ends.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memrepo.engine.files import oldinode, oldlinks
from memrepo.engine.files.oldinode import OldInodes

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="links through /proc/self/fd")

FIRST = b"- First line [by: user]\n"
SAVED = FIRST + b"- Saved by the editor [by: user]\n"


def _replace(root: Path, watches: OldInodes) -> None:
    """Watch me.md's inode as the writer does, then rename a new version over it."""
    fd = oldinode.open_old(root / "me.md")
    assert fd is not None
    watches.watch("me.md", fd, FIRST)
    (root / "new.md").write_bytes(FIRST + b"- Memrepo's line\n")
    os.replace(root / "new.md", root / "me.md")


def _links(state: Path) -> list[str]:
    folder = state / oldlinks.LINKS_DIR
    return sorted(p.suffix for p in folder.iterdir()) if folder.is_dir() else []


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, Path]:
    state = tmp_path / ".git" / "memrepo"
    state.mkdir(parents=True)
    (tmp_path / "me.md").write_bytes(FIRST)
    return tmp_path, state


def test_a_save_after_the_watching_process_is_gone_is_found_by_another(repo: tuple[Path, Path]) -> None:
    root, state = repo
    editor = open(root / "me.md", "r+b")  # noqa: SIM115 - an editor's descriptor from before the rename
    gone = OldInodes(state)
    _replace(root, gone)
    gone.close()  # the process ends (or is killed): its link stays
    assert _links(state) == [".base", ".old"]
    editor.seek(0)
    editor.truncate()
    editor.write(SAVED)
    editor.close()
    later = OldInodes(state)
    later.adopt(root)
    found = later.take_written()
    assert [(old.rel, data) for old, data in found] == [("me.md", SAVED)]
    assert found[0][0].seen == FIRST  # the merge base is what memrepo built on, not what the inode held
    later.close()


def test_a_save_taken_by_one_process_is_not_taken_again_by_another(repo: tuple[Path, Path]) -> None:
    """The write server watches the inode; ``status`` in another process took the save first and merged it."""
    root, state = repo
    editor = open(root / "me.md", "r+b")  # noqa: SIM115
    server = OldInodes(state)
    _replace(root, server)
    editor.seek(0, os.SEEK_END)
    editor.write(SAVED[len(FIRST) :])
    editor.close()
    status = OldInodes(state)
    status.adopt(root)
    ((old, data),) = status.take_written()
    old.took(data)  # as Writer.salvage does once it merged it
    assert server.take_written() == [], "the save was handed back a second time (merged twice)"
    status.close()
    server.close()


def test_a_link_nobody_wrote_into_is_removed_after_its_watch_time(
    repo: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, state = repo
    gone = OldInodes(state)
    _replace(root, gone)
    gone.close()
    later = OldInodes(state)
    later.adopt(root)
    assert len(later) == 1
    assert later.take_written() == []
    assert _links(state) == [".base", ".old"], "removed before its watch time"
    monkeypatch.setattr(oldinode, "WATCH_SECONDS", 0.0)
    assert later.take_written() == []
    assert len(later) == 0 and _links(state) == []


def test_a_link_whose_rename_never_came_is_dropped(repo: tuple[Path, Path]) -> None:
    """A writer killed between the link and its rename: the file still has that inode, nothing is old."""
    root, state = repo
    fd = os.open(root / "me.md", os.O_RDONLY)
    try:
        assert oldlinks.keep(state, fd, "me.md", FIRST, (len(FIRST), 0)) is not None
    finally:
        os.close(fd)
    later = OldInodes(state)
    later.adopt(root)
    assert len(later) == 0 and _links(state) == []


def test_the_watchers_pass_commits_a_save_a_gone_writer_left_in_a_link(
    repo_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app or the MCP server watching beside a writer that was killed: the save sends no file event (its inode
    has no name in the work tree); the watcher's reconciliation pass every few seconds finds it."""
    from helpers.repo_helpers import git, plain_settings

    from memrepo.engine.models import Candidate
    from memrepo.engine.repo.store import MemoryStore

    writer = MemoryStore.open(repo_path, plain_settings(), create=True)
    writer.remember(Candidate(text="Earlier preference about llamas", kind="preference"))
    editor = open(repo_path / "me.md", "r+b")  # noqa: SIM115
    writer.remember(Candidate(text="Agent fact about tapirs", kind="preference"))  # renames over the editor's inode
    monkeypatch.setattr(OldInodes, "_shared", {})  # the writer's process is gone: its watch with it
    watcher = MemoryStore.open(repo_path, plain_settings(), create=False)
    files = watcher.reconcile_files()
    watcher.reconcile_with(watcher.reconcile_fingerprints(files, frozenset(files)))  # the first pass records
    editor.seek(0, os.SEEK_END)
    editor.write(b"- Saved by the editor about okapis [by: user]\n")
    editor.close()
    watcher.reconcile_with(watcher.reconcile_fingerprints(files, frozenset(files)))
    head = git(repo_path, "show", "HEAD:me.md")
    assert "Saved by the editor about okapis" in head and "Agent fact about tapirs" in head, head
    assert git(repo_path, "log", "-1", "--format=%s").strip() == "Hand edits"
    watcher.close()
    writer.close()


def test_a_state_folder_on_another_file_system_keeps_the_watch_in_the_process(tmp_path: Path) -> None:
    """A git dir on another disk: no hard link can be made (``EXDEV``); the watch is the writing process's alone."""
    import tempfile

    other = Path(tempfile.mkdtemp(dir="/dev/shm"))
    try:
        if os.stat(other).st_dev == os.stat(tmp_path).st_dev:
            pytest.skip("/dev/shm is on the same file system as the test folder here")
        (tmp_path / "me.md").write_bytes(FIRST)
        editor = open(tmp_path / "me.md", "r+b")  # noqa: SIM115
        watches = OldInodes(other)
        _replace(tmp_path, watches)
        assert _links(other) == []  # nothing linked, no base left behind
        editor.seek(0, os.SEEK_END)
        editor.write(SAVED[len(FIRST) :])
        editor.close()
        assert [data for _, data in watches.take_written()] == [SAVED]
        watches.close()
    finally:
        import shutil

        shutil.rmtree(other, ignore_errors=True)
