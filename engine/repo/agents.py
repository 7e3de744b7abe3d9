"""The async repo's sync, compaction, dreams and checkpoints (docs/architecture.md §5, §6, §7), typed end to end.

Split from :mod:`memrepo.engine.repo.repo` by concern: these run flows
(:mod:`memrepo.engine.flow`) or a thread of their own, and hand typed results
(:class:`~memrepo.engine.dreams.record.DreamRecord`,
:class:`~memrepo.engine.checkpoints.types.CheckpointResult`) to the app and the
MCP server.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memrepo.engine.checkpoints.checkpoint import Checkpointer
from memrepo.engine.checkpoints.flow import checkpoint_flow, idle_flow
from memrepo.engine.checkpoints.types import CheckpointResult, Message
from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.models import CompactProgress, CompactResult, ConflictView, Origin, WriteResult
from memrepo.engine.sync import conflicts as conflicts_mod
from memrepo.engine.sync import sync as sync_mod

from .base import RepoBase, dreamer_method, store_method

if TYPE_CHECKING:
    from memrepo.engine.config import SyncSettings
    from memrepo.engine.dreams.record import DreamRecord
    from memrepo.engine.models import SyncResult, SyncState


def _on_loop(progress: Callable[[CompactProgress], None] | None) -> Callable[[CompactProgress], None] | None:
    """``progress`` called on the running event loop's thread, whichever thread reports."""
    if progress is None:
        return None
    loop = asyncio.get_running_loop()

    def report(event: CompactProgress) -> None:
        loop.call_soon_threadsafe(progress, event)

    return report


