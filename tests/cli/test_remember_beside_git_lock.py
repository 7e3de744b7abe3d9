"""Beside ``git commit -a`` waiting in its editor, ``memrepo remember`` keeps the write (exit 3) as beside a merge,
and a checkpoint that meets the lock says so in one line, no traceback (breaker29 B29-14).

Before: ``remember`` exited 1 ("retry when it has finished") where beside a merge or rebase it kept the write
(exit 3), so a script or agent had to treat the two differently; a checkpoint's merge logged a 25-line traceback
on stderr for the same passing cause.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import plain_settings
from test_hook_git_commit_waiting import git_commit_a

from memrepo.cli.main import main
from memrepo.engine.checkpoints.checkpoint import Checkpointer
from memrepo.engine.checkpoints.distill import AddOp, DistillOutput
from memrepo.engine.checkpoints.flow import merge_or_release
from memrepo.engine.files import lock as gitlocks
from memrepo.engine.repo.store import MemoryStore

TEXT = "The billing job runs at 02:00 UTC"


@pytest.fixture
def held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A memory repo whose ``.git/index.lock`` a real ``git commit -a`` holds until the yielded ``go`` exists."""
    monkeypatch.setattr(gitlocks, "GIT_LOCK_WAIT_S", 0.2)
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    with (store.root / "lessons.md").open("a", encoding="utf-8") as fh:
        fh.write("- Hand line from the user\n")
    go = tmp_path / "go"
    git = git_commit_a(store.root, go)
    try:
        yield store, go
    finally:
        go.touch()
        git.wait(timeout=60)


def test_remember_beside_a_held_git_lock_keeps_the_write_and_exits_3(held) -> None:
    store, go = held
    done = CliRunner().invoke(main, ["--repo", str(store.root), "remember", TEXT])
    assert done.exit_code == 3, done.output
    lines = done.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("memrepo: kept: not written yet"), done.output
    assert "git commit -a) holds .git/index.lock" in lines[0] and "retry" not in lines[0]
    assert [c.text for c in store.pending()] == [TEXT]
    go.touch()
    gitlocks.settle_git_locks(store.root / ".git", wait_s=60)  # git's own commit finishes
    store.apply_pending()
    assert (store.root / "me.md").read_text().count(TEXT) + (store.root / "lessons.md").read_text().count(TEXT) == 1


def test_a_checkpoint_meeting_the_lock_logs_one_line(held, caplog: pytest.LogCaptureFixture) -> None:
    store, _go = held
    checkpointer = Checkpointer(store.root / ".git" / "memrepo")
    said = f"Remember that {TEXT[0].lower()}{TEXT[1:]}."
    _result, claim = checkpointer.submit("s1", None, [{"id": "u1", "role": "user", "text": said}], "force")
    assert claim is not None
    checkpointer.prepare(store, claim)
    output = DistillOutput(operations=[AddOp(op="add", text=TEXT, kind="fact", scope="global")])
    with caplog.at_level(logging.WARNING, logger="memrepo.checkpoint"):
        done = merge_or_release(store, checkpointer, claim, output, None)
    assert done.status == "failed" and done.pending == 1 and "holds .git/index.lock" in (done.reason or "")
    assert len(caplog.records) == 1 and "Traceback" not in caplog.text  # one line: no traceback
    assert "merge failed: BusyError: another git process" in caplog.records[0].getMessage()
