"""Worker helpers: failed workers become notices, never a dead app.

Every worker in the app is started with ``exit_on_error=False``, a ``group``
and a ``description``. Textual then marks a failed worker ``ERROR`` and posts
``Worker.StateChanged`` to the node that started it (the message does not
bubble), so each such node mixes in :class:`ReportWorkerErrors`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.worker import Worker, WorkerState

from .plain import clean

if TYPE_CHECKING:
    from memrepo.engine.repo.repo import MemoryRepo


def describe_error(error: BaseException | None) -> str:
    """One line for a person about an error.

    Args:
        error: the exception (engine errors already carry a readable message).

    Returns:
        str: the message; the exception's type is named only for surprises.
    """
    from memrepo.engine.errors import MemrepoError

    if error is None:
        return "unknown error"
    if isinstance(error, MemrepoError):
        return str(error)
    if isinstance(error, OSError):
        where = f": {error.filename}" if error.filename else ""
        return f"{error.strerror or error}{where}"
    return f"{type(error).__name__}: {error}"


async def inbox_waiting(repo: MemoryRepo) -> int:
    """How many entries wait in inbox.md for review (0 when it is missing or unreadable: the header never fails on
    it; the Inbox pane says why it cannot read it). The header says the count beside "clean" (breaker30 B30-18).

    Args:
        repo: the open repo.

    Returns:
        int: the inbox's entries.
    """
    from memrepo.engine.errors import MemrepoError

    try:
        return len((await repo.read_file("inbox.md")).entries)
    except (MemrepoError, OSError):
        return 0


class ReportWorkerErrors:
    """Mixin for a widget, screen or app: a worker that failed shows one error notice."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Turn a failed worker into an error notice titled with its description."""
        if event.state is not WorkerState.ERROR:
            return
        worker = event.worker
        node = event.worker.node
        node.app.notify(
            clean(describe_error(worker.error), one_line=False),
            title=worker.description or "Background task failed",
            severity="error",
            timeout=8,
            markup=False,
        )
