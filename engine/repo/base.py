"""The async repo's threads, and the wrappers that make its methods from the sync functions (docs/architecture.md §1).

pygit2 calls block, so each repo owns one worker thread that runs all of its
git and file work in order; the :class:`MemoryStore` and its pygit2 repository
are created on that thread and used only there. A flow
(:mod:`memrepo.engine.flow`) runs its store steps there and its model call on
a spare thread; a sync runs on a thread of its own with its own store.

The async façade cannot drift from what it wraps: :func:`store_method` and
:func:`dreamer_method` make an awaitable method from a sync one, typed with
its exact parameters (``ParamSpec``/``Concatenate``) and carrying its
signature and docstring; the few methods written by hand are compared with
the function they wrap by ``tests/core/test_repo_facade.py``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.flow import Flow, drive
from memrepo.engine.models import ChangeEvent

from .store import MemoryStore
from .watch import WatchMode

if TYPE_CHECKING:
    from memrepo.engine.checkpoints.checkpoint import Checkpointer
    from memrepo.engine.config import Settings

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")

log = logging.getLogger("memrepo.repo")

Method = Callable[Concatenate["RepoBase", P], Coroutine[Any, Any, R]]
"""An async method of the repo taking the parameters ``P`` and returning ``R``."""


def store_method(fn: Callable[Concatenate[MemoryStore, P], R]) -> Method[P, R]:
    """The awaitable method that runs ``fn(store, ...)`` on the repo's worker thread.

    A :class:`MemoryStore` method is looked up on the store at each call (so a
    subclass or a test's patch of it counts); a function taking the store
    first is called as it is.

    Args:
        fn: a :class:`MemoryStore` method, or a function taking the store first.

    Returns:
        an ``async`` method with ``fn``'s parameters, result, name and docstring.
    """
    name = fn.__name__
    is_method = getattr(MemoryStore, name, None) is fn

    @functools.wraps(fn)
    async def method(self: RepoBase, /, *args: P.args, **kwargs: P.kwargs) -> R:
        store = self._store
        call: Callable[..., R] = getattr(store, name) if is_method else functools.partial(fn, store)
        return await self._run(functools.partial(call, *args, **kwargs))

    return method


def dreamer_method(fn: Callable[Concatenate[Dreamer, P], R]) -> Method[P, R]:
    """The awaitable method that runs the :class:`Dreamer` method ``fn`` on the repo's worker thread."""
    name = fn.__name__

    @functools.wraps(fn)
    async def method(self: RepoBase, /, *args: P.args, **kwargs: P.kwargs) -> R:
        def call() -> R:
            bound: Callable[P, R] = getattr(Dreamer(self._store), name)
            return bound(*args, **kwargs)

        return await self._run(call)

    return method


def ignore_result(future: asyncio.Future[Any]) -> None:
    """Consume the outcome of work whose result was already handed out."""
    if not future.cancelled():
        future.exception()


class RepoBase:
    """The threads and lifetime of an open repo; :class:`~memrepo.engine.repo.repo.MemoryRepo` adds the API.

    Attributes:
        root: the work tree's absolute path.
    """

    def __init__(self, executor: ThreadPoolExecutor, store: MemoryStore) -> None:
        self._executor = executor
        self._store = store
        self.root: Path = store.root
        self._closed = False
        self._watch_task: asyncio.Task[None] | None = None
        self._watch_mode = WatchMode()
        self._stop = asyncio.Event()
        self._subscribers: list[asyncio.Queue[ChangeEvent | None]] = []
        self._quiet_task: asyncio.Task[None] | None = None
        self._sync_executor: ThreadPoolExecutor | None = None
        self._sync_store: MemoryStore | None = None
        self._checkpointer: Checkpointer | None = None
        self._checkpoint_tasks: set[asyncio.Future[Any]] = set()

    @property
    def settings(self) -> Settings:
        """The settings this repo was opened with (the process's one settings object, docs/architecture.md §11)."""
        return self._store.settings

    # -- threads ---------------------------------------------------------

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the worker thread (the store's)."""
        if self._closed:
            raise RuntimeError("the memory repo is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn, *args)

    async def _said_if_moved(self, change: Callable[[], object]) -> None:
        """Run ``change`` on the worker thread; when it moved HEAD, tell :meth:`changes` subscribers, as the
        watcher would.

        The quiet timer starts with the watcher, before it is armed: on a loaded machine the commit of the
        hand edits waiting at start landed before the watcher watched, no event came, and the app's header
        kept the "hand_edited" it had read at start (a rare flake of the folder-actions test).
        """

        def run() -> bool:
            before = self._store.head()
            change()
            return self._store.head() != before

        if await self._run(run):
            for queue in list(self._subscribers):
                queue.put_nowait(ChangeEvent(paths=[], git=True))

    async def _spare(self, fn: Callable[[], T]) -> T:
        """Run ``fn()`` on a spare thread (never touching the store: a model call)."""
        return await asyncio.get_running_loop().run_in_executor(None, fn)

    async def _drive(self, flow: Flow[R]) -> R:
        """Run a flow: its store steps on the worker thread, its spare steps on a spare thread."""
        return await drive(flow, self._run, self._spare)

    async def _run_sync(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(store, *args)`` on the sync thread, with its own store.

        Sync waits on the network without the write lock; on its own thread
        it never holds up this repo's reads and writes meanwhile.
        """
        if self._closed:
            raise RuntimeError("the memory repo is closed")
        if self._sync_executor is None:
            self._sync_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memrepo-sync")

        def call() -> T:
            if self._sync_store is None:
                self._sync_store = MemoryStore.open(self.root, self._store.settings, create=False)
            return fn(self._sync_store, *args)

        return await asyncio.get_running_loop().run_in_executor(self._sync_executor, call)

    # -- lifetime --------------------------------------------------------

    async def close(self) -> None:
        """Stop the watcher and the worker threads (waits for the write in progress)."""
        if self._closed:
            return
        self._stop.set()
        if self._quiet_task is not None:
            self._quiet_task.cancel()
        if self._watch_task is not None:
            self._watch_task.cancel()
            try:
                await self._watch_task
            except asyncio.CancelledError:
                pass
            except Exception:
                log.warning("the watcher of %s ended with an error", self.root, exc_info=True)
        for queue in self._subscribers:
            queue.put_nowait(None)
        self._closed = True
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self._executor.shutdown, True)
        if self._sync_executor is not None:
            await loop.run_in_executor(None, self._sync_executor.shutdown, True)
        await loop.run_in_executor(None, self._store.reads.close_semantic)  # the vectors' build stops
