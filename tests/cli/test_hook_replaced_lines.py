"""The prompt hook never adds an outdated line alone (breaker7 B7-19, B7-9).

Claude Code's UserPromptSubmit payload (as in test_claude_code.py), a project file holding lines the context block
hides as replaced ("Staging DB host is pg-stage-3", then "Scratch that: the staging DB host is pg-stage-9 now"): a
task-style prompt and a short question got the outdated lines and not the lines that replace them. Every line the
hook adds that a newer line of its file replaces comes with that line above it (docs/recall.md).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from helpers.repo_helpers import plain_settings
from test_claude_code import hook

from memrepo.engine.models import Candidate
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.repo.store import MemoryStore

OLD_HOST = "Staging DB host is pg-stage-3"
OLD_NAME = "The staging database is called olive"
NEW_NAME = "The staging database is now called maple, not olive"
NEW_HOST = "Scratch that: the staging DB host is pg-stage-9 now"


def prompt_payload(cwd: Path, tmp_path: Path, prompt: str) -> dict:
    return {
        "session_id": "abc123",
        "transcript_path": str(tmp_path / "abc123.jsonl"),
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    }


def added(done: subprocess.CompletedProcess) -> list[str]:
    assert done.returncode == 0, done.stderr
    if not done.stdout:
        return []
    text = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    return [line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("repo:")]


def shop(tmp_path: Path, indexed: bool = True) -> tuple[MemoryStore, Path, Path]:
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "shop"
    project.mkdir()
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for text in ("The shop deploys with make ship", OLD_HOST, OLD_NAME, NEW_NAME, NEW_HOST):
        store.remember(Candidate(text=text, scope="workspace", workspace=str(project), by="user"))
    if indexed:  # as after a session's first prompts (a scan of the files answers before)
        index = RecallIndex(store.root)
        try:
            index.sync()
        finally:
            index.close()
    return store, project, home


def never_alone(lines: list[str], prompt: str) -> None:
    for old, new in ((OLD_HOST, NEW_HOST), (OLD_NAME, NEW_NAME)):
        if old in lines:  # never the old line alone: its replacement above it
            assert new in lines and lines.index(new) < lines.index(old), (prompt, lines)


def test_the_hook_adds_a_replacement_with_the_line_it_replaces(tmp_path: Path) -> None:
    store, project, home = shop(tmp_path)
    block = store.context(str(project)).text
    assert OLD_HOST not in block and NEW_HOST in block  # the block hides the old host as replaced
    for prompt in (
        "Can you deploy the shop to staging for me? Use the usual command.",
        "what is the staging database called?",
        "which host does the staging DB run on?",
    ):
        lines = added(hook(store.root, "prompt", prompt_payload(project, tmp_path, prompt), home))
        assert lines, prompt
        never_alone(lines, prompt)


def test_the_first_prompt_answered_by_a_scan_brings_the_replacement_too(tmp_path: Path) -> None:
    store, project, home = shop(tmp_path, indexed=False)
    prompt = "Can you deploy the shop to staging for me? Use the usual command."
    done = hook(store.root, "prompt", prompt_payload(project, tmp_path, prompt), home)
    assert "from a scan of the files" in done.stdout  # no index yet: the files were scanned
    lines = added(done)
    assert NEW_HOST in lines, lines
    never_alone(lines, prompt)
