"""A session whose checkpoint hit a full disk is checkpointed by a later hook once space is back (breaker14 B14-4).

The session's Stop / SessionEnd could not write the checkpoint buffer, and no later hook of that session comes:
its "Remember that ..." was lost for good. Now the hook keeps an empty mark naming the session's transcript
(``.git/memrepo/hook-retry/``), the transcript offset moves only past buffered turns, and the next hook
checkpoint of the repo, from another session, checkpoints the marked transcript first.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import plain_settings

from memrepo.cli import hookretry
from memrepo.cli.main import main
from memrepo.engine.checkpoints.buffers import Buffers
from memrepo.engine.errors import DISK_FULL, MemrepoError
from memrepo.engine.repo.store import MemoryStore


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


def checkpoint(repo: Path, session: str, path: Path, cwd: Path, event: str) -> str:
    payload = {"session_id": session, "transcript_path": str(path), "cwd": str(cwd), "hook_event_name": event}
    done = CliRunner().invoke(
        main, ["--repo", str(repo), "checkpoint", "--from-claude-hook"], input=json.dumps(payload)
    )
    assert done.exit_code == 0, done.output
    return done.output


def stored(repo: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(repo.rglob("*.md")) if ".git" not in p.parts)


def test_a_remember_said_while_the_disk_was_full_is_kept_by_the_next_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = MemoryStore.open(tmp_path / "memory", plain_settings()).root
    project = tmp_path / "billing"
    project.mkdir()
    full = transcript(
        tmp_path / "full.jsonl", "full", project, "Remember that the billing service is written in Go.", "Noted."
    )

    def disk_full(*_args: object) -> None:
        raise MemrepoError(DISK_FULL)

    with monkeypatch.context() as patch:
        patch.setattr(Buffers, "_save", disk_full)
        checkpoint(repo, "full", full, project, "SessionEnd")
    assert "written in Go" not in stored(repo)
    assert [m.session_id for m in hookretry.pending(repo)] == ["full"]
    offsets = repo / ".git" / "memrepo" / "hook-offsets.json"
    assert not offsets.exists() or "full" not in json.loads(offsets.read_text())  # nothing buffered: not moved

    later = transcript(tmp_path / "later.jsonl", "later", project, "What does 2+2 make?", "4.")
    checkpoint(repo, "later", later, project, "Stop")
    checkpoint(repo, "later", later, project, "SessionEnd")
    assert "The billing service is written in Go [by: user" in stored(repo)
    assert hookretry.pending(repo, limit=None) == []
    assert set(json.loads(offsets.read_text())) == {"full", "later"}


def test_a_checkpoint_that_buffers_leaves_no_mark_and_a_mark_without_its_transcript_is_dropped(
    tmp_path: Path,
) -> None:
    repo = MemoryStore.open(tmp_path / "memory", plain_settings()).root
    project = tmp_path / "shop"
    project.mkdir()
    path = transcript(tmp_path / "ok.jsonl", "ok", project, "What does 2+2 make?", "4.")
    checkpoint(repo, "ok", path, project, "Stop")
    assert hookretry.pending(repo, limit=None) == []
    hookretry.mark(repo, "session_close", "gone", tmp_path / "gone.jsonl")
    assert [m.session_id for m in hookretry.pending(repo)] == ["gone"]
    checkpoint(repo, "ok", path, project, "SessionEnd")
    assert hookretry.pending(repo, limit=None) == []


def test_the_offset_moves_only_past_buffered_turns_and_a_retry_that_fails_again_keeps_its_mark(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = MemoryStore.open(tmp_path / "memory", plain_settings()).root
    project = tmp_path / "shop"
    project.mkdir()
    path = transcript(tmp_path / "s.jsonl", "s", project, "Question 1", "Answer 1")
    base = {"sessionId": "s", "cwd": str(project), "isSidechain": False, "timestamp": "2026-12-01T10:00:00.000Z"}

    def turn(n: int) -> str:
        user = {**base, "type": "user", "uuid": f"u{n}", "message": {"role": "user", "content": f"Question {n}"}}
        reply = {**base, "type": "assistant", "uuid": f"a{n}", "message": {"role": "assistant", "content": f"A {n}"}}
        return json.dumps(user) + "\n" + json.dumps(reply) + "\n"

    with path.open("a", encoding="utf-8") as fh:
        fh.write(turn(2))

    def disk_full(*_args: object) -> None:
        raise MemrepoError(DISK_FULL)

    with monkeypatch.context() as patch:
        patch.setattr(Buffers, "_save", disk_full)
        assert "failed" in checkpoint(repo, "s", path, project, "Stop")
        other = transcript(tmp_path / "o.jsonl", "o", project, "Question o", "Answer o")
        checkpoint(repo, "o", other, project, "Stop")  # retries s, fails again: both kept
        assert sorted(m.session_id for m in hookretry.pending(repo)) == ["o", "s"]
    with path.open("a", encoding="utf-8") as fh:
        fh.write(turn(3))
    again = checkpoint(repo, "s", path, project, "Stop")
    assert "6 new, 0 seen before" in again, again  # turns 1 and 2 were never buffered: read again with 3
    assert hookretry.pending(repo, limit=None) == []  # o retried first (space is back), s cleared once buffered
    offsets = json.loads((repo / ".git" / "memrepo" / "hook-offsets.json").read_text())
    assert set(offsets) == {"o", "s"}
