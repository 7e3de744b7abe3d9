"""Computing the vectors of hybrid recall: incrementally, in the background, at low priority (docs/architecture.md §4).

:func:`build_vectors` embeds the entries :meth:`VectorStore.reconcile` names,
a few at a time, committing each batch: stopped at any point (the process
ends, the app closes), the next run starts where it stopped. A
:class:`VectorBuilder` runs it on a thread of a long-running process (the
MCP server, the app) whenever the recall index moved: a first build of
thousands of entries, or the one entry a write or a hand edit added. That
thread runs at the lowest CPU priority (Linux gives threads their own nice
value) and holds the model for one entry at a time, so a recall's query
embedding waits at most one entry's embedding. Recall never waits for a
build: until vectors exist it answers lexically.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from .semantic_model import Embedder, ModelUnavailable
from .semantic_store import VectorStore, vectors_path

BATCH = 8
"""Entries embedded between two commits of the vectors file."""
REPACK_AFTER = 1000
"""A build that stored this many vectors or more rewrites the file densely at its end (:meth:`VectorStore.repack`)."""


def build_vectors(
    root: Path,
    embedder: Embedder,
    max_entries: int,
    prepare: Callable[[str], str] = lambda t: t,
    stop: threading.Event | None = None,
) -> int:
    """Bring the vectors of ``root`` up to date with its recall index.

    Only one build runs at a time across processes (:func:`build_lock`): a second waits for the first, then
    finds only what the first left to do.

    Args:
        root: the work tree (its recall index must exist: nothing is done otherwise).
        embedder: the model.
        max_entries: the bound (``[semantic] max_entries``).
        prepare: what is embedded for an entry's text (the redaction).
        stop: set to stop after the current batch (or to give up waiting for another process's build).

    Returns:
        int: vectors stored (0 when ``stop`` was set while another process's build held the lock).

    Raises:
        ModelUnavailable: the model failed (what was stored before stays).
        sqlite3.Error: the vectors file could not be read or written.
    """
    with build_lock(root, stop) as held:
        if not held:
            return 0
        return _build(root, embedder, max_entries, prepare, stop)


LOCK_FILE = "vectors.lock"
"""The lock under ``.git/memrepo/`` that one build holds at a time, across processes."""

LOCK_POLL_S = 0.5
"""How often a build waiting for another process's build asks for the lock again (seconds)."""


@contextlib.contextmanager
def build_lock(root: Path, stop: threading.Event | None = None) -> Iterator[bool]:
    """Hold the vectors' build lock of ``root`` in the block, waiting for another process's build to end first.

    Two long-running processes on one repo (the app and the MCP server) each start a build when the
    recall index moves: without it both embedded the same entries, twice the CPU for the same vectors.
    The lock is a ``flock`` (:func:`memrepo.engine.files.lock.private_lock`), so it dies with its holder.

    Args:
        root: the work tree.
        stop: set to give up waiting (the process is closing).

    Yields:
        bool: True once held; False when ``stop`` was set while waiting.
    """
    from filelock import Timeout

    from memrepo.engine.files.lock import private_lock

    folder = vectors_path(Path(root)).parent
    folder.mkdir(parents=True, exist_ok=True)
    lock = private_lock(folder / LOCK_FILE)
    while True:
        if stop is not None and stop.is_set():
            yield False
            return
        try:
            lock.acquire(timeout=LOCK_POLL_S)
            break
        except Timeout:
            continue
    try:
        yield True
    finally:
        lock.release()


def _build(
    root: Path,
    embedder: Embedder,
    max_entries: int,
    prepare: Callable[[str], str],
    stop: threading.Event | None,
) -> int:
    """:func:`build_vectors` under the build lock."""
    store = VectorStore(root)
    try:
        store.use_model(embedder.model_id)
        todo = store.reconcile(max_entries, prepare)
        stored = 0
        for start in range(0, len(todo), BATCH):
            if stop is not None and stop.is_set():
                break
            chunk = todo[start : start + BATCH]
            vecs = embedder.embed([text for _iid, text in chunk], query=False)
            stored += store.add([(iid, text, vec) for (iid, text), vec in zip(chunk, vecs, strict=True)])
        if stored >= REPACK_AFTER and not (stop is not None and stop.is_set()):
            with contextlib.suppress(sqlite3.Error):  # held by a reader past the timeout: only space is lost
                store.repack()
        return stored
    finally:
        store.close()


def lowest_priority() -> None:
    """Give the calling thread the lowest CPU priority (nice 19 on Linux; elsewhere nothing)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


class VectorBuilder:
    """Runs :func:`build_vectors` on a background thread each time it is kicked.

    Args:
        root: the work tree.
        embedder: the model (shared with the query side; it serialises its own calls).
        max_entries: the bound.
        prepare: the redaction.
    """

    def __init__(
        self, root: Path, embedder: Embedder, max_entries: int, prepare: Callable[[str], str] = lambda t: t
    ) -> None:
        self.root = Path(root)
        self.embedder = embedder
        self.max_entries = max_entries
        self.prepare = prepare
        self.error: str | None = None
        """The model's one-line failure, if the last run met one."""
        self.failed_at = 0.0
        """When it met it (``time.monotonic()`` seconds)."""
        self._stop = threading.Event()
        self._again = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def kick(self) -> None:
        """Start a run (or have the running one go round again when it ends)."""
        with self._lock:
            self._again.set()
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="memrepo-vectors", daemon=True)
                self._thread.start()

    def running(self) -> bool:
        """Whether a run is under way."""
        thread = self._thread
        return thread is not None and thread.is_alive()

    def _run(self) -> None:
        lowest_priority()
        while self._again.is_set() and not self._stop.is_set():
            self._again.clear()
            try:
                build_vectors(self.root, self.embedder, self.max_entries, self.prepare, self._stop)
                self.error = None
            except ModelUnavailable as exc:
                self.error, self.failed_at = str(exc), time.monotonic()
                return
            except Exception as exc:  # a busy or unwritable file: tried again at the next kick
                self.error, self.failed_at = f"vectors could not be built: {exc}", time.monotonic()
                return

    def wait(self, timeout: float = 30.0) -> None:
        """Wait for the run under way to end (at most ``timeout`` seconds)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def close(self, timeout: float = 10.0) -> None:
        """Stop after the current batch and wait for the thread (at most ``timeout`` seconds)."""
        self._stop.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
