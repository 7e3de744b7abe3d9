"""A write that meets a rebase starting between its hand-edit check and its commit is kept (breaker26 B26-5).

The hand-edit check before a write found no block and the commit found ``rebase-merge/`` (a ``git rebase -i``
the user started meanwhile): the write was refused, "nothing was written", where a moment earlier it would
have been kept in ``.git/memrepo/pending/`` like every other blocked write. It is now kept the same way and
applied once the rebase is done.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.errors import BlockedError
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.write.transaction import Transaction

LINE = "The orders service keeps its queue in Redis"


def git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Hand",
        "GIT_AUTHOR_EMAIL": "hand@example.com",
        "GIT_COMMITTER_NAME": "Hand",
        "GIT_COMMITTER_EMAIL": "hand@example.com",
        "GIT_SEQUENCE_EDITOR": "sed -i '1i break'",  # the rebase stops at once: rebase-merge/ stays
    }
    return subprocess.run(["git", *args], cwd=root, env=env, capture_output=True, text=True, check=True)


def test_a_rebase_started_after_the_hand_edit_check_keeps_the_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    root = store.root
    store.remember(Candidate(text="The shop API runs on Postgres 16", kind="fact"))
    real = Transaction.commit_hand_edits

    def then_rebase(self: Transaction, *args: object, **kwargs: object) -> object:
        done = real(self, *args, **kwargs)  # type: ignore[arg-type]
        git(root, "rebase", "-i", "HEAD~1")  # the user's rebase, right after the check
        return done

    with monkeypatch.context() as patch:
        patch.setattr(Transaction, "commit_hand_edits", then_rebase)
        with pytest.raises(BlockedError) as caught:
            store.remember(Candidate(text=LINE, kind="fact"))
    assert caught.value.kept, str(caught.value)
    assert "kept: not written yet" in str(caught.value) and "rebase" in str(caught.value)
    assert (root / ".git" / "rebase-merge").is_dir()
    assert [c.text for c in store.pending()] == [LINE]
    git(root, "rebase", "--continue")
    store.apply_pending()
    assert LINE in "".join(p.read_text() for p in root.rglob("*.md") if ".git" not in p.parts)
    store.close()
