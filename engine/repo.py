"""The awaitable memory repo: the engine's public surface (DESIGN.md §1).

pygit2 calls block, so each :class:`MemoryRepo` owns one worker thread that
runs all of its git and file work in order; every method awaits that thread
and never blocks the caller's event loop. The :class:`MemoryStore` and its
pygit2 repository are created on that thread and used only there
(STYLE.md habit 3).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .models import (
    Candidate,
    ChangeEvent,
    CommitInfo,
    CompactPreview,
    CompactProgress,
    CompactResult,
    ContextBlock,
    EntryView,
    FileView,
    Origin,
    RecallHit,
    RepoStatus,
    WorkspaceInfo,
    WriteResult,
)
from .store import MemoryStore
from .watch import watch_changes

if TYPE_CHECKING:
    from .config import Settings, SyncSettings
    from .health import HealthRow
    from .models import ConflictView, SyncResult, SyncState

T = TypeVar("T")

FULL_SCAN_EVERY_S = 30.0
"""While the watcher feeds hand-edit hints, still scan the whole work tree this often (seconds),
so an edit made before the watcher started is never missed for long."""


def _ignore_result(future: asyncio.Future[object]) -> None:
    """Consume the outcome of work whose result was already handed out."""
    if not future.cancelled():
        future.exception()


class MemoryRepo:
    """An open memory repo with an async API.

    Create it with ``await MemoryRepo.open(path)``; close it with
    ``await repo.close()`` or ``async with``.

    Attributes:
        root: the work tree's absolute path.
    """

    def __init__(self, executor: ThreadPoolExecutor, store: MemoryStore) -> None:
        self._executor = executor
        self._store = store
        self.root: Path = store.root
        self._watch_task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._subscribers: list[asyncio.Queue[ChangeEvent | None]] = []
        self._dirty: set[str] = set()
        # -inf, not 0.0: the monotonic clock starts near 0 at boot, and the
        # first write after the watcher starts must scan everything.
        self._last_full_scan = float("-inf")
        self._closed = False
        self.commit_hand_edits_after = 0.0
        """Seconds of quiet before the watcher commits hand edits; 0 = only before writes (DESIGN.md §4)."""
        self._quiet_task: asyncio.Task[None] | None = None
        self._warming: asyncio.Future[Any] | None = None
        self.last_auto_commit_error: str | None = None
        """Why the last quiet-period commit of hand edits did not happen (blocked, busy), or None."""

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        create: bool = True,
        origin: Origin = "cli",
        agent_to_inbox: bool = False,
        commit_hand_edits_after: float = 0.0,
    ) -> MemoryRepo:
        """Open (or create with the starting layout) the memory repo at ``path``.

        Args:
            path: the repo folder.
            create: create it when missing or empty.
            origin: ``Origin:`` trailer for the "Create memory repo" commit.
            agent_to_inbox: send every agent write to the inbox (the
                ``[writes] agent_to_inbox`` setting, DESIGN.md §11).
            commit_hand_edits_after: while the watcher runs, commit hand edits
                once the files have been quiet this long (seconds; the
                ``[writes] commit_hand_edits_after`` setting, DESIGN.md §4);
                0 commits them only before a write.

        Returns:
            MemoryRepo: the open repo, with its worker thread running.

        Raises:
            PathRuleError: the path breaks a rule of DESIGN.md §2.
            GitError: libgit2 could not open or create it.
        """
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memrepo-git")
        loop = asyncio.get_running_loop()
        try:
            store = await loop.run_in_executor(executor, MemoryStore.open, path, create, origin)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        store.agent_to_inbox = agent_to_inbox
        repo = cls(executor, store)
        repo.commit_hand_edits_after = max(0.0, float(commit_hand_edits_after))
        return repo

    async def __aenter__(self) -> MemoryRepo:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        if self._closed:
            raise RuntimeError("the memory repo is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn, *args)

    async def close(self) -> None:
        """Stop the watcher and the worker thread (waits for the write in progress)."""
        if self._closed:
            return
        self._stop.set()
        if self._quiet_task is not None:
            self._quiet_task.cancel()
        if self._watch_task is not None:
            self._watch_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._watch_task
        for queue in self._subscribers:
            queue.put_nowait(None)
        self._closed = True
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self._executor.shutdown, True)
        sync_executor = getattr(self, "_sync_executor", None)
        if sync_executor is not None:
            await loop.run_in_executor(None, sync_executor.shutdown, True)

    # -- writes --------------------------------------------------------

    async def remember(self, candidate: Candidate) -> WriteResult:
        """Save a memory through the governed writer (DESIGN.md §3).

        While the watcher runs (:meth:`start_watching`), only the files it
        saw change are checked for hand edits, plus the target file and
        MEMORY.md, with a full scan at least every 30 s; otherwise the whole
        work tree is scanned before the write.

        The result comes back as soon as the commit exists; the index update
        that keeps ``git status`` clean finishes right after on the worker
        thread, still under the write lock, before any later call runs.

        Returns:
            WriteResult: see :meth:`MemoryStore.remember`.

        Raises:
            BlockedError, BusyError, GitError: as :meth:`MemoryStore.remember`.
        """
        hint = self._take_hint()
        loop = asyncio.get_running_loop()
        early: asyncio.Future[WriteResult] = loop.create_future()

        def committed(result: WriteResult) -> None:
            loop.call_soon_threadsafe(lambda: early.done() or early.set_result(result))

        try:
            work = asyncio.ensure_future(self._run(self._store.remember, candidate, hint, committed))
            await asyncio.wait({early, work}, return_when=asyncio.FIRST_COMPLETED)
            if work.done() or not early.done():
                early.cancel()
                return work.result()
            # The index update runs on; the store keeps a failure to retry it.
            work.add_done_callback(_ignore_result)
            return early.result()
        except BaseException:
            if hint is not None:
                self._dirty.update(hint)
            else:  # the write failed, maybe before its full scan: the next one scans
                self._last_full_scan = float("-inf")
            raise

    def _take_hint(self) -> list[str] | None:
        if self._watch_task is None or time.monotonic() - self._last_full_scan > FULL_SCAN_EVERY_S:
            self._last_full_scan = time.monotonic()
            self._dirty.clear()
            return None
        hint = sorted(self._dirty)
        self._dirty.clear()
        return hint

    async def forget(
        self,
        ref: str,
        origin: Origin = "cli",
        task: str | None = None,
        expect: str | None = None,
        compact: bool = False,
    ) -> WriteResult:
        """Remove the entry at ``ref`` (``repo:<path>#L<n>``) in its own commit.

        ``expect`` (the entry text meant) refuses a ref whose line now holds
        another entry; ``compact`` then compacts the history (DESIGN.md §5);
        see :meth:`MemoryStore.forget`.

        Raises:
            RefError: bad ref or no entry on that line.
            BlockedError, BusyError: as for writes.
        """
        return await self._run(self._store.forget, ref, origin, task, expect, compact)

    async def undo(self, rev: str, origin: Origin = "cli") -> WriteResult:
        """Revert commit ``rev`` in a new commit; a conflicting revert changes nothing.

        Raises:
            GitError: no such commit, a merge or the first commit, or a conflict.
            BlockedError, BusyError: as for writes.
        """
        return await self._run(self._store.undo, rev, origin)

    async def clear_workspace(self, workspace: str, origin: Origin = "cli", compact: bool = False) -> WriteResult:
        """Delete a workspace's file and index link in one commit, then compact when asked
        (see :meth:`MemoryStore.clear_workspace`)."""
        return await self._run(self._store.clear_workspace, workspace, origin, compact)

    async def clear_global(self, origin: Origin = "cli", compact: bool = False) -> WriteResult:
        """Empty the global memories in one commit, then compact when asked (see :meth:`MemoryStore.clear_global`)."""
        return await self._run(self._store.clear_global, origin, compact)

    async def purge_task(self, task: str, origin: Origin = "cli", compact: bool = False) -> WriteResult:
        """Remove a task's agent entries in one commit, then compact when asked (see :meth:`MemoryStore.purge_task`)."""
        return await self._run(self._store.purge_task, task, origin, compact)

    async def accept(self, ref: str, target: str | None = None, text: str | None = None) -> WriteResult:
        """Move an inbox entry to its suggested file (or ``target``) as the user's (see :meth:`MemoryStore.accept`)."""
        return await self._run(self._store.accept, ref, target, text)

    async def accept_many(self, refs: list[str], target: str | None = None) -> WriteResult:
        """Accept several inbox entries in one commit (see :meth:`MemoryStore.accept_many`)."""
        return await self._run(self._store.accept_many, refs, target)

    async def discard(self, refs: list[str]) -> WriteResult:
        """Remove inbox entries in one commit (see :meth:`MemoryStore.discard_many`)."""
        return await self._run(self._store.discard_many, refs)

    async def suggest(self, entry: EntryView) -> str:
        """The file an inbox entry goes to when accepted."""
        return await self._run(self._store.suggest, entry)

    async def apply_pending(self) -> list[WriteResult]:
        """Apply the writes kept while the work tree was blocked (see :meth:`MemoryStore.apply_pending`)."""
        return await self._run(self._store.apply_pending)

    async def commit_hand_edits(self) -> str | None:
        """Commit files changed by hand as "Hand edits"; returns the commit id or None."""
        return await self._run(self._store.commit_hand_edits, None)

    # -- reads ---------------------------------------------------------

    async def list_files(self) -> list[tuple[str, int]]:
        """Every work-tree file (``.git`` excluded) with its size in bytes, sorted by path."""
        return await self._run(self._store.list_files)

    async def read_file(self, path: str) -> FileView:
        """Read one file with its entries and links (see :meth:`MemoryStore.read_file`).

        Raises:
            RefError: unsafe or missing path.
        """
        return await self._run(self._store.read_file, path)

    async def status(self) -> RepoStatus:
        """Clean, hand-edited or blocked, with the changed paths (full work-tree scan)."""
        return await self._run(self._store.status)

    async def log(self, limit: int = 100, skip: int = 0) -> list[CommitInfo]:
        """Commits from HEAD, newest first, with parsed trailers."""
        return await self._run(self._store.log, limit, skip)

    async def diff(self, rev: str) -> str:
        """The unified diff commit ``rev`` made against its parent.

        Raises:
            GitError: no such commit.
        """
        return await self._run(self._store.diff, rev)

    async def head(self) -> str | None:
        """HEAD's full commit id, or None while HEAD is unborn."""
        return await self._run(self._store.head)

    # -- live changes --------------------------------------------------

    def start_watching(self) -> None:
        """Start the watchfiles stream over the work tree (idempotent).

        Must be called from a running event loop. The stream feeds
        :meth:`changes` subscribers and the hand-edit hints of :meth:`remember`.
        """
        if self._watch_task is None and not self._closed:
            self._watch_task = asyncio.get_running_loop().create_task(
                self._watch(), name=f"memrepo-watch:{self.root}"
            )

    async def _watch(self) -> None:
        self._store.set_watched(True)
        try:
            async for event in watch_changes(self.root, stop_event=self._stop):
                self._dirty.update(event.paths)
                self._store.note_changed(event.paths, git=event.git)
                if event.paths and self.commit_hand_edits_after > 0:
                    self._schedule_quiet_commit()
                for queue in list(self._subscribers):
                    queue.put_nowait(event)
        finally:  # no watcher any more: reads check files again
            self._store.set_watched(False)

    def _schedule_quiet_commit(self) -> None:
        """(Re)start the quiet-period timer; every new change pushes it back."""
        if self._quiet_task is not None:
            self._quiet_task.cancel()
        self._quiet_task = asyncio.get_running_loop().create_task(self._quiet_commit())

    async def _quiet_commit(self) -> None:
        await asyncio.sleep(self.commit_hand_edits_after)
        from .errors import MemrepoError

        try:
            await self._run(self._store.commit_hand_edits)
            self.last_auto_commit_error = None
        except (MemrepoError, OSError) as exc:  # blocked or busy: the next write or quiet period retries
            self.last_auto_commit_error = str(exc)
        except RuntimeError:  # closed meanwhile
            pass

    async def changes(self) -> AsyncIterator[ChangeEvent]:
        """Yield a :class:`ChangeEvent` for each burst of work-tree changes.

        Starts the watcher when needed. Ends when the repo is closed.
        """
        self.start_watching()
        queue: asyncio.Queue[ChangeEvent | None] = asyncio.Queue()
        self._subscribers.append(queue)
        try:
            while True:
                event = await queue.get()
                if event is None:
                    return
                yield event
        finally:
            with contextlib.suppress(ValueError):
                self._subscribers.remove(queue)

    # -- the read path (DESIGN.md §4) ----------------------------------

    async def context(self, workspace: str | None = None) -> ContextBlock:
        """The context block an agent puts in its prompt (DESIGN.md §4).

        Args:
            workspace: the agent's workspace folder (its cwd), name or ``ws-`` id;
                None for MEMORY.md alone.

        Returns:
            ContextBlock: see :meth:`MemoryStore.context`. While the watcher
            runs, a cached block is returned at once, without waiting for the
            worker thread.
        """
        cached = self._store.context_cached(workspace)
        if cached is not None:
            return cached
        return await self._run(self._store.context, workspace)

    async def warm_recall(self) -> None:
        """Build the recall index on a spare thread, so the first search does not wait for it.

        The worker thread stays free for writes and reads meanwhile; the built
        index is handed to it at the end (DESIGN.md §4).
        """
        from .recall import RecallIndex

        def build() -> RecallIndex:
            index = RecallIndex(self.root)
            index.sync()
            return index

        if self._warming is None:
            self._warming = asyncio.get_running_loop().run_in_executor(None, build)
        try:
            index = await asyncio.shield(self._warming)
        except Exception:  # an unreadable folder: recall builds (and reports) on first use instead
            self._warming = None
            raise
        # Every waiter adopts (the first one wins, the rest are no-ops), so a
        # recall queued after this on the worker thread finds the index.
        await self._run(self._store.adopt_recall_index, index)

    async def recall(
        self,
        query: str,
        workspace: str | None = None,
        limit: int = 10,
        max_bytes: int = 16_000,
        detail: str = "line",
    ) -> list[RecallHit]:
        """Search the memory folder; see :meth:`MemoryStore.recall` for the arguments.

        Returns:
            list[RecallHit]: best first; never raises for any query text.
        """
        if self._warming is not None and not self._warming.done():
            with contextlib.suppress(Exception):  # the index being built on a spare thread: use it
                await self.warm_recall()
        return await self._run(
            functools.partial(self._store.recall, query, workspace, limit, max_bytes, detail)
        )

    async def workspaces(self) -> list[WorkspaceInfo]:
        """Every workspace file and the workspace it belongs to; see :meth:`MemoryStore.workspaces`."""
        return await self._run(self._store.workspaces)

    # -- sync (issue 9) ------------------------------------------------

    async def _run_sync(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(store, *args)`` on the sync thread, with its own store.

        Sync waits on the network without the write lock; on its own thread
        it never holds up this repo's reads and writes meanwhile.
        """
        if self._closed:
            raise RuntimeError("the memory repo is closed")
        if getattr(self, "_sync_executor", None) is None:
            self._sync_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memrepo-sync")
            self._sync_store: MemoryStore | None = None

        def call() -> T:
            if self._sync_store is None:
                self._sync_store = MemoryStore.open(self.root, create=False)
            return fn(self._sync_store, *args)

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._sync_executor, call)

    async def sync(self, settings: SyncSettings | None = None) -> SyncResult:
        """Sync with the remote: fetch, fast-forward or merge entry by entry, push (see :func:`engine.sync.sync`).

        Raises:
            SyncError, SyncConflict, UnreachableRemote, BlockedError, BusyError: as :func:`engine.sync.sync`.
        """
        from . import sync as sync_mod

        return await self._run_sync(sync_mod.sync, settings)

    async def sync_state(self) -> SyncState:
        """Remote, ahead/behind and the last sync, without the network (see :func:`engine.sync.sync_state`)."""
        from . import sync as sync_mod

        return await self._run(sync_mod.sync_state, self.root)

    async def conflicts(self) -> list[ConflictView]:
        """Entries a sync merge kept in two versions (see :func:`engine.conflicts.list_conflicts`)."""
        from . import conflicts

        return await self._run(conflicts.list_conflicts, self._store)

    async def resolve_conflict(self, path: str, conflict_id: str, keep: str, origin: Origin = "tui") -> WriteResult:
        """Keep the first, second or both versions of a conflicted entry, in one commit.

        Raises:
            RefError: no such conflict, or no such version (see :func:`engine.conflicts.resolve_conflict`).
            BlockedError, BusyError: as for writes.
        """
        from . import conflicts

        return await self._run(conflicts.resolve_conflict, self._store, path, conflict_id, keep, origin)

    # -- dreams (DESIGN.md §6) -----------------------------------------

    def _dreamer(self, settings: Any = None) -> Any:
        from .config import load_settings
        from .dreamer import Dreamer

        return Dreamer(self._store, settings or getattr(self, "dream_settings", None) or load_settings())

    async def dream(
        self, trigger: str = "manual", provider: str | None = None, if_due: bool = False, settings: Any = None
    ) -> Any:
        """Run one dream: gate and input on the repo's thread, the model call off it, then apply.

        Args:
            trigger: ``manual`` (the app's ``n``, ``memrepo dream``) or ``due``.
            provider: a provider name overriding ``[dream] provider``.
            if_due: also require the interval and something new.
            settings: :class:`~engine.config.Settings`; the ``dream_settings``
                attribute, else the config file, when None.

        Returns:
            DreamRecord: the finished run (``failed`` with a reason when the
            model or its answer failed; nothing changed then).

        Raises:
            DreamSkipped: the gate said no (nothing recorded).
            BusyError: another dream is running.
            ConfigError: an unknown provider or a bad config file.
        """
        from .dreamer import call_model

        dreamer = await self._run(self._dreamer, settings)
        prepared = await self._run(dreamer.prepare, trigger, provider, if_due)
        try:
            reply, error = await asyncio.to_thread(call_model, prepared)
        except BaseException:
            await asyncio.shield(self._run(dreamer.finish, prepared, None, "cancelled"))
            raise
        return await self._run(dreamer.finish, prepared, reply, error)

    async def dreams(self) -> list[Any]:
        """Every dream run, newest first (:class:`~engine.dreamrecord.DreamRecord`)."""
        return await self._run(lambda: self._dreamer().list())

    async def dream_show(self, dream_id: str) -> Any:
        """One dream run by id or unique prefix.

        Raises:
            RefError: no such dream.
        """
        return await self._run(lambda: self._dreamer().show(dream_id))

    async def dream_diff(self, dream_id: str) -> str:
        """The review diff ``base..dream/<id>`` as unified text (empty without a review branch).

        Raises:
            RefError: no such dream.
            GitError: its branch and commit are gone.
        """
        return await self._run(lambda: self._dreamer().diff(dream_id))

    async def accept_dream(self, dream_id: str) -> Any:
        """Merge the dream's review branch into main (``--no-ff``).

        Raises:
            RefError: nothing waits for review.
            DreamConflict: a conflict; main unchanged, the dream is stale.
        """
        return await self._run(lambda: self._dreamer().accept(dream_id))

    async def reject_dream(self, dream_id: str) -> Any:
        """Delete the dream's review branch.

        Raises:
            RefError: nothing waits for review.
        """
        return await self._run(lambda: self._dreamer().reject(dream_id))

    async def undo_dream(self, dream_id: str, origin: Origin = "cli") -> Any:
        """Revert the dream's automatic commit.

        Raises:
            RefError: no automatic commit to undo.
            GitError: it conflicts with later edits to the same lines (nothing changed).
        """
        return await self._run(lambda: self._dreamer().undo(dream_id, origin))

    async def dream_budget_left(self, settings: Any = None) -> int:
        """Tokens left in the rolling 24-hour dream budget."""
        return await self._run(lambda: self._dreamer(settings).budget_left())

    # -- compaction and health (DESIGN.md §5, §9) ----------------------

    async def compact(
        self, progress: Callable[[CompactProgress], None] | None = None, replace_remote: bool = False
    ) -> CompactResult:
        """Replace the history with one commit of the current files (see :meth:`MemoryStore.compact`).

        Args:
            progress: called on the event loop's thread (never the worker's)
                at each step, so a UI can show it directly.
            replace_remote: with a sync remote set, a person confirmed its
                history is replaced afterwards (issue 9 §4).

        Returns:
            CompactResult: the new commit and what was removed.

        Raises:
            BlockedError, BusyError, GitError: as :meth:`MemoryStore.compact`.
        """
        report = None
        if progress is not None:
            loop = asyncio.get_running_loop()

            def report(event: CompactProgress) -> None:
                loop.call_soon_threadsafe(progress, event)

        return await self._run(self._store.compact, report, replace_remote)

    async def compact_preview(self) -> CompactPreview:
        """What :meth:`compact` would take away (for the question asked first)."""
        return await self._run(self._store.compact_preview)

    async def health(
        self,
        watcher_running: bool | None = None,
        last_write_error: str | None = None,
        settings: Settings | None = None,
    ) -> list[HealthRow]:
        """Run the health checks (see :func:`engine.health.check`).

        Args:
            watcher_running: whether the caller's live watcher runs; None
                judges this repo's own watcher (:meth:`start_watching`), or
                says it does not apply when none was started.
            last_write_error: the caller's last failed write, or None.
            settings: for the dreaming rows; defaults when None.

        Returns:
            list[HealthRow]: one row per check.
        """
        from .health import check

        if watcher_running is None and self._watch_task is not None:
            watcher_running = not self._watch_task.done()
        return await self._run(
            lambda: check(self._store, settings=settings, watcher_running=watcher_running,
                          last_write_error=last_write_error)
        )

    # -- retiring workspaces (issue 8) ---------------------------------

    async def all_workspaces(self) -> list[WorkspaceInfo]:
        """Active then archived workspace files (see :meth:`MemoryStore.all_workspaces`)."""
        return await self._run(self._store.all_workspaces)

    async def archive_workspace(self, workspace: str, force: bool = False, origin: Origin = "tui") -> WriteResult:
        """Move a vanished workspace's file to ``archived/`` in one commit (see :meth:`MemoryStore.archive_workspace`).

        Raises:
            RefError: no such workspace; MemrepoError: its folder still exists (without ``force``).
        """
        return await self._run(self._store.archive_workspace, workspace, force, origin)

    async def restore_workspace(self, workspace: str, origin: Origin = "tui") -> WriteResult:
        """Bring an archived workspace's file back in one commit (see :meth:`MemoryStore.restore_workspace`)."""
        return await self._run(self._store.restore_workspace, workspace, origin)

    async def purge_workspace(
        self, workspace: str, origin: Origin = "tui", replace_remote: bool = False
    ) -> WriteResult:
        """Delete a workspace's file and compact (see :meth:`MemoryStore.purge_workspace`).

        Raises:
            RefError: no such workspace; SyncError: a sync remote is set and ``replace_remote`` is False.
        """
        return await self._run(self._store.purge_workspace, workspace, origin, replace_remote)

    # -- checkpoints (issue 7, DESIGN.md §7) ------------------------------

    def checkpointer(self, clock: Callable[[], float] | None = None) -> Any:
        """This repo's :class:`engine.checkpoint.Checkpointer` (made once; ``clock`` only counts the first time)."""
        from .checkpoint import Checkpointer

        if getattr(self, "_checkpointer", None) is None:
            self._checkpointer = Checkpointer(self._store.state_dir, clock)
        return self._checkpointer

    async def checkpoint(
        self,
        session_id: str,
        cwd: str | None,
        messages: list[Any],
        event: str = "turn",
        untrusted: bool = False,
        settings: Settings | None = None,
        origin: Origin = "agent_tool",
        wait: bool = True,
    ) -> Any:
        """Buffer an agent's completed messages; distil the stage when it is eligible (DESIGN.md §7).

        The buffering runs on the worker thread; a distillation's model call
        runs on a spare thread, so reads and writes go on meanwhile and
        messages arriving meanwhile stay pending.

        Args:
            session_id: the agent session.
            cwd: its working folder (None: global scope).
            messages: :class:`engine.checkpoint.Message` objects or dicts.
            event: ``turn``, ``task_end``, ``session_close`` or ``force``.
            untrusted: the session read untrusted content (its writes go to the inbox).
            settings: the dream provider's settings; defaults when None.
            origin: the ``Origin:`` trailer of the commits.
            wait: False returns as soon as the messages are buffered and
                distils in the background (:meth:`checkpoint_idle` and
                :meth:`close` wait for it).

        Returns:
            CheckpointResult: never raises; ``failed`` carries the reason.
        """
        from .checkpoint import (
            DRAIN_EVENTS,
            MAX_DRAIN_ROUNDS,
            Checkpointer,
            CheckpointResult,
            combine,
            copy_counts,
            distil,
            merge_or_release,
        )
        from .config import Settings as _Settings

        cp: Checkpointer = self.checkpointer()
        cfg = settings or _Settings()
        try:
            result, claim = await self._run(cp.submit, session_id, cwd, messages, event, untrusted)
        except Exception as exc:
            return CheckpointResult(status="failed", reason=" ".join(str(exc).split())[:300] or type(exc).__name__)
        if claim is None:
            return result

        async def finish() -> CheckpointResult:
            done = await finish_one(claim)
            copy_counts(result, done)
            rounds = 1  # force and session close distil every pending batch, bounded
            while event in DRAIN_EVENTS and done.status != "failed" and done.pending and rounds < MAX_DRAIN_ROUNDS:
                try:
                    _more, more_claim = await self._run(cp.submit, session_id, cwd, [], event, untrusted)
                except Exception:
                    break
                if more_claim is None:
                    break
                combine(done, await finish_one(more_claim))
                rounds += 1
            return done

        async def finish_one(claim: Any) -> CheckpointResult:
            try:
                await self._run(cp.prepare, self._store, claim)
                output, reason = await asyncio.get_running_loop().run_in_executor(None, distil, claim, cfg)
            except Exception as exc:
                output, reason = None, f"{type(exc).__name__}: {exc}"[:300]
            return await self._run(merge_or_release, self._store, cp, claim, output, reason, origin)

        if wait:
            return await finish()
        task = asyncio.ensure_future(finish())
        self._checkpoint_tasks = getattr(self, "_checkpoint_tasks", set())
        self._checkpoint_tasks.add(task)
        task.add_done_callback(self._checkpoint_tasks.discard)
        result.status = "distilling"
        return result

    async def checkpoint_idle(self, settings: Settings | None = None, origin: Origin = "agent_tool") -> list[Any]:
        """Distil every scope idle for 5 minutes (a watcher tick, DESIGN.md §7); waits for background ones too.

        Returns:
            list[CheckpointResult]: one per stage distilled; never raises.
        """
        from .checkpoint import distil, merge_or_release
        from .config import Settings as _Settings

        cp = self.checkpointer()
        cfg = settings or _Settings()
        running = list(getattr(self, "_checkpoint_tasks", set()))
        if running:
            await asyncio.gather(*running, return_exceptions=True)
        out = []
        try:
            scopes = await self._run(cp.due_scopes)
        except Exception:
            return out
        for scope in scopes:
            try:
                claim = await self._run(cp.claim_idle, scope)
                if claim is None:
                    continue
                await self._run(cp.prepare, self._store, claim)
                output, reason = await asyncio.get_running_loop().run_in_executor(None, distil, claim, cfg)
            except Exception:
                continue
            out.append(await self._run(merge_or_release, self._store, cp, claim, output, reason, origin))
        return out

    async def forget_session(self, session_id: str, origin: Origin = "cli") -> int:
        """Forget a session: delete its buffered messages and the entries it wrote (DESIGN.md §7).

        The session is tombstoned first, so a distillation of it already queued
        or running writes nothing; then the ``by: agent`` entries carrying
        ``task: <session_id>`` are removed (:meth:`MemoryStore.purge_task`).

        Returns:
            int: buffered messages deleted.

        Raises:
            BlockedError, BusyError: as for writes (the buffer is already gone).
        """
        cp = self.checkpointer()
        removed = await self._run(cp.forget_session, session_id)
        await self._run(self._store.purge_task, session_id, origin)
        return removed
