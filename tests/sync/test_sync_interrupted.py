"""A sync killed while it updates the work tree deletes nothing, anywhere (docs/architecture.md §3).

Sync writes each file it brings in atomically after a journal under
``.git/memrepo/``; the next command finishes the move instead of committing
half of it as "Hand edits". The fault is injected in the engine's checkout step.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings, porcelain

from memrepo.engine.git import remote as gitremote
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod


class Killed(BaseException):
    """Stands for SIGKILL: nothing after it runs, no except clause catches it."""


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    path = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    return path


def texts(root: Path, path: str) -> list[str]:
    return [e.text for e in MemoryStore.open(root, plain_settings()).read_file(path).entries]


@pytest.mark.parametrize("killed_at", ["second-file", "after-the-files", "before-the-index"])
def test_a_sync_killed_mid_checkout_loses_nothing_on_either_machine_or_the_remote(
    tmp_path: Path, remote: Path, monkeypatch: pytest.MonkeyPatch, killed_at: str
) -> None:
    """The kill lands inside the move's second file write (it brings in two), after both before the
    branch moves, or after the branch moved before the index is reset."""
    a = MemoryStore.open(tmp_path / "a", plain_settings())
    for i in range(20):
        a.remember(Candidate(text=f"fact number {i} about the user", kind="preference", by="user"))
    sync_mod.set_remote(a.root, str(remote), confirmed_private=True)
    assert sync_mod.sync(a).action == "pushed"
    subprocess.run(["git", "clone", "-q", str(remote), str(tmp_path / "b")], check=True)
    b = MemoryStore.open(tmp_path / "b", plain_settings())
    sync_mod.set_remote(b.root, str(remote), confirmed_private=True)
    a.remember(Candidate(text="a new fact from machine a", kind="preference", by="user"))
    a.remember(Candidate(text="a new lesson from machine a", kind="lesson", by="user"))
    assert sync_mod.sync(a).action == "pushed"
    b.remember(Candidate(text="a fact from machine b", kind="identity", by="user"))
    before_b = texts(b.root, "me.md")

    real = gitremote.write_checked_out
    calls = [0]

    def killed_on_a_file(full: Path, data: bytes, root: Path, mode: int) -> None:
        calls[0] += 1
        if (killed_at, calls[0]) == ("second-file", 2):
            # A kill inside the write: half the bytes are in the temp file, the target not yet replaced.
            (full.parent / ".memrepo-tmp-killed").write_bytes(data[: len(data) // 2])
            raise Killed
        real(full, data, root, mode)
        if (killed_at, calls[0]) == ("after-the-files", 2):
            raise Killed

    def killed_before_the_branch_moves(*args: object, **kwargs: object) -> None:
        raise Killed

    monkeypatch.setattr(gitremote, "write_checked_out", killed_on_a_file)
    if killed_at == "before-the-index":
        monkeypatch.setattr(gitremote.pygit2.Index, "read_tree", killed_before_the_branch_moves)
    with pytest.raises(Killed):
        sync_mod.sync(b)
    monkeypatch.undo()
    assert calls[0] == 2
    assert gitremote.sync_journal(b.root).is_file()  # the journal names the unfinished move
    for path in ("me.md", "lessons.md"):
        assert (b.root / path).stat().st_size > 0, f"{path} was left empty"

    # The next command (a new process) finishes the sync instead of committing half of it.
    b2 = MemoryStore.open(b.root, plain_settings())
    b2.remember(Candidate(text="written after the crash", kind="preference", by="user"))
    assert "Hand edits" not in git(b.root, "log", "--format=%s")
    assert sync_mod.sync(b2).action in ("pushed", "merged")
    assert sync_mod.sync(MemoryStore.open(a.root, plain_settings())).action == "fast_forwarded"
    expected_me = set(before_b) | {"a new fact from machine a", "written after the crash"}
    for root in (a.root, b.root):
        assert expected_me <= set(texts(root, "me.md"))
        assert "a new lesson from machine a" in texts(root, "lessons.md")
        assert porcelain(root) == ""
    remote_me = git(remote, "show", "main:me.md")
    assert all(t in remote_me for t in expected_me)
    assert "a new lesson from machine a" in git(remote, "show", "main:lessons.md")
