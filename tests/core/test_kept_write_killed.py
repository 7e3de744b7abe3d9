"""A kept write killed while it is applied is applied exactly once, with its provenance (docs/architecture.md §3).

A write kept in ``.git/memrepo/pending/`` while the work tree was blocked is applied by a later write: its line
written, committed ("Remember ...", ``By:``), then its record deleted. Killed (a real SIGKILL of a forked
process) after the line was written and before the commit, the next write committed the line as "Hand edits"
(the writer's ``By:`` lost) and then found the line there; killed after the commit and before the record was
deleted, the record was applied again, bringing back the line if the user had deleted it meanwhile. The record
is now removed as part of the transaction's commit (``Transaction.remove_after_commit``), journaled so the next
holder of the write lock finishes it: the commit made with its own message, the record removed.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.write.transaction import Transaction

LINE = "The staging database moved to eu-west-2"


def _store(tmp_path: Path) -> MemoryStore:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text="Prefers short answers", kind="preference", by="user"))
    store.entries.queue(Candidate(text=LINE, kind="fact", by="user"))  # a write kept while blocked
    return store


def _killed_applying(root: Path, arm: Callable[[], None]) -> None:
    """Apply the kept write in a forked process that ``arm`` makes SIGKILL itself at one step."""
    pid = os.fork()
    if pid == 0:
        try:
            arm()
            MemoryStore.open(root, plain_settings()).apply_pending()
        finally:
            os._exit(3)  # never reached: the kill lands first
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def _kill() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _adding_commits(root: Path) -> list[str]:
    """The commits whose patch adds the line: subject and trailers."""
    shas = git(root, "log", "--format=%H", f"-G{LINE}", "--", "me.md").split()
    return [git(root, "log", "-1", "--format=%s%n%b", sha).strip() for sha in shas]


def _once_with_provenance(store: MemoryStore) -> None:
    root = store.root
    assert (root / "me.md").read_text().count(LINE) == 1
    assert git(root, "show", "HEAD:me.md").count(LINE) == 1
    (added,) = _adding_commits(root)
    assert added.startswith("Remember fact: ") and "By: user" in added, added  # before: "Hand edits"
    assert store.pending() == []
    assert git(root, "status", "--porcelain") == ""


def test_killed_between_writing_the_line_and_its_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = _store(tmp_path)

    def arm() -> None:
        real = Transaction.commit_paths

        def commit_paths(self: Transaction, paths: list[str], *args: object, **kwargs: object) -> str | None:
            if "me.md" in paths and LINE in (self.root / "me.md").read_text():
                _kill()  # the line is in the file, nothing committed yet
            return real(self, paths, *args, **kwargs)  # type: ignore[arg-type]

        Transaction.commit_paths = commit_paths  # type: ignore[method-assign]

    _killed_applying(store.root, arm)
    assert LINE in (store.root / "me.md").read_text() and LINE not in git(store.root, "show", "HEAD:me.md")
    after = MemoryStore.open(store.root, plain_settings())
    after.apply_pending()
    _once_with_provenance(after)


def test_killed_between_the_commit_and_the_record_removal(tmp_path: Path) -> None:
    store = _store(tmp_path)

    def arm() -> None:
        real = Transaction.commit_paths

        def commit_paths(self: Transaction, *args: object, **kwargs: object) -> str | None:
            made = real(self, *args, **kwargs)  # type: ignore[arg-type]
            if made is not None and LINE in git(self.root, "show", "HEAD:me.md"):
                _kill()  # committed; the record not removed yet
            return made

        Transaction.commit_paths = commit_paths  # type: ignore[method-assign]

    _killed_applying(store.root, arm)
    root = store.root
    assert LINE in git(root, "show", "HEAD:me.md")
    # The user deletes the applied line by hand before memrepo runs again: the write was applied, once.
    (root / "me.md").write_text("".join(s for s in (root / "me.md").read_text().splitlines(True) if LINE not in s))
    after = MemoryStore.open(root, plain_settings())
    after.apply_pending()
    after.commit_hand_edits()
    assert LINE not in (root / "me.md").read_text(), "the kept write was applied a second time"
    assert after.pending() == []
    (added,) = _adding_commits(root)[-1:]
    assert added.startswith("Remember fact: ") and "By: user" in added
