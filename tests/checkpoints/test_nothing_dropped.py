"""What the user said in a session is never dropped unwritten (breaker31 B31-14, B31-16, B31-17).

Each test runs the offline (``rules``) distillation in process, as the hooks' checkpoint does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.dream_helpers import settings

from memrepo.engine.checkpoints.checkpoint import Checkpointer
from memrepo.engine.checkpoints.flow import run_checkpoint
from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def cp(store: MemoryStore) -> Checkpointer:
    return Checkpointer(store.state_dir, lambda: 1_000_000.0)


def said(n: int, text: str) -> list[dict]:
    return [{"id": f"u{n}", "role": "user", "text": text}, {"id": f"a{n}", "role": "assistant", "text": "Noted."}]


def memory(store: MemoryStore) -> str:
    return "\n".join(p.read_text() for p in sorted(store.root.rglob("*.md")) if ".git" not in p.parts)


def test_more_than_twenty_requests_in_one_batch_are_all_kept(
    store: MemoryStore, cp: Checkpointer, tmp_path: Path
) -> None:
    """B31-14: 8 turns of 3 requests, one batch at the session's close: all 24 kept (20 were, the rest lost)."""
    cfg, ws = settings(tmp_path), str(tmp_path / "gym")
    colours = ("red", "green", "blue")
    for t in range(8):
        text = " ".join(f"Remember that locker {3 * t + i + 1} holds the {colours[i]} kit." for i in range(3))
        assert run_checkpoint(store, cp, cfg, "s1", ws, said(t, text)).status == "buffered"
    done = run_checkpoint(store, cp, cfg, "s1", ws, [], "session_close")
    assert done.status == "distilled" and done.pending == 0, done
    text = memory(store)
    missing = [n for n in range(1, 25) if f"ocker {n} holds the {colours[(n - 1) % 3]} kit" not in text]
    assert missing == []


def test_a_request_over_the_entry_limit_waits_in_the_inbox_in_parts(
    store: MemoryStore, cp: Checkpointer, tmp_path: Path
) -> None:
    """B31-17: a 650-character "Remember that ..." vanished (no line, no inbox entry); now its parts wait there."""
    steps = [
        "check the billing dashboard and confirm the alert routes to the on-call rotation",
        "open the deploy runbook and read the rollback section twice before the first release",
        "ask the platform team for access to the staging cluster and the metrics workspace",
        "pair with the release captain on one full deploy, from the tag to the smoke tests",
        "add yourself to the incident channel and the weekly reliability review invite",
        "read the last three postmortems and note the follow-ups that are still open",
        "file one small fix in the flaky test tracker to learn the merge queue end to end",
    ]
    checklist = "the lng onboarding checklist is: " + ", ".join(f"step {i} {s}" for i, s in enumerate(steps, 1))
    assert len(checklist) > 500
    run_checkpoint(store, cp, settings(tmp_path), "s1", str(tmp_path / "lng"), said(0, f"Remember that {checklist}."))
    done = run_checkpoint(store, cp, settings(tmp_path), "s1", str(tmp_path / "lng"), [], "session_close")
    assert done.pending == 0, done
    inbox = (store.root / "inbox.md").read_text()
    lines = [line for line in inbox.splitlines() if "lng onboarding" in line or "step " in line]
    assert len(lines) == 2 and all("waits: part " in line and "entry limit" in line for line in lines), inbox
    for step in steps:  # every word of it is kept, in the user's words
        assert step in inbox


TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def test_a_request_after_a_long_paste_in_the_same_message_is_kept(
    store: MemoryStore, cp: Checkpointer, tmp_path: Path
) -> None:
    """B31-16: the 8,000-character cut kept the head only, so the user's words after a 10 KB log were lost."""
    log = "\n".join(
        f"2026-12-06T23:{n % 60:02d}:11Z worker-{n % 7} job {n} took {900 + n} ms (queue 3)" for n in range(170)
    )
    text = f"Here is the worker log from last night:\n{log}\n\nThe slowdown is fixed now. Remember that the worker pool size is 16."
    assert len(text) > 10_000
    result = run_checkpoint(store, cp, settings(tmp_path), "s1", str(tmp_path / "cut"), said(0, text))
    assert result.truncated == 1
    assert result.status == "distilled"  # past 4,000 characters: distilled at once
    assert "The worker pool size is 16" in memory(store)


def test_a_cut_message_keeps_its_head_and_tail_within_the_limit_and_redacted() -> None:
    from memrepo.engine.checkpoints.checkpoint import MAX_MESSAGE_CHARS
    from memrepo.engine.checkpoints.msgcut import cut_message

    text = "Remember that the cut service owner is Dana Wu.\n" + "x" * 20_000 + f"\nmy token is {TOKEN} ok\nbye"
    kept, cut = cut_message(text, MAX_MESSAGE_CHARS)
    assert cut == 1 and len(kept) <= MAX_MESSAGE_CHARS
    assert kept.startswith("Remember that the cut service owner is Dana Wu.")
    assert kept.endswith("\nmy token is [REDACTED:github-token] ok\nbye") and "ghp_" not in kept
    assert "characters cut ..." in kept
    assert cut_message("short text", MAX_MESSAGE_CHARS) == ("short text", 0)


def test_a_resumed_sessions_copied_lines_are_not_distilled_again(
    store: MemoryStore, cp: Checkpointer, tmp_path: Path
) -> None:
    """B31-19: ``claude --resume`` copies the old lines (same uuids) under a new session id; the old "Remember
    that" ran again and brought back a line the user had since told memory to forget."""
    cfg, ws = settings(tmp_path), str(tmp_path / "rf")

    def lines(n: int, text: str) -> list[dict]:
        return [
            {"id": f"00000000-0000-4000-8000-{n:012d}", "role": "user", "text": text},
            {"id": f"00000000-0000-4000-9000-{n:012d}", "role": "assistant", "text": "Done."},
        ]

    old = lines(1, "Remember that the rfp staging box is called wren-2.")
    run_checkpoint(store, cp, cfg, "rf1", ws, old, "session_close", transcript=True)
    assert "wren-2" in memory(store)
    gone = lines(2, "Please forget that the rfp staging box is called wren-2, it was decommissioned.")
    run_checkpoint(store, cp, cfg, "rf2", ws, gone, "session_close", transcript=True)
    assert "wren-2" not in memory(store)
    resumed = [*old, *lines(3, "Thanks, that's all for today.")]  # the copy, then the new turn
    done = run_checkpoint(store, cp, cfg, "rf3", ws, resumed, "session_close", transcript=True)
    assert done.duplicates == 2
    assert "wren-2" not in memory(store)


def test_an_agents_own_short_ids_are_still_told_apart_by_session(store: MemoryStore, cp: Checkpointer) -> None:
    """Ids handed in by an agent (``u1``) are unique only within a session: another session's ``u1`` is new."""
    assert cp.submit("a", None, said(1, "first session words"), transcript=True)[0].accepted == 2
    assert cp.submit("b", None, said(1, "second session words"), transcript=True)[0].accepted == 2
