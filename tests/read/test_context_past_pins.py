"""A pin past its ``until:`` date leaves the block, named in MEMORY.md's left-out line (issue 30; docs/architecture.md
§4; engine/read/context.py, engine/read/contextnote.py).

A pin is in every prompt by the user's choice, but its ``until:`` is the line's own word on when it stops holding
("The release is frozen until Friday", or "this week" kept by a session): shown after that day it would be an ended
instruction in every prompt ("don't deploy: frozen"), so it leaves the block like any other line. It is not dropped
silently: MEMORY.md's left-out line names it by number ("1 past their until: date: L3"), so the agent can tell the
user, who unpins it or moves its date. Before, the note gave a count and no line.
"""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.today import pin_today

from memrepo.cli.main import main
from memrepo.engine.config import Settings
from memrepo.engine.format import entries as fmt
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

TODAY = date.today()
YESTERDAY = (TODAY - timedelta(days=1)).isoformat()


@pytest.fixture(autouse=True)
def _one_day(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's day is the day the dates above were taken, even when the run crosses midnight."""
    pin_today(monkeypatch, TODAY)


def _store(root: Path) -> MemoryStore:
    settings = Settings.model_validate({"writes": {"commit_hand_edits_after": 0}, "semantic": {"provider": "off"}})
    return MemoryStore.open(root, settings)


def _pin_numbers(store: MemoryStore) -> dict[str, int]:
    data = (store.root / "MEMORY.md").read_bytes()
    return {entry.text: number for number, entry in fmt.parse(data, "MEMORY.md").entries()}


def test_an_ended_pin_leaves_the_block_named_by_its_line(tmp_path: Path) -> None:
    store = _store(tmp_path / "memory")
    store.remember(Candidate(text="The release is frozen, no deploys", pin=True, by="user", until=YESTERDAY))
    store.remember(Candidate(text="Never deploy on Fridays", kind="rule", pin=True, by="user", until=YESTERDAY))
    store.remember(Candidate(text="I'm the on-call contact for billing", pin=True, by="user", until=TODAY.isoformat()))
    store.remember(Candidate(text="Answer in British English", pin=True, by="user"))
    numbers = _pin_numbers(store)
    block = store.context().text
    assert "I'm the on-call contact for billing" in block  # its last day: still true
    assert "Answer in British English" in block
    assert "frozen" not in block and "Never deploy on Fridays" not in block
    ended = sorted((numbers["The release is frozen, no deploys"], numbers["Never deploy on Fridays"]))
    note = next(line for line in block.splitlines() if line.startswith("(") and "MEMORY.md" in line)
    assert f"2 past their until: date: L{ended[0]} L{ended[1]}" in note, note
    assert "Never deploy on Fridays" in (store.root / "MEMORY.md").read_text("utf-8")  # kept in the file


def test_the_session_start_hook_says_the_same(tmp_path: Path, monkeypatch) -> None:
    """What Claude Code's SessionStart hook prints (its published payload) names the ended pin too."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMREPO_CONFIG", str(tmp_path / "none.toml"))
    store = _store(tmp_path / "memory")
    store.remember(Candidate(text="The release is frozen, no deploys", pin=True, by="user", until=YESTERDAY))
    project = tmp_path / "shop"
    project.mkdir()
    payload = {
        "session_id": "abc123",
        "transcript_path": str(tmp_path / "abc123.jsonl"),
        "cwd": str(project),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    done = CliRunner().invoke(main, ["--repo", str(store.root), "hook", "session-start"], input=json.dumps(payload))
    text = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    number = _pin_numbers(store)["The release is frozen, no deploys"]
    assert "frozen" not in text
    assert re.search(rf"1 past their until: date: L{number}\b", text), text
