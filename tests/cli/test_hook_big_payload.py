"""A hook payload over 1 MB (a pasted prompt) is read to its end and answered with one clear line
(cli/quickhook.py ``read_stdin``, cli/hooks.py).

Found by breaker3: the hook read 1 MB, stopped, said "the hook's stdin is not JSON: Unterminated string" and
exited, and Claude Code, still writing the payload, wrote into a closed pipe (EPIPE).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


@pytest.mark.parametrize("module", ["memrepo.cli.quick", "memrepo.cli.main"])
def test_a_prompt_over_1_mb_is_read_to_its_end(tmp_path: Path, module: str) -> None:
    root = tmp_path / "memory"
    MemoryStore.open(root, plain_settings()).remember(Candidate(text="The AWS account is billing-prod", by="user"))
    payload = {
        "session_id": "s1",
        "transcript_path": str(tmp_path / "t.jsonl"),
        "cwd": str(tmp_path),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "which AWS account " * 100_000,  # 1.8 MB
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", module, "--repo", str(root), "hook", "prompt"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(json.dumps(payload).encode())  # raises BrokenPipeError when the hook stops reading early
    proc.stdin.close()
    out, err = proc.stdout.read(), proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert out == b""
    assert b"over 1 MB (a pasted prompt?): nothing added" in err, err
