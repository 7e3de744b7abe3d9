"""The lines a checkpoint shows its distiller (``E1…``) hold the session's workspace's lines first.

Before: the context block's refs were taken in the block's order (MEMORY.md, me.md, then the workspace's file) up
to ``MAX_EXISTING``; once the block gave me.md more room (round 20), a user with many me.md lines had the
workspace's lines pushed past the cap, and "the staging box lives in Frankfurt now" found no line to replace
(docs/architecture.md §7).
"""

from __future__ import annotations

from pathlib import Path

from memrepo.engine.checkpoints.checkpoint import MAX_EXISTING, Checkpointer
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def test_the_workspaces_lines_come_before_a_full_me_md(store: MemoryStore, tmp_path: Path) -> None:
    project = tmp_path / "heron"
    project.mkdir()
    for n in range(MAX_EXISTING + 5):
        store.remember(Candidate(text=f"I like hiking trail number {n} in spring", kind="preference", by="user"))
    store.remember(
        Candidate(text="Heron's staging box runs in Oslo", scope="workspace", workspace=str(project), by="user")
    )
    cp = Checkpointer(store.state_dir)
    msgs = [
        {"id": "u1", "role": "user", "text": "Why is the health check slow?"},
        {"id": "a1", "role": "assistant", "text": "Cross-region traffic."},
    ]
    _result, claim = cp.submit("s1", str(project), msgs, "force")
    assert claim is not None
    cp.prepare(store, claim)
    texts = [entry.text for entry in claim.existing.values()]
    assert len(texts) == MAX_EXISTING
    assert "Heron's staging box runs in Oslo" in texts
    cp.release(claim, failed=False)
