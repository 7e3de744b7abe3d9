"""A checkpoint write a block kept is not a failure (breaker27 B27-7; engine/checkpoints/checkpoint.py).

A session that ended mid-merge had its "Remember that ..." kept in the pen (applied once the merge ends), but the
checkpoint counted the kept write as a failed distillation: the buffer kept the messages "not written yet" after
the pen wrote them, and three such ends parked them. A kept new line is now done for the buffer (the pen writes it
whole); a kept supersede stays pending as ``busy`` (its removal of the old line is not in the pen), never parked.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers.dream_helpers import settings

from memrepo.engine.checkpoints.checkpoint import MAX_FAILURES, Checkpointer
from memrepo.engine.checkpoints.flow import run_checkpoint
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

KEPT_REASON = (
    "BlockedError: kept: not written yet, the memory repo is blocked: a merge is in progress "
    "(the write is kept in .git/memrepo/pen)"
)


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    env_args = ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "core.editor=true"]
    return subprocess.run(["git", *env_args, *args], cwd=root, capture_output=True)


def _mid_merge(root: Path) -> None:
    """A real merge stopped on a conflict in me.md, as `git merge` by hand leaves it."""
    me = root / "me.md"
    assert _git(root, "checkout", "-q", "-b", "other").returncode == 0
    me.write_text(me.read_text().replace("Lyon", "Paris"))
    assert _git(root, "commit", "-qam", "other: Paris").returncode == 0
    assert _git(root, "checkout", "-q", "-").returncode == 0
    me.write_text(me.read_text().replace("Lyon", "Marseille"))
    assert _git(root, "commit", "-qam", "main: Marseille").returncode == 0
    assert _git(root, "merge", "other").returncode != 0 and (root / ".git" / "MERGE_HEAD").exists()


def _files(root: Path) -> str:
    return "\n".join(p.read_text() for p in sorted(root.rglob("*.md")) if ".git" not in p.parts)


def test_a_session_ending_mid_merge_leaves_no_failed_messages_and_its_line_is_written_after(
    store: MemoryStore, tmp_path: Path
) -> None:
    assert store.remember(Candidate(text="I live in Lyon", by="user")).commit
    root = store.root
    _mid_merge(root)
    cp = Checkpointer(store.state_dir)
    messages = [
        {"id": "u1", "role": "user", "text": "Remember that the billing job runs at 02:00 UTC."},
        {"id": "a1", "role": "assistant", "text": "Noted."},
    ]
    done = run_checkpoint(store, cp, settings(tmp_path), "s-merge", str(tmp_path / "billing"), messages, "force")
    assert done.status == "distilled", done.reason
    assert done.pending == 0 and any("kept while the memory repo is blocked" in n for n in done.notes), done
    assert "billing job" not in _files(root)  # not written yet: in the pen
    assert cp.waiting() == [] and cp.parked() == []  # nothing "not written yet", nothing to park
    # The merge ends; the next write applies the kept one.
    assert _git(root, "checkout", "--theirs", "me.md").returncode == 0
    assert _git(root, "add", "me.md").returncode == 0
    assert _git(root, "commit", "-q", "--no-edit").returncode == 0
    store.commit_hand_edits()
    assert "The billing job runs at 02:00 UTC" in _files(root)


def test_a_kept_write_is_never_counted_toward_parking(store: MemoryStore) -> None:
    cp = Checkpointer(store.state_dir)
    for n in range(MAX_FAILURES + 1):  # session ends while blocked, one after another
        _result, claim = cp.submit("s-kept", None, [{"id": f"u{n}", "role": "user", "text": f"Line {n}"}], "force")
        assert claim is not None
        pending = cp.release(claim, failed=True, reason=KEPT_REASON)
        assert pending == n + 1
    assert cp.parked() == []  # was: parked after the third
    (waiting,) = cp.waiting(passing_only=True)  # busy: retried by the next session start or checkpoint
    assert waiting.messages == MAX_FAILURES + 1 and waiting.reason == KEPT_REASON
    assert cp.to_retry()


def test_a_hand_edit_s_question_keeps_every_line_of_the_batch_and_applies_them_after(store: MemoryStore) -> None:
    """me.md holds a hand edit that is not UTF-8: every write waits for the user's answer. The batch's first kept
    write used to stop the merge, so the user's second "Remember that ..." was kept nowhere but the buffer."""
    root = store.root
    me = root / "me.md"
    me.write_bytes(me.read_bytes() + b"- my editor is vi\xff\n")
    cp = Checkpointer(store.state_dir)
    messages = [
        {
            "id": "u1",
            "role": "user",
            "text": "Remember that the build needs Node 22. Remember that deploys go out on Tuesdays.",
        },
        {"id": "a1", "role": "assistant", "text": "Noted."},
    ]
    done = run_checkpoint(store, cp, settings(root.parent), "s-utf", None, messages, "force")
    assert done.status == "distilled" and done.pending == 0, done
    assert cp.waiting() == [] and cp.parked() == []
    store.answer_hand_edit("me.md", store.status().questions[0].seen, commit=False)  # put the committed text back
    text = _files(root)
    assert "The build needs Node 22" in text and "Deploys go out on Tuesdays" in text
