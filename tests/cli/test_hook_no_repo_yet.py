"""A new user's first sessions, before any repo exists: the hooks say the first checkpoint makes it (breaker31 B31-5).

SessionStart and UserPromptSubmit printed "no memory repo here; make one with `memrepo init ...`" on every call,
though the session's first Stop checkpoint makes the repo (and keeps the turns) by itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from memrepo.cli.main import main


@pytest.mark.parametrize(
    ("hook", "payload"),
    [("session-start", {"source": "startup"}), ("prompt", {"prompt": "How do we deploy?"})],
)
def test_a_hook_before_the_repo_exists_says_the_checkpoint_makes_it(tmp_path: Path, hook: str, payload: dict) -> None:
    repo = tmp_path / "agent-memory"
    data = {"session_id": "s1", "transcript_path": str(tmp_path / "t.jsonl"), "cwd": str(tmp_path), **payload}
    done = CliRunner().invoke(main, ["--repo", str(repo), "hook", hook], json.dumps(data))
    assert done.exit_code == 0 and done.stdout == ""
    assert f"no memory repo yet at {repo}: this session's first checkpoint makes it" in done.stderr, done.stderr
    assert "memrepo init" not in done.stderr
    assert not repo.exists()  # a read makes nothing
