"""A checkpoint batch that fails three times is parked where the user sees it, never dropped (round 13, fix13).

Before, :data:`~memrepo.engine.checkpoints.checkpoint.MAX_FAILURES` failed distillations dropped the batch with a
log line only. Now the batch is parked in its buffer: ``memrepo status`` and Health name it, and ``memrepo
checkpoint --retry-parked`` distils it once the cause is gone. The failing write here is a commit that fails (the
disk full); a write a block keeps (a hand edit that is not UTF-8) is no failure (test_checkpoint_kept.py, B27-7).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import memrepo.engine.checkpoints.checkpoint as checkpoint_module
from memrepo.cli.main import main
from memrepo.engine.checkpoints.checkpoint import MAX_FAILURES, Checkpointer
from memrepo.engine.errors import GitError
from memrepo.engine.repo.store import MemoryStore

TURN = [
    {
        "id": "u1",
        "role": "user",
        "text": "Remember that the build needs Node 22. Remember that deploys go out on Tuesdays.",
    },
    {"id": "a1", "role": "assistant", "text": "Noted."},
]


def _checkpoint(repo: Path, messages: list[dict]) -> object:
    args = ["--repo", str(repo), "checkpoint", "--session", "s-park", "--cwd", "", "--event", "force"]
    return CliRunner().invoke(main, args, input=json.dumps(messages))


def _failing_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*_args: object, **_kwargs: object) -> None:
        raise GitError("commit failed: the disk is full: nothing was written")

    monkeypatch.setattr(checkpoint_module, "apply_operation", full)


def test_a_batch_failing_three_times_is_parked_shown_and_retried_never_dropped(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = store.root
    me = root / "me.md"
    _failing_writes(monkeypatch)
    first = _checkpoint(root, TURN)
    assert "failed" in first.stdout and "disk is full" in first.stdout, first.output
    for _ in range(MAX_FAILURES - 1):
        assert "failed" in _checkpoint(root, []).stdout
    parked = Checkpointer(store.state_dir).parked()
    assert [(p.scope, p.messages, p.sessions) for p in parked] == [("global", 2, ["s-park"])]
    assert "disk is full" in parked[0].reason
    assert "Node 22" not in me.read_bytes().decode("utf-8", "replace")

    status = CliRunner().invoke(main, ["--repo", str(root), "status"])
    assert "2 messages of session s-park parked after failed distillations" in status.stdout, status.stdout
    assert "`memrepo checkpoint --retry-parked`" in status.stdout
    health = CliRunner().invoke(main, ["--repo", str(root), "health", "--json"])
    rows = {r["name"]: r for r in json.loads(health.stdout)}
    assert rows["parked checkpoints"]["status"] == "WARN"
    assert "2 messages of session s-park" in rows["parked checkpoints"]["reason"]

    later = _checkpoint(root, [])  # a later stage while parked: the parked batch is not retried by itself
    assert "0 pending" in later.stdout and Checkpointer(store.state_dir).parked()

    monkeypatch.undo()  # space freed
    retried = CliRunner().invoke(main, ["--repo", str(root), "checkpoint", "--retry-parked"])
    assert retried.exit_code == 0, retried.output
    assert "session s-park: distilled" in retried.stdout
    text = me.read_text()
    assert "The build needs Node 22" in text
    assert "Deploys go out on Tuesdays" in text  # only in the parked batch: dropped before
    assert Checkpointer(store.state_dir).parked() == []
    after = CliRunner().invoke(main, ["--repo", str(root), "health", "--json"])
    assert {r["name"]: r["status"] for r in json.loads(after.stdout)}["parked checkpoints"] == "OK"


def test_forgetting_the_session_deletes_its_parked_messages(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A parked batch is still the session's conversation: ``forget-session`` takes it too."""
    _failing_writes(monkeypatch)
    _checkpoint(store.root, TURN)
    for _ in range(MAX_FAILURES - 1):
        _checkpoint(store.root, [])
    assert Checkpointer(store.state_dir).parked()
    monkeypatch.undo()
    gone = CliRunner().invoke(main, ["--repo", str(store.root), "forget-session", "s-park"])
    assert "2 buffered message(s) deleted" in gone.stdout, gone.output
    assert Checkpointer(store.state_dir).parked() == []
    assert not any("Tuesdays" in p.read_text() for p in (store.state_dir / "checkpoints").glob("*.json"))
