"""A write refused while a hand-edit question waits is kept, not dropped (engine/write/remember.py,
docs/architecture.md §3 "blocked states lose nothing"; breaker5 B5-7).

While an editor's stale save of me.md waits for the user's answer, the agent's next write to me.md is kept
under ``.git/memrepo/pending/`` like a write refused during a merge, the reply says so (engine, CLI,
MCP), and it is applied once the question is answered either way.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.mcp_helpers import ROOT, call, mcp_session
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.errors import HandEditQuestion
from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore

KEPT = "I water the plants on Sundays"


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings())


def stale_save_held(store: MemoryStore) -> None:
    """An editor reads me.md, memrepo writes an entry, the editor saves its copy (temp file renamed over it)
    with a line of its own: a "save drops 1 entry" question waits."""
    me = store.root / "me.md"
    read = me.read_text()
    assert store.remember(Candidate(text="I review pull requests before lunch", by="user")).commit
    tmp = me.with_name(".me.md.editor-tmp")
    tmp.write_text(read + "- Typed in the editor [by: user]\n")
    os.replace(tmp, me)
    os.utime(me, (time.time() - 1, time.time() - 1))
    (q,) = store.status().questions
    assert q.dropped


def memrepo(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real CLI in a subprocess (no write server: the reply is the command's own)."""
    env = dict(os.environ, MEMREPO_WRITE_SERVER="0", PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(root), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.mark.parametrize("commit", [False, True], ids=["put back", "commit"])
def test_a_write_while_the_question_waits_is_kept_and_applied_by_the_answer(store: MemoryStore, commit: bool) -> None:
    stale_save_held(store)
    head = store.head()
    with pytest.raises(HandEditQuestion, match="drops 1 entry") as refused:
        store.remember(Candidate(text=KEPT, by="user"))
    assert refused.value.kept
    assert "(the write is kept in .git/memrepo/pending/ and applied once the question is answered)" in str(
        refused.value
    )
    assert [c.text for c in store.pending()] == [KEPT]
    assert store.head() == head  # nothing written meanwhile
    (q,) = store.status().questions
    store.answer_hand_edit("me.md", q.seen, commit=commit)
    assert store.pending() == []
    text = git(store.root, "show", "HEAD:me.md")
    assert KEPT in text and "Typed in the editor" in text
    assert ("pull requests" in text) is (not commit)
    assert (store.root / "me.md").read_text() == text
    assert store.status().state is RepoState.CLEAN


def test_the_cli_says_kept_and_put_back_applies_it(store: MemoryStore) -> None:
    stale_save_held(store)
    root = store.root
    refused = memrepo(root, "remember", KEPT)
    assert refused.returncode == 3  # kept, as `status` exits for a write that waits (breaker8 B8-10)
    assert refused.stderr.startswith("memrepo: kept: not written yet") and "nothing was written" not in refused.stderr
    assert "drops 1 entry" in refused.stderr
    assert "(the write is kept in .git/memrepo/pending/ and applied once the question is answered)" in refused.stderr
    status = memrepo(root, "status")
    assert status.returncode == 3, status.stdout
    assert "1 write(s) kept while blocked, applied once the question below is answered\n" in status.stdout
    answered = memrepo(root, "commit-hand-edits", "--put-back", "me.md")
    assert answered.returncode == 0, answered.stderr
    assert answered.stdout.startswith("put back me.md: committed ")
    assert answered.stdout.endswith("applied 1 write(s) kept while blocked\n")
    assert KEPT in git(root, "show", "HEAD:me.md")
    assert memrepo(root, "status").stdout == "clean\n"


async def test_the_mcp_reply_says_kept_and_the_write_lands_after_the_answer(store: MemoryStore, tmp_path: Path) -> None:
    stale_save_held(store)
    root = store.root
    async with mcp_session(root, tmp_path) as s:
        err, text = await call(s, "memory_remember", content=KEPT, kind="preference", scope="global")
        assert not err, text  # before: isError "memory repo is blocked, nothing was written"
        assert text.startswith("kept: not written yet") and "applied once the question is answered" in text
    (q,) = store.status().questions
    store.answer_hand_edit("me.md", q.seen, commit=False)
    assert KEPT in git(root, "show", "HEAD:me.md")
