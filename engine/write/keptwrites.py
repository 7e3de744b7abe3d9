"""Writes kept while the work tree is blocked: the queue under ``.git/memrepo/pending/`` (docs/architecture.md §3).

A write refused while the work tree is blocked, or while a hand edit of its file waits for the user's answer,
is kept here as one JSON candidate (policy-checked, redacted) and applied by the next write, the next
``memrepo commit-hand-edits`` or a long-running process once the block is gone: blocked states lose nothing.
:class:`KeptWrites` is the part of :class:`~memrepo.engine.write.remember.EntryWriter` that keeps and applies them.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.engine.errors import BlockedError, BusyError, LimitError, RefError
from memrepo.engine.files.atomic import atomic_write
from memrepo.engine.format.layout import PENDING_DIR
from memrepo.engine.models import Action, Candidate, WriteResult

from .writer import ChangedMeanwhile, Transaction, Writer

if TYPE_CHECKING:
    from .remember import Target


class KeptWrites:
    """The pending queue of an entry writer (mixed into :class:`~memrepo.engine.write.remember.EntryWriter`)."""

    writer: Writer

    if TYPE_CHECKING:

        def route(self, cand: Candidate) -> Target: ...

        def write(
            self, tx: Transaction, cand: Candidate, target: Target, *, sync_index: bool = False
        ) -> WriteResult: ...

    @property
    def pending_dir(self) -> Path:
        """``.git/memrepo/pending/``: one JSON candidate per write kept while blocked."""
        return self.writer.state_dir / PENDING_DIR

    def pending(self) -> list[Candidate]:
        """Writes refused while the work tree was blocked, oldest first, waiting to be applied."""
        out = []
        for path in sorted(self.pending_dir.glob("*.json")) if self.pending_dir.is_dir() else []:
            try:
                out.append(Candidate.model_validate_json(path.read_bytes()))
            except (OSError, ValueError):
                continue
        return out

    def queue(self, cand: Candidate) -> None:
        """Keep a (policy-checked, redacted) candidate durably under ``.git/memrepo/pending/``.

        Owner only like every state file (docs/architecture.md §4): the folder 0700 (one an older
        memrepo made 0755 is tightened), the file 0600 (made 0644 by the write, inside the 0700 folder).
        """
        folder = self.pending_dir
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if folder.stat().st_mode & 0o077:
            os.chmod(folder, 0o700)
        path = folder / f"{time.time_ns():020d}-{os.getpid()}.json"
        atomic_write(path, cand.model_dump_json().encode("utf-8"))
        os.chmod(path, 0o600)

    def apply_pending(self) -> list[WriteResult]:
        """Apply the writes kept while blocked, in order (see :meth:`MemoryStore.apply_pending`)."""
        with self.writer.transaction("apply pending", hand_edits=False) as tx:
            tx.commit_hand_edits()
            return self.apply_pending_in(tx)

    def apply_pending_in(self, tx: Transaction) -> list[WriteResult]:
        """:meth:`apply_pending` inside an open transaction (hand edits already committed).

        A record is removed by the commit that applies it (:meth:`Transaction.remove_after_commit`, journaled:
        killed between the line's write, its commit and the record's removal, the write is applied once, with
        its own commit message, by the next holder of the write lock; docs/architecture.md §3), or at once when
        nothing was committed (the line was there already, a user's line outranks it, a limit refused it).
        """
        if not self.pending_dir.is_dir():
            return []
        results = []
        for path in sorted(self.pending_dir.glob("*.json")):
            try:
                cand = Candidate.model_validate_json(path.read_bytes())
            except (OSError, ValueError):
                path.rename(path.with_suffix(".unreadable"))  # kept for a person, never retried
                continue
            try:
                target = self.route(cand)
                tx.remove_after_commit(path)
                results.append(self.write(tx, cand, target))
            except (LimitError, RefError) as exc:  # RefError: its workspace name became ambiguous
                tx.discard()
                results.append(WriteResult(action=Action.REFUSED, reason=str(exc)))
            except (ChangedMeanwhile, BlockedError, BusyError):
                # An editor is busy with the file, or a hand edit waits for the user: the next write tries again.
                tx.discard()
                break
            tx.discard()  # the record is gone with the commit, or now: nothing was committed
            path.unlink(missing_ok=True)
        self.writer.git.sync_index()
        return results
