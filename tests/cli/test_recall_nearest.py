"""The nearest entries are for explicit recall only (docs/architecture.md §4): ``memrepo recall`` lists them marked,
while the prompt hook, whose context no one asked for, injects nothing for the same question (both of its paths)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

QUESTION = "what is the wifi password in Stockholm"
"""One weak word of six in memory: no confident answer, one nearest entry."""


def _prompt(project: Path, prompt: str) -> str:
    """Claude Code's UserPromptSubmit JSON (hooks reference: the common fields, permission_mode, prompt)."""
    return json.dumps(
        {
            "session_id": "abc123",
            "transcript_path": "/home/u/.claude/projects/shop/abc123.jsonl",
            "cwd": str(project),
            "hook_event_name": "UserPromptSubmit",
            "permission_mode": "default",
            "prompt": prompt,
        }
    )


def test_the_prompt_hook_never_injects_the_nearest_entries_recall_lists(tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("MEMREPO_CONFIG", str(home / "none.toml"))
    project = tmp_path / "shop"
    project.mkdir()
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text="Works at Fjordline Labs in Stockholm", by="user"))
    recalled = CliRunner().invoke(main, ["--repo", str(store.root), "recall", QUESTION, "--json"])
    assert recalled.exit_code == 1
    assert json.loads(recalled.stdout)["answer"] is False  # explicit recall: the nearest entry, marked

    clicked = CliRunner().invoke(main, ["--repo", str(store.root), "hook", "prompt"], input=_prompt(project, QUESTION))
    assert (clicked.exit_code, clicked.stdout) == (0, "")
    probe = "import sys; sys.argv = ['memrepo', *sys.argv[1:]]; from memrepo.cli import quick; quick.run()"
    env = dict(os.environ, HOME=str(home), MEMREPO_CONFIG=str(home / "none.toml"))
    light = subprocess.run(
        [sys.executable, "-c", probe, "--repo", str(store.root), "hook", "prompt"],
        input=_prompt(project, QUESTION),
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert (light.returncode, light.stdout) == (0, ""), light.stderr
