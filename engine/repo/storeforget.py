"""Forgetting, on the store: undo, forget, clear, purge a task, compact (docs/architecture.md §3, §5).

A mixin of :class:`~memrepo.engine.repo.store.MemoryStore`, kept apart so the
store module stays one screenful per concern. Each method runs the change in
:mod:`memrepo.engine.write.rewrites`, then, when asked, compacts the history
under the same lock. Forget and compaction walk the derived-state registry
(:mod:`memrepo.engine.state.scrub`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from memrepo.engine.errors import MemrepoError, RefError
from memrepo.engine.format.paths import entry_ref
from memrepo.engine.models import Action, CompactPreview, CompactProgress, CompactResult, Origin, WriteResult

if TYPE_CHECKING:
    from pathlib import Path

    from memrepo.engine.files.lock import WriteLock
    from memrepo.engine.read.readcache import ReadCaches
    from memrepo.engine.read.workspaceindex import WorkspaceIndex
    from memrepo.engine.write.ports import WriteAccess
    from memrepo.engine.write.writer import Writer


class StoreForgetting:
    """Undo, forget, clearing and compaction of one open memory repo (mixed into the store).

    Attributes:
        root: the work tree's absolute path.
        writer: the one write transaction.
        workspace_index: which file holds which workspace.
        reads: the recall and context caches.
    """

    root: Path
    writer: Writer
    workspace_index: WorkspaceIndex
    reads: ReadCaches

    @property
    def lock(self) -> WriteLock:
        raise NotImplementedError

    @property
    def state_dir(self) -> Path:
        raise NotImplementedError

    def _as_store(self) -> WriteAccess:
        """This store as the protocol compaction and sync take (the mixed-in class has every member)."""
        return cast("WriteAccess", self)

    # -- undo, forget, clearing (:mod:`.rewrites`) ---------------------------------

    def undo(self, rev: str, origin: Origin = "cli") -> WriteResult:
        """Revert one commit in a new commit ("Undo: ...", docs/architecture.md §8), entry-aware.

        The lines the commit added are taken out where they stand now and the
        lines it removed are put back (:mod:`.revert`); a removed entry is not
        put back when that would make a new duplicate. The change an accepted
        dream merged, undone, marks the dream ``undone`` (:mod:`memrepo.engine.dreams.undone`).

        Raises:
            GitError: no such commit, a merge or the first commit, already
                undone ("already undone by <id>"), or a conflict with later changes.
            BlockedError, BusyError: as for writes.
        """
        from memrepo.engine.dreams.undone import note_undo
        from memrepo.engine.write import rewrites

        result = rewrites.undo(self.writer, rev, origin)
        git = self.writer.git
        note_undo(git.git_dir, git.commit_info(rev), git.commit_info)  # an accepted dream's change: "undone"
        return result

    def forget(
        self,
        ref: str,
        origin: Origin = "cli",
        task: str | None = None,
        expect: str | None = None,
        compact: bool = False,
        replace_remote: bool = False,
    ) -> WriteResult:
        """Remove the entry at ``ref`` in its own commit ("Forget: ...", docs/architecture.md §3).

        Args:
            ref: ``repo:<path>#L<n>`` (``repo:`` may be left out: ``me.md#L6``, B29-15), read against the file as
                it is on disk now.
            origin: the ``Origin:`` trailer.
            task: the ``Task:`` trailer, when a task asked.
            expect: the entry text the caller means; a line that now holds
                other text is refused instead of forgotten.
            compact: then compact the history (:meth:`compact`, docs/architecture.md §5).
            replace_remote: with ``compact`` and a sync remote set, a person
                confirmed replacing the remote's history afterwards.

        Raises:
            RefError: the ref is malformed, unsafe, or its line is not an entry.
            SyncError: ``compact`` with a sync remote and no ``replace_remote``; nothing changed.
            BlockedError, BusyError: as for writes.
        """
        from memrepo.engine.state.registry import Event
        from memrepo.engine.state.scrub import Scope, walk
        from memrepo.engine.write import rewrites

        ref = entry_ref(ref)

        def scrub(paths: list[str]) -> object:
            return walk(
                Event.FORGET, Scope(self.root, paths=paths, state_dir=self.state_dir)
            )  # the text leaves every derived file now

        return self._then_compact(
            compact,
            replace_remote,
            "forgotten",
            lambda: rewrites.forget(self.writer, ref, origin, task, expect, scrub),
        )

    def clear_workspace(
        self, workspace: str, origin: Origin = "cli", compact: bool = False, replace_remote: bool = False
    ) -> WriteResult:
        """Delete a workspace's file and its index link in one commit (then compact, with ``compact``).

        Raises:
            RefError: no workspace file names that workspace.
            AmbiguousWorkspaceError: a name that matches two or more workspace files.
            SyncError: ``compact`` with a sync remote and no ``replace_remote``; nothing changed.
            BlockedError, BusyError: as for writes.
        """

        from memrepo.engine.write import rewrites

        def clear() -> WriteResult:
            with self.writer.lock.hold("clear workspace"):
                done = rewrites.clear_workspace(self.writer, self.workspace_index, workspace, origin)
                self._walk_clear()
            return done

        return self._then_compact(compact, replace_remote, "cleared", clear)

    def clear_global(self, origin: Origin = "cli", compact: bool = False, replace_remote: bool = False) -> WriteResult:
        """Empty the global memories in one commit: every entry of me.md, lessons.md, inbox.md and MEMORY.md.

        MEMORY.md keeps its headings, prose and index. ``commit`` is None when
        there was nothing to clear (the compact commit with ``compact``).
        """

        from memrepo.engine.write import rewrites

        def clear() -> WriteResult:
            with self.writer.lock.hold("clear global"):
                done = WriteResult(action=Action.CLEARED, commit=rewrites.clear_global(self.writer, origin))
                self._walk_clear()
            return done

        return self._then_compact(compact, replace_remote, "cleared", clear)

    def purge_task(
        self, task: str, origin: Origin = "cli", compact: bool = False, replace_remote: bool = False
    ) -> WriteResult:
        """Remove every ``by: agent`` entry written by ``task`` (its ``task:`` key), in one commit.

        The ``by: user`` entries a checkpoint of session ``task`` wrote go too (:func:`.rewrites.purge_task`).

        Raises:
            RefError: ``task`` is empty.
            SyncError, BlockedError, BusyError: as for :meth:`clear_global`.
        """
        task = task.strip()
        if not task:
            raise RefError("purge_task needs a task id")

        from memrepo.engine.write import rewrites

        def purge() -> WriteResult:
            with self.writer.lock.hold("purge task"):
                done = WriteResult(action=Action.CLEARED, commit=rewrites.purge_task(self.writer, task, origin))
                self._walk_clear()
            return done

        return self._then_compact(compact, replace_remote, "purged", purge)

    def _walk_clear(self) -> None:
        """Walk the derived-state registry for :attr:`~.registry.Event.CLEAR` under the write lock: the links of old
        inodes leave with the cleared text, as the registry says (breaker19 B19-14: nothing walked it)."""
        from memrepo.engine.state.registry import Event
        from memrepo.engine.state.scrub import Scope, walk

        walk(Event.CLEAR, Scope(self.root, state_dir=self.state_dir))

    def _then_compact(
        self, compact: bool, replace_remote: bool, what: str, change: Callable[[], WriteResult]
    ) -> WriteResult:
        """Run ``change``, then (with ``compact``) compact under the same lock; the remote is asked about first."""
        if not compact:
            return change()
        from memrepo.engine.history.compact import refuse_remote_before_change

        refuse_remote_before_change(self._as_store(), replace_remote, what)
        with self.lock.hold("compact"):
            result = change()
            return result.model_copy(update={"commit": self.compact(replace_remote=replace_remote).commit})

    # -- compaction (docs/architecture.md §5) ------------------------------------

    def compact(
        self, progress: Callable[[CompactProgress], None] | None = None, replace_remote: bool = False
    ) -> CompactResult:
        """Replace the history with one commit of the current files; keep no old byte under ``.git``.

        See :func:`.compact.compact`. With a sync remote set and
        ``replace_remote``, the remote's history is then replaced too
        (``remote_replaced``, or ``remote_error`` saying why not: the local
        compaction stands).

        Raises:
            SyncError: a sync remote is set and ``replace_remote`` is False (nothing changed).
            BlockedError, BusyError: as for writes (nothing changed).
            GitError: nothing to compact (unborn HEAD) or libgit2 failed.
        """
        from memrepo.engine.history.compact import compact as compact_history
        from memrepo.engine.history.compact import remote_url
        from memrepo.engine.state.registry import Event
        from memrepo.engine.state.scrub import Scope, walk

        url = remote_url(self.root)
        result = compact_history(self._as_store(), progress, replace_remote)
        walk(
            Event.COMPACTED, Scope(self.root, index=self.reads.recall_index_built, state_dir=self.state_dir)
        )  # what the files rebuild
        if url is not None:
            from memrepo.engine.sync.sync import replace_remote_history

            try:
                replace_remote_history(self._as_store(), confirmed=True)
                result.remote_replaced = True
            except MemrepoError as exc:
                result.remote_error = str(exc)
        return result

    def compact_preview(self) -> CompactPreview:
        """What :meth:`compact` would take away: commits, refs, dream branches, pending dreams."""
        from memrepo.engine.history.compact import preview as compact_preview

        return compact_preview(self._as_store())
