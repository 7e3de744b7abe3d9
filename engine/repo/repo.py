"""The awaitable memory repo: the engine's public surface (docs/architecture.md §1).

Every method awaits the repo's worker thread (:mod:`memrepo.engine.repo.base`)
and never blocks the caller's event loop. Most are made from the
:class:`MemoryStore` method they wrap (:func:`~memrepo.engine.repo.base.store_method`),
so their parameters and results cannot drift from it; the rest (writes that
return early, the watcher, the caches, progress reports) are written here and
compared with what they wrap by ``tests/core/test_repo_facade.py``. Sync,
dreams and checkpoints live in :mod:`memrepo.engine.repo.agents`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING

from memrepo.engine.errors import MemrepoError
from memrepo.engine.format.layout import PENDING_DIR
from memrepo.engine.models import (
    Candidate,
    ChangeEvent,
    ContextBlock,
    Origin,
    RecallHit,
    WriteResult,
)
from memrepo.engine.read.readstamps import Fingerprint
from memrepo.engine.read.recall import RecallIndex

from .agents import RepoAgents
from .base import ignore_result, store_method
from .indexfollow import IndexFollower
from .store import MemoryStore
from .watch import WatchMode, watch_changes

if TYPE_CHECKING:
    import threading

    from memrepo.engine.config import Settings
    from memrepo.engine.read.recalldoor import RecallDoor

    from .health import HealthRow

__all__ = ["FULL_SCAN_EVERY_S", "MemoryRepo"]

log = logging.getLogger("memrepo.repo")

RECONCILE_SLICE = 250
"""Files a reconciliation hashes in one job of the worker thread (a few ms; see :meth:`MemoryRepo._reconcile`)."""
RECONCILE_EVERY_S = 3.0
"""While the watcher runs, the memory files' stat and content hash are checked this often (seconds)."""
HASH_EVERY = 10
"""A reconciliation pass hashes every file whose stat moved and one in this many of the others."""
WARM_WAIT_STEPS = 10
"""The first reconciliation waits up to this many 50 ms steps for a recall warm-up to start, then for it to end."""
FULL_SCAN_EVERY_S = 30.0
"""While the watcher feeds hand-edit hints, still scan the whole work tree this often (seconds),
so an edit made before the watcher started is never missed for long."""
QUIET_MAX_S = 30.0
"""Longest a burst of changes holds back the quiet-period commit of hand edits (seconds from its first change)."""


