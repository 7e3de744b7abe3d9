"""The prompt hook ranks without the inbox: its places go to reviewed lines (breaker29 B29-8, the deeper fix;
engine/read/recallreviewed.py, docs/architecture.md §7).

The hook never injects an inbox (unreviewed) line, and it used to drop them after recall's top 3: three inbox lines
that outranked the reviewed answer left the prompt with no line at all. Recall asked with ``reviewed`` leaves the
inbox out inside the ranking (the index's search, a scan of the files), so the reviewed answer takes a place.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.cli.quickhook import PROMPT_BYTES, PROMPT_HITS
from memrepo.engine import recall_block
from memrepo.engine.models import Candidate
from memrepo.engine.read import coldrecall
from memrepo.engine.repo.store import MemoryStore

QUESTION = "Should I skip the payment tests in the release checklist?"
ANSWER = "The release checklist never lets anyone skip the payment tests, whatever the deadline says"
INBOX = (
    "Payment tests get skipped in the release checklist now",
    "The release checklist skips payment tests for hotfixes",
    "Bob said the release checklist may skip payment tests",
)
"""Three inbox lines (an untrusted task's writes), each ranked above the user's answer: the hook's three places."""


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MemoryStore:
    monkeypatch.setenv("MEMREPO_CONFIG", str(tmp_path / "none.toml"))
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for text in INBOX:  # an untrusted task's writes: they wait in the inbox
        store.remember(Candidate(text=text, by="agent", untrusted=True))
    store.remember(Candidate(text=ANSWER, by="user"))
    return store


def _block(hits: list) -> str:
    return recall_block(hits, PROMPT_BYTES, getattr(hits[0], "covered", None) if hits else None)


def test_three_inbox_lines_ranked_first_leave_the_hook_its_reviewed_answer(store: MemoryStore) -> None:
    asked = store.recall(QUESTION, limit=PROMPT_HITS)
    assert [h.unreviewed for h in asked] == [True] * PROMPT_HITS  # the control: the inbox outranks the answer
    for hits in (
        store.recall(QUESTION, limit=PROMPT_HITS, max_bytes=PROMPT_BYTES, reviewed=True),
        coldrecall.recall(store.root, QUESTION, limit=PROMPT_HITS, max_bytes=PROMPT_BYTES, quick=True, reviewed=True),
    ):
        assert hits and not any(h.unreviewed for h in hits)
        assert ANSWER in hits[0].text
        block = _block(hits)
        assert ANSWER in block and "inbox.md" not in block and not any(text in block for text in INBOX)


def test_a_scan_of_the_files_ranks_without_the_inbox_too(store: MemoryStore) -> None:
    """No index built yet: the hook's answer comes from a scan of the files, which leaves the inbox out alike."""
    from memrepo.engine.read.recallbuilding import build_state

    assert not build_state(store.root)[0]  # nothing recalled yet: no index
    hits = coldrecall.recall(
        store.root, QUESTION, limit=PROMPT_HITS, quick=True, start_build=lambda _root: None, reviewed=True
    )
    assert getattr(hits, "skipped", None) is not None  # a scan answered
    assert hits and not any(h.unreviewed for h in hits) and ANSWER in hits[0].text


def test_the_click_hook_gives_the_reviewed_answer(store: MemoryStore) -> None:
    payload = json.dumps({"session_id": "s1", "cwd": None, "hook_event_name": "UserPromptSubmit", "prompt": QUESTION})
    result = CliRunner().invoke(main, ["--repo", str(store.root), "hook", "prompt"], input=payload)
    assert result.exit_code == 0, result.output
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert ANSWER in context and "inbox.md" not in context and not any(text in context for text in INBOX)


def test_the_quick_hook_gives_the_reviewed_answer(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The console script's light path (cli/quickhook.py), in process: the index built, no door, lexical."""
    from memrepo.cli import quickhook
    from memrepo.cli.quickbase import config_keys

    store.recall_index()  # built: the hook starts no build process
    payload = json.dumps({"session_id": "s1", "cwd": None, "hook_event_name": "UserPromptSubmit", "prompt": QUESTION})
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(payload.encode("utf-8")), encoding="utf-8"))
    keys = config_keys()
    assert keys is not None and quickhook.prompt({"repo": str(store.root), "hook": "prompt"}, keys)
    context = json.loads(capsys.readouterr().out)["hookSpecificOutput"]["additionalContext"]
    assert ANSWER in context and "inbox.md" not in context and not any(text in context for text in INBOX)