class RepoAgents(RepoBase):
    """Sync, compaction, dreams and checkpoints of an open repo (see :class:`~memrepo.engine.repo.repo.MemoryRepo`)."""

    # -- compaction (docs/architecture.md §5) ------------------------------------

    async def compact(
        self, progress: Callable[[CompactProgress], None] | None = None, replace_remote: bool = False
    ) -> CompactResult:
        """Replace the history with one commit of the current files (see :meth:`MemoryStore.compact`).

        Args:
            progress: called on the event loop's thread (never the worker's)
                at each step, so a UI can show it directly.
            replace_remote: with a sync remote set, a person confirmed its
                history is replaced afterwards.

        Returns:
            CompactResult: the new commit and what was removed.

        Raises:
            BlockedError, BusyError, GitError: as :meth:`MemoryStore.compact`.
        """
        return await self._run(self._store.compact, _on_loop(progress), replace_remote)

    async def purge_workspace(
        self,
        workspace: str,
        origin: Origin = "cli",
        replace_remote: bool = False,
        progress: Callable[[CompactProgress], None] | None = None,
    ) -> WriteResult:
        """Delete a workspace's file and compact (see :meth:`MemoryStore.purge_workspace`).

        ``progress`` is called on the event loop's thread, as for :meth:`compact`.

        Raises:
            RefError: no such workspace; SyncError: a sync remote is set and ``replace_remote`` is False.
        """
        return await self._run(self._store.purge_workspace, workspace, origin, replace_remote, _on_loop(progress))

    # -- sync --------------------------------------------------------------

    async def sync(self, settings: SyncSettings | None = None) -> SyncResult:
        """Sync with the remote: fetch, fast-forward or merge entry by entry, push (:func:`memrepo.engine.sync.sync.sync`).

        Runs on the sync thread with its own store, so reads and writes go on meanwhile.

        Args:
            settings: ``[sync]`` settings; the repo's own when None.

        Raises:
            SyncError, SyncConflict, UnreachableRemote, BlockedError, BusyError: as :func:`memrepo.engine.sync.sync.sync`.
        """
        return await self._run_sync(sync_mod.sync, settings)

    async def sync_state(self) -> SyncState:
        """Remote, ahead/behind and the last sync, without the network (:func:`memrepo.engine.sync.sync.sync_state`)."""
        return await self._run(sync_mod.sync_state, self.root)

    async def conflicts(self, paths: list[str] | None = None) -> list[ConflictView]:
        """Every entry kept in two versions by a sync merge (:func:`memrepo.engine.sync.conflicts.conflicts_in`).

        Read on a spare thread: it reads work files only, and at 20,000 files a read of all of them
        took seconds on the worker thread, holding up the hand edit the app was about to show.
        """
        if self._closed:
            raise RuntimeError("the memory repo is closed")
        root = self.root
        return await self._spare(lambda: conflicts_mod.conflicts_in(root, paths))

    resolve_conflict = store_method(conflicts_mod.resolve_conflict)

    # -- dreams (docs/architecture.md §6) ------------------------------------

    async def dream(self, trigger: str = "manual", provider: str | None = None, if_due: bool = False) -> DreamRecord:
        """Run one dream (:meth:`Dreamer.flow`): gate and input on the repo's thread, the model call off it, then apply.

        Args:
            trigger: ``manual`` (the app's ``n``, ``memrepo dream``) or ``due``.
            provider: a provider name overriding ``[dream] provider``.
            if_due: also require the interval and something new.

        Returns:
            DreamRecord: the finished run (``failed`` with a reason when the
            model or its answer failed; nothing changed then).

        Raises:
            DreamSkipped: the gate said no (nothing recorded).
            BusyError: another dream is running.
            ConfigError: an unknown provider.
        """
        return await self._drive(Dreamer(self._store).flow(trigger, provider, if_due))

    dreams = dreamer_method(Dreamer.list)
    dream_show = dreamer_method(Dreamer.show)
    dream_diff = dreamer_method(Dreamer.diff)
    accept_dream = dreamer_method(Dreamer.accept)
    reject_dream = dreamer_method(Dreamer.reject)
    undo_dream = dreamer_method(Dreamer.undo)
    dream_budget_left = dreamer_method(Dreamer.budget_left)
    dream_records_stamp = dreamer_method(Dreamer.records_stamp)
    dream_leftovers = dreamer_method(Dreamer.leftovers)
    killed_dreams = dreamer_method(Dreamer.killed)
    clean_dream_leftovers = dreamer_method(Dreamer.clean_leftovers)

    # -- checkpoints (docs/architecture.md §7) ---------------------------------

    def checkpointer(self, clock: Callable[[], float] | None = None) -> Checkpointer:
        """This repo's :class:`~memrepo.engine.checkpoints.checkpoint.Checkpointer` (made once; ``clock`` only counts the first time)."""
        if self._checkpointer is None:
            self._checkpointer = Checkpointer(self._store.state_dir, clock)
        return self._checkpointer

    async def checkpoint(
        self,
        session_id: str,
        cwd: str | None,
        messages: list[Message | dict[str, Any]],
        event: str = "turn",
        untrusted: bool = False,
        origin: Origin = "agent_tool",
        wait: bool = True,
        transcript: bool = False,
    ) -> CheckpointResult:
        """Buffer an agent's completed messages; distil the stage when it is eligible (the one checkpoint flow).

        The buffering runs on the worker thread; a distillation's model call
        runs on a spare thread, so reads and writes go on meanwhile and
        messages arriving meanwhile stay pending. The ``[dream]`` provider is
        the repo's settings'.

        Args:
            session_id: the agent session.
            cwd: its working folder (None: global scope).
            messages: :class:`~memrepo.engine.checkpoints.types.Message` objects or dicts.
            event: ``turn``, ``task_end``, ``session_close`` or ``force``.
            untrusted: the session read untrusted content (its writes go to the inbox).
            origin: the ``Origin:`` trailer of the commits.
            wait: False returns as soon as the messages are buffered (status
                ``distilling`` when a batch was claimed) and distils in the
                background (:meth:`checkpoint_idle` waits for it).
            transcript: the messages were read from the harness's own transcript, so the user's own
                "remember that ..." is written ``by: user`` (see :meth:`Checkpointer.submit`).

        Returns:
            CheckpointResult: never raises; ``failed`` carries the reason.
        """
        loop = asyncio.get_running_loop()
        early: asyncio.Future[CheckpointResult] = loop.create_future()

        def submitted(result: CheckpointResult) -> None:
            if not early.done():
                early.set_result(result.model_copy(update={"status": "distilling"}))

        flow = checkpoint_flow(
            self._store,
            self.checkpointer(),
            self._store.settings,
            session_id,
            cwd,
            messages,
            event,
            untrusted,
            origin,
            None if wait else submitted,
            transcript,
        )
        if wait:
            return await self._drive(flow)
        task = asyncio.ensure_future(self._drive(flow))
        self._checkpoint_tasks.add(task)
        task.add_done_callback(self._checkpoint_tasks.discard)
        await asyncio.wait({early, task}, return_when=asyncio.FIRST_COMPLETED)
        if early.done():
            return early.result()
        early.cancel()
        return task.result()

    async def checkpoint_idle(self, origin: Origin = "agent_tool") -> list[CheckpointResult]:
        """Distil every scope idle for 5 minutes (a watcher tick, docs/architecture.md §7); waits for background ones first.

        A batch whose preparation or distillation fails is released at once
        (its messages stay pending) and logged, like every other checkpoint.

        Returns:
            list[CheckpointResult]: one per stage distilled; never raises.
        """
        running = list(self._checkpoint_tasks)
        if running:
            await asyncio.gather(*running, return_exceptions=True)
        return await self._drive(idle_flow(self._store, self.checkpointer(), self._store.settings, origin))

    async def forget_session(self, session_id: str, origin: Origin = "cli") -> int:
        """Forget a session: delete its buffered messages and the entries it wrote (docs/architecture.md §7).

        The session is tombstoned first, so a distillation of it already queued
        or running writes nothing; then the ``by: agent`` entries carrying
        ``task: <session_id>`` are removed, and the user's statements its
        checkpoint wrote (:meth:`MemoryStore.purge_task`).

        Returns:
            int: buffered messages deleted.

        Raises:
            BlockedError, BusyError: as for writes (the buffer is already gone).
        """
        removed = await self._run(self.checkpointer().forget_session, session_id)
        await self._run(self._store.purge_task, session_id, origin)
        return removed
