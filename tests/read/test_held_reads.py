"""While a hand edit that loses entries waits for the user's answer, the entries reach the agent
(engine/read/heldread.py, docs/architecture.md §3-§4, breaker7 B7-2).

An editor read me.md, an agent then wrote "The user is allergic to peanuts", and the editor saved its
copy: memrepo asks before committing (status exit 3) and keeps the committed text. Until the user
answers, the context block shows me.md as committed (its header says so), and recall (the ``memrepo``
command, the MCP server, the prompt hook) names the committed entries the save lacks that match.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.mcp_helpers import mcp_session, text_of
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

ALLERGY = "The user is allergic to peanuts"
HEADER = "## me.md (a hand edit waits for an answer; shown as committed)"


def _memrepo(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(root), *args],
        capture_output=True,
        text=True,
        input=stdin,
    )


def _stale_save(store: MemoryStore) -> Path:
    """The editor reads me.md, an agent writes two entries, the editor saves its copy with a line of its own."""
    me = store.root / "me.md"
    read = me.read_text()
    for text in ("The user prefers dark roast coffee", ALLERGY):
        assert store.remember(Candidate(text=text, kind="fact", by="agent")).commit
    time.sleep(0.4)  # older than the settle quiet time once saved
    tmp = me.with_name(".me.md.editor-tmp")
    tmp.write_text(read + "- Typed in the editor [by: user]\n")
    os.replace(tmp, me)
    os.utime(me, (time.time() - 1, time.time() - 1))
    return me


@pytest.fixture
def waiting(tmp_path: Path) -> MemoryStore:
    store = MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)
    assert store.remember(Candidate(text="Uses metric units", kind="preference", by="user")).commit
    _stale_save(store)
    store.close()
    asked = _memrepo(store.root, "status")
    assert asked.returncode == 3 and "drops 2 entries" in asked.stdout + asked.stderr, asked
    return store


def test_the_block_shows_the_file_as_committed_and_says_so(waiting: MemoryStore) -> None:
    root = waiting.root
    assert ALLERGY not in (root / "me.md").read_text()  # the save lacks it
    shown = _memrepo(root, "context")
    assert shown.returncode == 0, shown.stderr
    assert HEADER in shown.stdout and ALLERGY in shown.stdout, shown.stdout
    store = MemoryStore.open(root, plain_settings())
    try:
        block = store.context().text
        assert HEADER in block and ALLERGY in block
    finally:
        store.close()


def test_recall_names_the_committed_entries_the_save_lacks(waiting: MemoryStore) -> None:
    recalled = _memrepo(waiting.root, "recall", "peanut allergy")
    said = "a hand edit waits for an answer (`memrepo status`)"
    assert said in recalled.stderr and ALLERGY in recalled.stderr, recalled.stderr
    assert "me.md#L" in recalled.stderr
    # A query the lost entries do not match says only how many it left out.
    other = _memrepo(waiting.root, "recall", "metric units")
    assert "metric" in other.stdout and ALLERGY not in other.stderr and "2 committed entries" in other.stderr


def test_the_prompt_hook_gives_them_inside_its_fence(waiting: MemoryStore, tmp_path: Path) -> None:
    payload = {
        "session_id": "abc123",
        "transcript_path": str(tmp_path / "abc123.jsonl"),
        "cwd": str(tmp_path),
        "permission_mode": "default",
        "hook_event_name": "UserPromptSubmit",
        "prompt": "Which snacks should I order for the user, given any peanut allergy?",
    }
    for module in ("memrepo.cli.quick", "memrepo.cli.main"):  # the quick path and click's command
        done = subprocess.run(
            [sys.executable, "-m", module, "--repo", str(waiting.root), "hook", "prompt"],
            capture_output=True,
            text=True,
            input=json.dumps(payload),
        )
        assert done.returncode == 0, done.stderr
        block = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
        assert block.startswith("<memory_recall>") and block.rstrip().endswith("</memory_recall>"), block
        assert ALLERGY in block, (module, block)


async def test_the_mcp_server_gives_them_too(waiting: MemoryStore, tmp_path: Path) -> None:
    async with mcp_session(waiting.root, tmp_path) as session:
        found = text_of(await session.call_tool("memory_recall", {"query": "peanut allergy"}))
        assert ALLERGY in found and "a hand edit waits for an answer" in found, found
        block = text_of(await session.call_tool("memory_context", {}))
        assert HEADER in block and ALLERGY in block, block


def test_once_answered_the_readers_read_the_work_tree_again(waiting: MemoryStore) -> None:
    root = waiting.root
    store = MemoryStore.open(root, plain_settings())
    try:
        (q,) = store.status().questions
        assert store.answer_hand_edit("me.md", q.seen, commit=True)  # the save as it is: the entries go
        assert not (root / ".git" / "memrepo" / "held.json").exists()
        block = store.context().text
        assert HEADER not in block and ALLERGY not in block and "Typed in the editor" in block
    finally:
        store.close()
    assert "a hand edit waits" not in _memrepo(root, "recall", "peanut allergy").stderr
    assert HEADER not in _memrepo(root, "context").stdout


def test_no_question_no_state_file(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)
    try:
        assert store.remember(Candidate(text=ALLERGY, kind="fact", by="agent")).commit
        me = store.root / "me.md"
        me.write_text(me.read_text() + "- Typed by hand [by: user]\n")
        os.utime(me, (time.time() - 1, time.time() - 1))
        assert not store.status().questions
        assert not (store.root / ".git" / "memrepo" / "held.json").exists()
        assert HEADER not in store.context().text
    finally:
        store.close()


@pytest.mark.parametrize("answer", ["--yes", "--put-back"])
def test_an_answer_from_the_command_line_ends_it(waiting: MemoryStore, answer: str) -> None:
    root = waiting.root
    done = _memrepo(root, "commit-hand-edits", answer)
    assert done.returncode == 0, done.stderr
    assert not (root / ".git" / "memrepo" / "held.json").exists()
    shown = _memrepo(root, "context").stdout
    assert HEADER not in shown and "Typed in the editor" in shown
    assert (ALLERGY in shown) is (answer == "--put-back")


def test_a_deleted_file_is_shown_as_committed_too(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)
    for text in ("Uses metric units", "Drinks oolong tea", ALLERGY):
        assert store.remember(Candidate(text=text, kind="fact", by="user")).commit
    store.close()
    (store.root / "me.md").unlink()
    asked = _memrepo(store.root, "status")
    assert asked.returncode == 3, asked
    shown = _memrepo(store.root, "context")
    assert HEADER in shown.stdout and ALLERGY in shown.stdout and "oolong" in shown.stdout, shown.stdout
    recalled = _memrepo(store.root, "recall", "oolong")
    assert "Drinks oolong tea" in recalled.stderr, recalled.stderr


def test_a_cut_save_that_keeps_one_entry_is_shown_as_committed(tmp_path: Path) -> None:
    """breaker11 B11-5: the cut line counted as an entry, so 2 committed -> 1 kept + 1 cut was served as is."""
    store = MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)
    for text in ("Prefers concise answers", "Answer in English"):
        assert store.remember(Candidate(text=text, kind="fact", by="user", pin=True)).commit
    store.close()
    memory = store.root / "MEMORY.md"
    memory.write_text(
        "# Memory\n\n- Prefers concise answers [by: user; added: 2026-12-05; kind: fact]\n"
        "- Use tabs [by: user; added: 2025-01-02\n"
    )
    asked = _memrepo(store.root, "status")
    assert asked.returncode == 3 and "cut mid-write" in asked.stdout + asked.stderr, asked
    shown = _memrepo(store.root, "context").stdout
    assert "## MEMORY.md (a hand edit waits for an answer; shown as committed)" in shown, shown
    assert "Answer in English" in shown and "Use tabs" not in shown, shown


@pytest.mark.parametrize("bad", [b"- Caf\xe9 is my favourite [by: user]\n", b"- a NUL \0 byte [by: user]\n"])
def test_a_save_that_is_not_text_is_shown_as_committed(tmp_path: Path, bad: bytes) -> None:
    """breaker14 B14-7: one Latin-1 byte put "(not readable ...)" in place of all of me.md in every block."""
    store = MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)
    for text in ("Uses metric units", ALLERGY):
        assert store.remember(Candidate(text=text, kind="fact", by="user")).commit
    store.close()
    me = store.root / "me.md"
    me.write_bytes(me.read_bytes() + bad)
    asked = _memrepo(store.root, "status")
    assert asked.returncode == 3, asked
    shown = _memrepo(store.root, "context").stdout
    assert HEADER in shown and ALLERGY in shown and "metric units" in shown, shown
    assert "not readable" not in shown, shown
    store = MemoryStore.open(store.root, plain_settings())
    try:
        block = store.context().text
        assert HEADER in block and ALLERGY in block
    finally:
        store.close()


def test_a_save_that_is_not_text_is_shown_as_committed_before_any_judge(tmp_path: Path) -> None:
    """B14-7 with no `status` or watcher run first: the SessionStart hook reads before anything judged the save."""
    store = MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)
    assert store.remember(Candidate(text=ALLERGY, kind="fact", by="user")).commit
    store.close()
    me = store.root / "me.md"
    me.write_bytes(me.read_bytes() + b"- Caf\xe9 [by: user]\n")
    shown = _memrepo(store.root, "context").stdout
    assert HEADER in shown and ALLERGY in shown and "not readable" not in shown, shown
    store = MemoryStore.open(store.root, plain_settings())
    try:
        block = store.context().text
        assert HEADER in block and ALLERGY in block
    finally:
        store.close()
