"""The hooks and the CLI in a linked worktree, a moved clone and a fork (breaker finding B6-13).

Claude Code's SessionStart and UserPromptSubmit payloads (as in test_claude_code.py) with their
``cwd`` in a ``git worktree add`` folder or a moved clone got "(no file for this workspace yet)" and
no recall; a fork with another remote must still get nothing of the project's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from helpers.gitproject import FACT, git, make_project
from test_claude_code import ROOT, hook, session_start_payload

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def prompt_payload(cwd: Path, tmp_path: Path, prompt: str) -> dict:
    return {
        "session_id": "abc123",
        "transcript_path": str(tmp_path / "abc123.jsonl"),
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    }


def block_of(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout else ""


def cli(repo: Path, home: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, HOME=str(home), PYTHONPATH=str(ROOT), MEMREPO_CONFIG=str(home / "none.toml"))
    return subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


def test_hooks_and_cli_in_a_worktree_a_moved_clone_and_a_fork(store: MemoryStore, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    shop = make_project(tmp_path / "proj" / "shop")
    store.remember(Candidate(text=FACT, scope="workspace", workspace=str(shop), by="user"))
    feat = tmp_path / "proj" / "shop-feat"
    git("worktree", "add", "-q", str(feat), "-b", "feat", cwd=shop)
    fork = tmp_path / "fork"
    git("clone", "-q", str(shop), str(fork))
    git("remote", "set-url", "origin", "git@github.com:someone/shop.git", cwd=fork)
    question = "what postgres version is the shop db on"

    for folder in (feat,):
        block = block_of(hook(store.root, "session-start", session_start_payload(folder, tmp_path), home))
        assert FACT in block and "no file for this workspace yet" not in block
        assert FACT in block_of(hook(store.root, "prompt", prompt_payload(folder, tmp_path, question), home))
        done = cli(store.root, home, "recall", "postgres version shop db", "--workspace", ".", cwd=folder)
        assert done.returncode == 0 and FACT in done.stdout, done.stderr

    block = block_of(hook(store.root, "session-start", session_start_payload(fork, tmp_path), home))
    assert FACT not in block and "no file for this workspace yet" in block
    assert FACT not in block_of(hook(store.root, "prompt", prompt_payload(fork, tmp_path, question), home))

    moved = tmp_path / "code" / "shop-renamed"
    moved.parent.mkdir()
    shutil.move(str(shop), str(moved))
    git("worktree", "repair", cwd=moved)  # as git asks after moving a main worktree that has linked ones
    block = block_of(hook(store.root, "session-start", session_start_payload(moved, tmp_path), home))
    assert FACT in block and "no file for this workspace yet" not in block
    assert FACT in block_of(hook(store.root, "prompt", prompt_payload(moved, tmp_path, question), home))
    done = cli(store.root, home, "remember", "Checkout bug tracked in SHOP-4417", "--workspace", ".", cwd=moved)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (store.root / "workspaces").glob("*.md")) == ["shop.md"]
