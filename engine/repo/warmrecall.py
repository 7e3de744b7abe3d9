"""The recall index's warm-up, on a thread of its own that never holds up the process's exit (breaker17 B17-4).

:meth:`MemoryRepo.warm_recall <memrepo.engine.repo.repo.MemoryRepo.warm_recall>` builds or opens the persisted
index off the repo's worker thread, so the first search does not wait for it. A first build of a big repo
runs in a detached process (:func:`memrepo.engine.read.recallfile.open_index`) and the warm-up waits for it.
On asyncio's default executor that wait held up the end of the process: asyncio joins the executor's
threads before it returns, so ``q`` in the app on a 2,000-file repo's first run left a blank screen for
66-101 s until the detached build was done. Here the wait runs on a daemon thread: a process that ends
leaves it behind, and the build goes on alone, as it was made to (the next open finds the index).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memrepo.engine.read.recall import RecallIndex

log = logging.getLogger("memrepo.repo")


def build_index(root: Path) -> RecallIndex:
    """Open ``root``'s recall index, current (a first build apart), loading the secret detectors beside it."""
    from memrepo.engine.read.recallfile import open_index
    from memrepo.engine.redaction import warm

    # The first hits shown do not wait for the secret detectors to load (docs/architecture.md §3):
    # their Go library loads beside the index's walk of the files, which waits on the disk.
    def load_detectors() -> None:
        try:
            warm()
        except Exception as exc:  # the first redaction loads them instead, and says why if it cannot
            log.warning("loading the secret detectors early failed: %s", exc)

    detectors = threading.Thread(target=load_detectors, name="memrepo-redaction-warm", daemon=True)
    detectors.start()
    try:
        return open_index(root)  # a first build runs in a child process, off this one's GIL
    finally:
        detectors.join()


def start_warming(root: Path) -> asyncio.Future[RecallIndex]:
    """Start :func:`build_index` on a daemon thread; the running loop's future of its index (or its error)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[RecallIndex] = loop.create_future()

    def settle(index: RecallIndex | None, error: BaseException | None) -> None:
        if future.done():  # cancelled meanwhile
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(index)  # type: ignore[arg-type]

    def run() -> None:
        index, error = None, None
        try:
            index = build_index(root)
        except BaseException as exc:  # handed to the awaiting coroutine, like an executor's
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop has closed: the process is ending
            loop.call_soon_threadsafe(settle, index, error)

    threading.Thread(target=run, name="memrepo-recall-warm", daemon=True).start()
    return future
