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
    EntryView,
    FileView,
    Origin,
    RepoStatus,
    WriteResult,
)
from .store import MemoryStore
from .watch import watch_changes

if TYPE_CHECKING:
    from .config import Settings
    from .health import HealthRow

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

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        create: bool = True,
        origin: Origin = "cli",
        agent_to_inbox: bool = False,
    ) -> MemoryRepo:
        """Open (or create with the starting layout) the memory repo at ``path``.

        Args:
            path: the repo folder.
            create: create it when missing or empty.
            origin: ``Origin:`` trailer for the "Create memory repo" commit.
            agent_to_inbox: send every agent write to the inbox (the
                ``[writes] agent_to_inbox`` setting, DESIGN.md §11).

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
        return cls(executor, store)

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
        if self._watch_task is not None:
            self._watch_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._watch_task
        for queue in self._subscribers:
            queue.put_nowait(None)
        self._closed = True
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self._executor.shutdown, True)

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
        async for event in watch_changes(self.root, stop_event=self._stop):
            self._dirty.update(event.paths)
            for queue in list(self._subscribers):
                queue.put_nowait(event)

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

    # -- compaction and health (DESIGN.md §5, §9) ----------------------

    async def compact(self, progress: Callable[[CompactProgress], None] | None = None) -> CompactResult:
        """Replace the history with one commit of the current files (see :meth:`MemoryStore.compact`).

        Args:
            progress: called on the event loop's thread (never the worker's)
                at each step, so a UI can show it directly.

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

        return await self._run(self._store.compact, report)

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
