"""No read blocks on a FIFO or any non-regular file (docs/architecture.md §3, §7).

A FIFO (or socket) in the folder is not memory: it is not listed, read,
committed or searched, health and the app open, and writes go on. A FIFO in
place of a memory file blocks writes with a clear message and is never
committed as the file's deletion. Each operation runs in a thread joined
with a generous limit, so a regression fails instead of hanging the suite.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from helpers.repo_helpers import git

from memrepo.engine.errors import BlockedError, RefError
from memrepo.engine.models import Action, Candidate, RepoState
from memrepo.engine.repo.health import check
from memrepo.engine.repo.store import MemoryStore

T = TypeVar("T")
HANG = 60.0
"""Seconds after which an operation counts as hung (it returns in milliseconds when it works, and in seconds on a
loaded machine: at load average 20 on two cores a process here got 2 s of CPU in 98 s)."""

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")


def no_hang(call: Callable[[], T]) -> T:
    """Run ``call`` in a daemon thread; fail if it has not returned after :data:`HANG` seconds."""
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # re-raised in the test's thread
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(HANG)
    assert not thread.is_alive(), f"{call} blocked (a read on a FIFO?)"
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


def test_a_fifo_in_the_folder_blocks_no_read_and_no_write(store: MemoryStore) -> None:
    root = store.root
    os.mkfifo(root / "pipe.md")
    os.mkfifo(root / "workspaces-pipe.md")
    (root / "workspaces").mkdir(exist_ok=True)
    os.mkfifo(root / "workspaces" / "stuck.md")
    assert [p for p, _ in no_hang(store.list_files) if "pipe" in p or "stuck" in p] == []
    assert no_hang(store.status).state is RepoState.CLEAN
    rows = no_hang(lambda: check(store))
    assert next(r for r in rows if r.name == "work tree").reason.startswith("clean")
    with pytest.raises(RefError, match="not a regular file"):
        no_hang(lambda: store.read_file("pipe.md"))
    no_hang(lambda: store.recall("anything"))
    no_hang(store.context)
    no_hang(store.workspaces)
    result = no_hang(lambda: store.remember(Candidate(text="I keep a pipe in the folder for tests", by="user")))
    assert result.action is Action.ADDED and result.commit == store.head()
    assert "pipe.md" not in git(root, "ls-files")


def test_a_fifo_in_place_of_me_md_is_never_committed_as_a_deletion(store: MemoryStore) -> None:
    root = store.root
    head = store.head()
    (root / "me.md").unlink()
    os.mkfifo(root / "me.md")
    status = no_hang(store.status)
    assert status.state is RepoState.BLOCKED and "me.md" in (status.reason or "") and "FIFO" in (status.reason or "")
    with pytest.raises(BlockedError, match="FIFO"):
        no_hang(lambda: store.remember(Candidate(text="I prefer decaf after noon", by="user")))
    with pytest.raises(BlockedError):
        no_hang(store.commit_hand_edits)
    # The watcher's fast path (a path hint) sees the same.
    with pytest.raises(BlockedError):
        no_hang(lambda: store.commit_hand_edits(["me.md"]))
    no_hang(store.context)
    no_hang(lambda: check(store))
    assert store.head() == head
    assert "me.md" in git(root, "ls-tree", "--name-only", "HEAD").split()


def test_a_socket_in_the_folder_is_not_memory(store: MemoryStore, tmp_path: Path) -> None:
    path = store.root / "agent.sock"
    if len(str(path)) > 100:
        pytest.skip("the socket path is too long for AF_UNIX here")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    try:
        assert no_hang(store.status).state is RepoState.CLEAN
        assert "agent.sock" not in [p for p, _ in store.list_files()]
        assert no_hang(lambda: store.remember(Candidate(text="I run an agent socket", by="user"))).commit
    finally:
        server.close()


async def test_the_app_opens_beside_a_fifo_and_quits_on_q(tmp_path: Path) -> None:
    from helpers.tui_helpers import build_repo, settle

    from memrepo.tui.app import MemrepoApp

    root = tmp_path / "memory"
    build_repo(root)
    os.mkfifo(root / "pipe.md")
    app = MemrepoApp(root)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, timeout=HANG)
        assert app.header.state == "clean"
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code is not None or not app.is_running
