"""A session that ends while ``git commit -a`` waits in its editor keeps its "Remember that ..." (breaker26 B26-6).

``git commit -a`` holds ``.git/index.lock`` while its editor is open. The SessionEnd hook's background
checkpoint failed on it ("BusyError: another git process ... holds .git/index.lock"), ``memrepo status`` said
"clean", and the line was written only when a later session of the same folder ended (three such ends parked
it). Now the background checkpoint waits for git, then writes; a later hook of any session, in any folder,
retries the batch; status names it (exit 3) until then; a git lock never counts toward parking; and a parked
batch is retried once by itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import memory_files, plain_settings

import memrepo.engine.checkpoints.flow as flow_mod
from memrepo.cli.main import main
from memrepo.engine.checkpoints.buffers import Buffers
from memrepo.engine.checkpoints.checkpoint import MAX_FAILURES
from memrepo.engine.repo.store import MemoryStore

SAID = "Remember that the billing job runs at 02:00 UTC."
KEPT = "The billing job runs at 02:00 UTC"


def _wait(cond: object, what: str, limit: float = 90.0) -> None:
    deadline = time.monotonic() + limit  # a hang guard on a loaded machine, not a speed claim
    while not cond():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def transcript(path: Path, session: str, cwd: Path, said: str, reply: str) -> Path:
    """A Claude Code 2.1 transcript of one finished turn."""
    base = {"sessionId": session, "cwd": str(cwd), "isSidechain": False, "timestamp": "2026-12-01T10:00:00.000Z"}
    user = {**base, "type": "user", "uuid": f"{session}-u", "message": {"role": "user", "content": said}}
    answer = {
        **base,
        "type": "assistant",
        "uuid": f"{session}-a",
        "parentUuid": f"{session}-u",
        "message": {"role": "assistant", "content": [{"type": "text", "text": reply}], "stop_reason": "end_turn"},
    }
    path.write_text(json.dumps(user) + "\n" + json.dumps(answer) + "\n", encoding="utf-8")
    return path


def payload(session: str, path: Path, cwd: Path, event: str) -> str:
    return json.dumps({"session_id": session, "transcript_path": str(path), "cwd": str(cwd), "hook_event_name": event})


def checkpoint(repo: Path, session: str, path: Path, cwd: Path, event: str) -> str:
    done = CliRunner().invoke(
        main, ["--repo", str(repo), "checkpoint", "--from-claude-hook"], input=payload(session, path, cwd, event)
    )
    assert done.exit_code == 0, done.output
    return done.output


def stored(repo: Path) -> str:
    return "\n".join(data.decode("utf-8") for _path, data in memory_files(repo))


def git_commit_a(root: Path, go: Path) -> subprocess.Popen[bytes]:
    """A real ``git commit -a`` whose editor waits for ``go``: git holds index.lock until then."""
    env = {
        **os.environ,
        "GIT_EDITOR": f"while [ ! -e '{go}' ]; do sleep 0.05; done; echo 'hand commit msg' > ",
        "GIT_AUTHOR_NAME": "Hand",
        "GIT_AUTHOR_EMAIL": "hand@example.com",
        "GIT_COMMITTER_NAME": "Hand",
        "GIT_COMMITTER_EMAIL": "hand@example.com",
    }
    proc = subprocess.Popen(
        ["git", "commit", "-a"], cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _wait(lambda: (root / ".git" / "index.lock").exists() or proc.poll() is not None, "git to take index.lock")
    assert proc.poll() is None, "git commit ended before its editor ran"
    return proc


def status(repo: Path) -> tuple[int, str]:
    done = CliRunner().invoke(main, ["--repo", str(repo), "status"])
    return done.exit_code, done.output


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path]:
    repo = MemoryStore.open(tmp_path / "memory", plain_settings()).root
    with (repo / "lessons.md").open("a", encoding="utf-8") as fh:
        fh.write("- Hand line from the user\n")  # what the user commits by hand
    project = tmp_path / "billing"
    project.mkdir()
    return repo, project


def test_the_session_end_hook_waits_for_git_commit_a_then_writes_the_line(
    setup: tuple[Path, Path], tmp_path: Path
) -> None:
    repo, project = setup
    go = tmp_path / "go"
    git = git_commit_a(repo, go)
    path = transcript(tmp_path / "s.jsonl", "s1", project, SAID, "Noted.")
    done = CliRunner().invoke(
        main, ["--repo", str(repo), "hook", "session-end"], input=payload("s1", path, project, "SessionEnd")
    )
    assert done.exit_code == 0, done.output
    # The background checkpoint met git's lock: the batch waits, named by status, not "clean".
    _wait(lambda: Buffers(repo / ".git" / "memrepo").waiting(), "the checkpoint to fail on git's lock")
    code, said = status(repo)
    assert code == 3, said
    assert "2 messages of session s1 not written yet" in said and "holds .git/index.lock" in said
    assert KEPT not in stored(repo)
    go.touch()  # the user saves the commit message and quits the editor
    assert git.wait(timeout=60) == 0
    _wait(lambda: KEPT in stored(repo), "the waiting background checkpoint to write the line")
    log = subprocess.run(["git", "log", "--format=%s"], cwd=repo, capture_output=True, text=True).stdout
    assert "hand commit msg" in log
    _wait(lambda: not Buffers(repo / ".git" / "memrepo").waiting(), "the buffer to empty")
    assert status(repo)[0] == 0


def test_a_later_hook_elsewhere_writes_it_and_a_git_lock_never_parks_it(
    setup: tuple[Path, Path], tmp_path: Path
) -> None:
    repo, project = setup
    go = tmp_path / "go"
    git = git_commit_a(repo, go)
    path = transcript(tmp_path / "s.jsonl", "s1", project, SAID, "Noted.")
    for _ in range(MAX_FAILURES + 1):  # more session ends than parking takes: a git lock is not a failure
        checkpoint(repo, "s1", path, project, "SessionEnd")
    buffers = Buffers(repo / ".git" / "memrepo")
    assert buffers.parked() == []
    assert [w.messages for w in buffers.waiting()] == [2]
    assert KEPT not in stored(repo)
    go.touch()
    assert git.wait(timeout=60) == 0
    other = tmp_path / "shop"
    other.mkdir()
    later = transcript(tmp_path / "o.jsonl", "o1", other, "What does 2+2 make?", "4.")
    out = checkpoint(repo, "o1", later, other, "Stop")  # another session, another folder, a mere turn
    assert KEPT in stored(repo)
    assert "session s1's pending lines retried" in out
    assert buffers.waiting() == [] and status(repo)[0] == 0


def test_a_parked_batch_is_retried_once_by_itself_never_twice(
    setup: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, project = setup
    path = transcript(tmp_path / "s.jsonl", "s1", project, SAID, "Noted.")
    real = flow_mod.distil
    with monkeypatch.context() as patch:
        patch.setattr(flow_mod, "distil", lambda *_a: (None, "ValueError: the model answered nonsense"))
        for _ in range(MAX_FAILURES):
            checkpoint(repo, "s1", path, project, "SessionEnd")
        buffers = Buffers(repo / ".git" / "memrepo")
        assert [p.messages for p in buffers.parked()] == [2]
        other = transcript(tmp_path / "o.jsonl", "o1", project, "What does 2+2 make?", "4.")
        out = checkpoint(repo, "o1", other, project, "Stop")  # retried once; it fails again
        assert "retrying once 2 message(s) of session s1" in out
        assert buffers.parked() == []
        for _ in range(MAX_FAILURES - 1):  # parked again after its scope's next failed stages
            checkpoint(repo, "s1", path, project, "SessionEnd")
        assert [p.messages for p in buffers.parked()] == [2]
        assert not buffers.to_retry()
        again = checkpoint(repo, "o1", other, project, "Stop")
        assert "retrying once" not in again  # never twice by itself
    assert flow_mod.distil is real
    done = CliRunner().invoke(main, ["--repo", str(repo), "checkpoint", "--retry-parked"])
    assert done.exit_code == 0, done.output
    assert KEPT in stored(repo)
    assert buffers.parked() == []


def test_retry_parked_also_writes_a_batch_a_git_lock_left_pending(setup: tuple[Path, Path], tmp_path: Path) -> None:
    repo, project = setup
    go = tmp_path / "go"
    git = git_commit_a(repo, go)
    path = transcript(tmp_path / "s.jsonl", "s1", project, SAID, "Noted.")
    checkpoint(repo, "s1", path, project, "SessionEnd")
    assert "--retry-parked" in status(repo)[1]  # the command status names
    go.touch()
    assert git.wait(timeout=60) == 0
    done = CliRunner().invoke(main, ["--repo", str(repo), "checkpoint", "--retry-parked"])
    assert done.exit_code == 0, done.output
    assert "session s1: distilled" in done.output and KEPT in stored(repo)