class MemoryRepo(RepoAgents):
    """An open memory repo with an async API.

    Create it with ``await MemoryRepo.open(path, settings)``; close it with
    ``await repo.close()`` or ``async with``.

    Attributes:
        root: the work tree's absolute path.
        commit_hand_edits_after: seconds of quiet before the watcher commits
            hand edits; 0 = only before writes (``[writes]``, docs/architecture.md §4).
        last_auto_commit_error: why the last quiet-period commit of hand edits
            did not happen (blocked, busy), or None.
    """

    def __init__(self, executor: ThreadPoolExecutor, store: MemoryStore) -> None:
        super().__init__(executor, store)
        self.state_dir = store.state_dir
        """The engine's own state folder, ``.git/memrepo/`` (the secrets allow-list lives there)."""
        self._dirty: set[str] = set()
        # -inf, not 0.0: the monotonic clock starts near 0 at boot, and the
        # first write after the watcher starts must scan everything.
        self._last_full_scan = float("-inf")
        self.commit_hand_edits_after = 0.0
        self._burst_started = 0.0
        self._warming: asyncio.Future[RecallIndex] | None = None
        self.last_auto_commit_error: str | None = None
        self._follow = IndexFollower(self.root, self._stop.is_set)  # hand edits into the recall index (§4)

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        settings: Settings,
        create: bool = True,
        origin: Origin = "cli",
        *,
        commit_hand_edits: bool = False,
    ) -> MemoryRepo:
        """Open (or create with the starting layout) the memory repo at ``path``.

        Args:
            path: the repo folder.
            settings: the settings the front end loaded once (docs/architecture.md §11);
                ``[writes] agent_to_inbox`` routes agent writes.
            create: create it when missing or empty.
            origin: ``Origin:`` trailer for the "Create memory repo" commit.
            commit_hand_edits: while the watcher runs, commit hand edits once
                the files have been quiet ``[writes] commit_hand_edits_after``
                seconds (the app does; 0 there means only before a write,
                docs/architecture.md §4).

        Returns:
            MemoryRepo: the open repo, with its worker thread running.

        Raises:
            PathRuleError: the path breaks a rule of docs/architecture.md §2.
            GitError: libgit2 could not open or create it.
        """
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memrepo-git")
        loop = asyncio.get_running_loop()
        try:
            store = await loop.run_in_executor(executor, MemoryStore.open, path, settings, create, origin)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        repo = cls(executor, store)
        store.use_semantic()  # a long-running process: recall is hybrid when a model is there (§4)
        if commit_hand_edits:
            repo.commit_hand_edits_after = max(0.0, float(settings.writes.commit_hand_edits_after))
        return repo

    async def __aenter__(self) -> MemoryRepo:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- writes --------------------------------------------------------

    async def remember(self, cand: Candidate, *, keep_if_git_busy: bool = False) -> WriteResult:
        """Save a memory through the governed writer (docs/architecture.md §3).

        While the watcher runs (:meth:`start_watching`), only the files it
        saw change are checked for hand edits, plus the target file and
        MEMORY.md, with a full scan at least every 30 s; otherwise the whole
        work tree is scanned before the write.

        The result comes back as soon as the commit exists; the index update
        that keeps ``git status`` clean finishes right after on the worker
        thread, still under the write lock, before any later call runs.

        Args:
            cand: the candidate.
            keep_if_git_busy: as :meth:`MemoryStore.remember` (``memory_remember`` beside ``git commit -a``).

        Returns:
            WriteResult: see :meth:`MemoryStore.remember`.

        Raises:
            BlockedError, BusyError, GitError: as :meth:`MemoryStore.remember`.
        """
        hint = self._take_hint()
        loop = asyncio.get_running_loop()
        early: asyncio.Future[WriteResult] = loop.create_future()

        def hand_out(result: WriteResult) -> None:
            if not early.done():
                early.set_result(result)

        def committed(result: WriteResult) -> None:  # on the worker thread
            loop.call_soon_threadsafe(hand_out, result)

        try:
            write = partial(self._store.remember, keep_if_git_busy=keep_if_git_busy)
            work = asyncio.ensure_future(self._run(write, cand, hint, committed))
            await asyncio.wait({early, work}, return_when=asyncio.FIRST_COMPLETED)
            if work.done() or not early.done():
                early.cancel()
                return work.result()
            # The index update runs on; the store keeps a failure to retry it.
            work.add_done_callback(ignore_result)
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

    forget = store_method(MemoryStore.forget)
    recall_mode = store_method(MemoryStore.recall_mode)
    undo = store_method(MemoryStore.undo)
    clear_workspace = store_method(MemoryStore.clear_workspace)
    clear_global = store_method(MemoryStore.clear_global)
    purge_task = store_method(MemoryStore.purge_task)
    accept = store_method(MemoryStore.accept)
    accept_many = store_method(MemoryStore.accept_many)
    discard = store_method(MemoryStore.discard_many)
    pin = store_method(MemoryStore.pin)
    suggest = store_method(MemoryStore.suggest)
    apply_pending = store_method(MemoryStore.apply_pending)
    commit_hand_edits = store_method(MemoryStore.commit_hand_edits)
    answer_hand_edit = store_method(MemoryStore.answer_hand_edit)

    # -- reads ---------------------------------------------------------

    list_files = store_method(MemoryStore.list_files)
    file_sizes = store_method(MemoryStore.file_sizes)
    read_file = store_method(MemoryStore.read_file)
    status = store_method(MemoryStore.status)
    log = store_method(MemoryStore.log)
    diff = store_method(MemoryStore.diff)
    diff_start = store_method(MemoryStore.diff_start)
    head = store_method(MemoryStore.head)
    workspaces = store_method(MemoryStore.workspaces)
    workspace_files = store_method(MemoryStore.workspace_files)
    workspace_of_folder = store_method(MemoryStore.workspace_of_folder)
    other_workspace_files = store_method(MemoryStore.other_workspace_files)
    all_workspaces = store_method(MemoryStore.all_workspaces)
    archive_workspace = store_method(MemoryStore.archive_workspace)
    restore_workspace = store_method(MemoryStore.restore_workspace)
    compact_preview = store_method(MemoryStore.compact_preview)

    # -- live changes --------------------------------------------------

    def start_watching(self) -> None:
        """Start the watchfiles stream over the work tree (idempotent).

        Must be called from a running event loop. The stream feeds
        :meth:`changes` subscribers and the hand-edit hints of :meth:`remember`.
        """
        if self._watch_task is None and not self._closed:
            self._watch_task = asyncio.get_running_loop().create_task(self._watch(), name=f"memrepo-watch:{self.root}")
            if self.commit_hand_edits_after > 0:
                self._schedule_quiet_commit()  # hand edits made before the watcher started wait for it too
            elif any((self._store.state_dir / PENDING_DIR).glob("*.json")):
                self._apply_kept_soon()  # writes kept by an earlier process, its block gone meanwhile

    @property
    def watch_mode(self) -> WatchMode:
        """How the watcher watches: ``polling`` names why it polls instead of watching natively (or None)."""
        return self._watch_mode

    async def _watch(self) -> None:
        self._store.set_watched(True)
        reconciler = asyncio.get_running_loop().create_task(self._reconcile())
        try:
            async for event in watch_changes(
                self.root, stop_event=self._stop, mode=self._watch_mode, on_armed=self._store.set_armed
            ):
                self._on_change(event)
        finally:  # no watcher any more: reads check files again
            reconciler.cancel()
            self._store.set_watched(False)

    def _on_change(self, event: ChangeEvent) -> None:
        self._dirty.update(event.paths)
        self._follow.note(event.paths)
        self._store.note_changed(event.paths, git=event.git)
        # A git state change may end a block (index.lock gone, a merge done): kept writes then apply.
        kept = event.git and any((self._store.state_dir / PENDING_DIR).glob("*.json"))
        if (event.paths or kept) and self.commit_hand_edits_after > 0:
            self._schedule_quiet_commit()
        elif kept:  # no quiet-period commit here (the MCP server, watch): apply them now, as a write would
            self._apply_kept_soon()
        for queue in list(self._subscribers):
            queue.put_nowait(event)

    async def _reconcile(self) -> None:
        """Every few seconds, catch what events missed (docs/architecture.md §4): stat and content hash.

        Each pass stats every file and hashes those whose stat moved, and a
        tenth of the others in turn (:data:`HASH_EVERY`): a change that moved
        no stat (a coarse FUSE or exFAT clock) is still found, within ten
        passes. Hashing all of them each pass kept a core 60% busy at 20,000
        files (1.7 s of reading every 3 s), and the first pass, which only
        records, held up the first search (it now only stats).
        """
        passes = 0
        loop = asyncio.get_running_loop()
        # The first record is the recall index's own walk when a warm-up runs (adopted with the index):
        # a second walk beside it slowed the first search (20,000 files: the MCP server's first recall
        # 0.9 s), and a record taken later would take in, unseen, an edit events missed in between.
        # Without a warm-up the first pass records at once, stat only.
        for _ in range(WARM_WAIT_STEPS):  # a warm-up asked for with the watcher starts within a few turns
            if self._warming is not None:
                await asyncio.wait({self._warming})
                with contextlib.suppress(RuntimeError):
                    await self._run(lambda: None)  # after the adoption queued on the worker thread
                break
            await asyncio.sleep(0.05)
        if self._store.reconcile_recorded():
            await asyncio.sleep(RECONCILE_EVERY_S)
        while not self._stop.is_set():
            try:
                # The walk and the stats (and hashes) touch no git object and no state the worker
                # thread changes (the last pass's fingerprints are replaced whole, never edited):
                # they run on a spare thread, in slices, so the worker thread stays free for the
                # first status and recall; only the comparison runs on the worker thread.
                files = await loop.run_in_executor(None, self._store.reconcile_files)
                rehash = frozenset(files[passes % HASH_EVERY :: HASH_EVERY])
                passes += 1
                now: dict[str, Fingerprint] = {}
                for start in range(0, len(files), RECONCILE_SLICE):
                    if self._stop.is_set():
                        return
                    now.update(
                        await loop.run_in_executor(
                            None, self._store.reconcile_fingerprints, files[start : start + RECONCILE_SLICE], rehash
                        )
                    )
                changed = await self._run(self._store.reconcile_with, now)
            except RuntimeError:  # closed
                return
            except (MemrepoError, OSError) as exc:
                log.info("reconciliation failed: %s", exc)
                changed = []
            if changed:
                log.info("reconciliation found changes no event reported: %s", changed)
                self._on_change(ChangeEvent(paths=changed, git=False))
            await asyncio.sleep(RECONCILE_EVERY_S)

    def _schedule_quiet_commit(self) -> None:
        """(Re)start the quiet-period timer; every new change pushes it back, to :data:`QUIET_MAX_S` after the
        burst's first change at most (a file edited every second, by a script or an editor's autosave,
        never left the quiet period and was never committed)."""
        loop = asyncio.get_running_loop()
        if self._quiet_task is not None and not self._quiet_task.done():
            self._quiet_task.cancel()
        else:
            self._burst_started = loop.time()
        left = self._burst_started + QUIET_MAX_S - loop.time()
        self._quiet_task = loop.create_task(self._quiet_commit(max(0.0, min(self.commit_hand_edits_after, left))))

    async def _quiet_commit(self, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await self._said_if_moved(lambda: self._store.commit_hand_edits(None, True))  # staged ones are left
            self.last_auto_commit_error = None
        except (MemrepoError, OSError) as exc:  # blocked or busy: the next write or quiet period retries
            self.last_auto_commit_error = str(exc)
            log.info("hand edits not committed after the quiet period: %s", exc)
        except RuntimeError:  # closed meanwhile
            log.debug("the repo closed before the quiet-period commit")

    def _apply_kept_soon(self) -> None:
        """Apply the writes kept while blocked on the worker thread, unless that is under way already."""
        if self._quiet_task is None or self._quiet_task.done():
            self._quiet_task = asyncio.get_running_loop().create_task(self._apply_kept())

    async def _apply_kept(self) -> None:
        try:  # a write: hand edits are committed first, as before any write (docs/architecture.md §3)
            await self._said_if_moved(self._store.apply_pending)
        except (MemrepoError, OSError) as exc:  # still blocked, or busy: the next git event or write retries
            log.info("writes kept while blocked not applied yet: %s", exc)
        except RuntimeError:  # closed meanwhile
            log.debug("the repo closed before the kept writes were applied")

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

    # -- the read path (docs/architecture.md §4) ----------------------------------

    async def context(self, workspace: str | None = None) -> ContextBlock:
        """The context block an agent puts in its prompt (docs/architecture.md §4).

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
        index is handed to it at the end (docs/architecture.md §4).
        """

        from .warmrecall import start_warming

        if self._warming is None:
            warming = self._warming = start_warming(self.root)  # never holds up the exit (B17-4)
            self._store.build_elsewhere = lambda _files: not warming.done()  # recall scans the files meanwhile
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
        min_confidence: float | None = None,
        related: bool = False,
        reviewed: bool = False,
    ) -> list[RecallHit]:
        """Search the memory folder; see :meth:`MemoryStore.recall` for the arguments.

        Returns:
            list[RecallHit]: best first; never raises for any query text.
        """
        # While the index is built on a spare thread, recall answers from a scan of the files
        # (docs/architecture.md §4): it never waits for the build.
        args = (query, workspace, limit, max_bytes, detail, min_confidence, related, reviewed)
        return await self._run(self._store.recall, *args)

    def open_recall_door(self, via: str, after: threading.Event | None = None) -> RecallDoor | None:
        """Answer new processes' recall with this process's warm model; see :meth:`MemoryStore.open_recall_door`."""
        return self._store.open_recall_door(via, after)

    # -- health (docs/architecture.md §9) ------------------------------------------

    async def health(
        self, *, watcher_running: bool | None = None, last_write_error: str | None = None
    ) -> list[HealthRow]:
        """Run the health checks with the repo's settings (see :func:`memrepo.engine.repo.health.check`).

        Args:
            watcher_running: whether the caller's live watcher runs; None
                judges this repo's own watcher (:meth:`start_watching`), or
                says it does not apply when none was started.
            last_write_error: the caller's last failed write, or None.

        Returns:
            list[HealthRow]: one row per check.
        """
        from .health import check

        polling = None
        if watcher_running is None and self._watch_task is not None:
            watcher_running = not self._watch_task.done()
            polling = self._watch_mode
        return await self._run(
            lambda: check(
                self._store, watcher_running=watcher_running, last_write_error=last_write_error, polling=polling
            )
        )
