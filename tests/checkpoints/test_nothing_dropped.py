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
