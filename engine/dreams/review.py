"""What a person does with a dream afterwards: show it, accept its review whole or in part, reject it, undo it.

Part of :class:`.dreamer.Dreamer` (docs/architecture.md §6), kept apart from
the run itself.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import TYPE_CHECKING

from memrepo.engine.errors import ChangedSinceSeen, GitError, RefError
from memrepo.engine.files.lock import DreamLock
from memrepo.engine.git.dream import DreamGit, MergeConflict, clean_interrupted, clean_interrupted_unlocked
from memrepo.engine.git.store import format_message
from memrepo.engine.models import Origin

from . import apply as dreamapply
from .partial import partial_review
from .record import DreamRecord, DreamRecords

if TYPE_CHECKING:
    from memrepo.engine.repo.store import MemoryStore


class DreamConflict(GitError):
    """Accepting a dream conflicts with later changes on main; main is unchanged and the dream is stale."""


class DreamReview:
    """The after-the-run half of :class:`.dreamer.Dreamer`: it needs the store and the run records."""

    store: MemoryStore
    records: DreamRecords

    def show(self, dream_id: str) -> DreamRecord:
        """One run (an id or a unique prefix).

        Raises:
            RefError: no such dream.
        """
        return self.records.load(dream_id)

    # -- afterwards -----------------------------------------------------

    def _pending(self, dream_id: str) -> DreamRecord:
        record = self.show(dream_id)
        if not record.review_pending:
            raise RefError(f"dream {record.id} has no review waiting (it is {record.status.replace('_', ' ')})")
        return record

    def accept(self, dream_id: str, expect: str | None = None, operations: Sequence[int] | None = None) -> DreamRecord:
        """Merge the review branch (``--no-ff``, under the write lock), exactly as it was reviewed, whole or in part.

        The branch must still end at the review commit the dream made (and, with
        ``expect``, at the commit the person read the diff of): a branch moved
        since merges nothing (docs/architecture.md §6).

        Args:
            dream_id: the dream.
            expect: the review commit the person saw (full or at least 7 hex
                digits of ``dreams show``/``diff``), or None.
            operations: indexes into ``record.operations`` of the review
                operations to take; None (or all of them) takes the branch
                whole. The others are dropped with the branch, recorded as
                ``declined`` (see :func:`partial_review`).

        Raises:
            RefError: no such dream, nothing to review, or ``operations``
                names no review operation, a non-review one, or changes that
                cannot be told apart from the others.
            ChangedSinceSeen: the review branch moved since it was made or seen; nothing changed.
            DreamConflict: it conflicts with main; main is unchanged and the dream is now stale.
        """
        record = self._pending(dream_id)
        if self._merged_already(record):
            return record
        head = DreamGit(self.store.root).branch_head(record.branch or "")
        if head is not None and record.review_commit and head != record.review_commit:
            raise ChangedSinceSeen(
                f"dream {record.id}",
                "",
                head[:10],
                f"dream {record.id}'s review branch {record.branch} moved since the dream made it (it ends at "
                f"{head[:7]}, not {record.review_commit[:7]}): nothing was merged; read `memrepo dreams diff "
                f"{record.id}` and reject it, or merge the branch yourself",
            )
        if expect is not None and head is not None and (len(expect) < 7 or not head.startswith(expect.lower())):
            raise ChangedSinceSeen(
                f"dream {record.id}",
                "",
                head[:10],
                f"dream {record.id}'s review is {head[:7]}, not the {expect[:10]} you saw: nothing was merged; "
                f"read `memrepo dreams diff {record.id}` again",
            )
        review = [i for i, op in enumerate(record.operations) if op.classification == "review"]
        chosen = None if operations is None else sorted(set(operations))
        if chosen is not None:
            wrong = [i for i in chosen if i not in review]
            if wrong or not chosen:
                raise RefError(
                    f"dream {record.id}: choose among its review operations {', '.join(map(str, review))}"
                    f" (got {', '.join(map(str, chosen)) or 'none'})"
                )
            if chosen == review:
                chosen = None
        try:
            if chosen is None:
                record.merge_commit = dreamapply.accept(self.store, record)
            else:
                record.merge_commit = self._accept_part(record, chosen)
        except MergeConflict as exc:
            record.status = "stale"
            record.reason = f"conflicts with later changes to {', '.join(exc.paths)}; main is unchanged"
            self.records.save(record)
            raise DreamConflict(f"cannot accept dream {record.id}: {record.reason}") from exc
        except GitError as exc:
            if DreamGit(self.store.root).branch_exists(record.branch or ""):
                raise
            record.status = "stale"
            record.reason = "its review branch is gone"
            self.records.save(record)
            raise DreamConflict(f"cannot accept dream {record.id}: {record.reason}") from exc
        record.status = "accepted"
        if chosen is not None:
            for i in review:
                record.operations[i].decision = "accepted" if i in chosen else "declined"
        self.records.save(record)
        return record

    def _merged_already(self, record: DreamRecord) -> bool:
        """Finish an accept killed after its merge commit, before its record said so; True when it was.

        Under the write lock, a move the kill interrupted is finished first
        (:meth:`.writer.Writer.finish_interrupted`); then a merge commit of
        this dream on main marks the record ``accepted`` and its branches go
        (docs/architecture.md §6: an accept survives a kill).
        """
        prefix = f"Accept dream {record.id}:"
        with self.store.transaction("accept dream", hand_edits=False):
            merged = next(
                (c for c in self.store.git.log(200) if c.dream == record.id and c.summary.startswith(prefix)), None
            )
            if merged is None:
                return False
            git = DreamGit(self.store.root)
            git.delete_branch(f"{record.branch}-part")
            git.delete_branch(record.branch or "")
        record.status = "accepted"
        record.merge_commit = merged.id
        self.records.save(record)
        return True

    def clean_up(self) -> builtins.list[str]:
        """Remove what killed dreams left: temporary worktrees (folders and registrations), half-made branches.

        ``running`` records of dead processes are marked ``failed`` (and can
        then be rejected). What the next dream does first, for Health's fix
        key (docs/architecture.md §6).

        Returns:
            list[str]: one line per thing cleaned (empty: nothing was left).

        Raises:
            BusyError: a dream is running (its worktree and record are alive).
        """
        lock = DreamLock(self.store.git.git_dir)
        lock.acquire()
        try:
            return clean_interrupted(self.store.root, self.records)
        finally:
            lock.release()

    def _accept_part(self, record: DreamRecord, chosen: Sequence[int]) -> str:
        """Merge only the chosen review operations: a commit of them on a side branch from the base, merged.

        Returns:
            str: the merge commit.

        Raises:
            MergeConflict: as a whole accept; GitError: the branch or base is gone.
            RefError: the chosen operations change nothing that can be told apart.
        """
        assert record.branch and record.base
        git = DreamGit(self.store.root)
        head = git.branch_head(record.branch) or record.review_commit
        if head is None:
            raise GitError(f"branch {record.branch} does not exist (accepted, rejected or compacted)")
        ops = record.operations
        files = partial_review(git.changed_files(record.base, head), [ops[i] for i in chosen])
        if not files:
            raise RefError(f"dream {record.id}: the chosen operations change no line that can be told apart")
        n, total = len(chosen), record.counts.get("review", 0)
        message = format_message(
            f"Accept dream {record.id}: {n} of {total} change{'s' if total != 1 else ''}",
            {"Origin": "dream", "Dream": record.id},
        )
        side = f"{record.branch}-part"
        with self.store.transaction("accept dream"):
            git.delete_branch(side)  # left by an earlier try that failed
            git.commit_on_branch(record.base, side, files, message)
            try:
                commit, _paths = git.merge_no_ff(side, message)
            finally:
                git.delete_branch(side)
            git.delete_branch(record.branch)
        return commit

    def reject(self, dream_id: str) -> DreamRecord:
        """Delete the review branch; the dream is ``rejected``.

        A stale dream (its accept conflicted) can be rejected too while its
        branch is still there: the branch holds old text and goes.

        Raises:
            RefError: no such dream, nothing to review, or a stale dream
                whose branch is gone already.
        """
        if self.show(dream_id).status == "running":  # killed? then it is marked failed and can be rejected
            clean_interrupted_unlocked(self.store.root, self.records)
        record = self.show(dream_id)
        if record.status == "running":
            raise RefError(f"dream {record.id} is still running: reject it once it has finished")
        if not record.rejectable:
            raise RefError(f"dream {record.id} has no review waiting (it is {record.status.replace('_', ' ')})")
        with self.store.lock.hold("reject dream"):
            deleted = DreamGit(self.store.root).delete_branch(record.branch or "")
        if not deleted and record.status == "stale":
            raise RefError(
                f"dream {record.id} is stale and its review branch {record.branch} is gone: nothing to reject"
            )
        record.status = "rejected"
        self.records.save(record)
        return record

    def undo(self, dream_id: str, origin: Origin = "cli") -> DreamRecord:
        """Revert the dream's automatic commit in a new commit.

        Raises:
            RefError: no such dream, or it has no automatic commit left to undo.
            GitError: the revert conflicts with later edits to the same
                lines; it was aborted and nothing changed.
        """
        record = self.show(dream_id)
        if not record.auto_commit:
            raise RefError(f"dream {record.id} made no automatic commit to undo")
        if record.undo_commit:
            raise RefError(f"dream {record.id} was undone already ({record.undo_commit[:7]})")
        result = self.store.undo(record.auto_commit, origin=origin)
        record.undo_commit = result.commit
        if not record.review_pending:
            record.status = "undone"
        self.records.save(record)
        return record
