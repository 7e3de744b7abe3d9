"""A busy recall index never fails a checkpoint (breaker20 B20-9; engine/checkpoints/checkpoint.py ``prepare``).

The first session on a large repo ends while the search index builds in another process, which holds
recall.sqlite's write lock. The checkpoint's look for existing entries (a recall) failed with "recall.sqlite could
not be written (database is locked)", the batch went back to the buffer as a failed distillation, and after three
such failures the user's "Remember that ..." lines were dropped with only a log line. The look for existing entries
only helps the distillation: a busy index is now skipped (the context files still give the existing entries), and
the lines are kept.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from helpers.dream_helpers import settings

from memrepo.engine.checkpoints.checkpoint import Checkpointer
from memrepo.engine.checkpoints.flow import run_checkpoint
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def test_a_checkpoint_while_another_process_holds_the_recall_index_keeps_the_lines(
    store: MemoryStore, tmp_path: Path
) -> None:
    store.remember(Candidate(text="The shop API runs on Postgres 15"))
    assert store.recall("Postgres")  # the index is built
    index = store.state_dir / "recall.sqlite"
    assert index.is_file()
    holder = sqlite3.connect(index, isolation_level=None, timeout=60)  # another process's build, in effect
    try:
        holder.execute("BEGIN EXCLUSIVE")  # its write lock: nobody reads or writes the index meanwhile
        ws = str(tmp_path / "shop")
        messages = [
            {"id": "u1", "role": "user", "text": "Remember that the build needs Node 22."},
            {"id": "a1", "role": "assistant", "text": "Noted."},
        ]
        cp = Checkpointer(store.state_dir)
        done = run_checkpoint(store, cp, settings(tmp_path), "s-busy", ws, messages, "force")
        assert done.status == "distilled", done.reason
        assert done.pending == 0
        kept = "\n".join(p.read_text() for p in store.root.rglob("*.md") if ".git" not in p.parts)
        assert "The build needs Node 22" in kept
    finally:
        holder.execute("ROLLBACK")
        holder.close()
