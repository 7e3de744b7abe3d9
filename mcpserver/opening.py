"""The MCP server's memory repo, opened after ``initialize`` is answered (docs/architecture.md §7).

Codex lists an MCP server's tools only once the server has answered ``initialize`` and
``tools/list``, and its first model request does not wait for them (breaker5 B5-10): every
millisecond before those answers is a chance that the agent's first turn has no memory tools. So
the server answers them first, and the engine (about a third of a start-up's imports), the repo,
its watcher, the recall index's warm-up and the recall door come after, in the background: the
engine's modules load on a spare thread once the client's first message after ``initialize``
arrives (or after :data:`OPEN_AFTER_S`), and every tool call waits for the opening. A failed
opening is each tool call's one-line error; the repo path's own rules are checked before the
server starts (``serve``), so a wrong ``--repo`` still stops it with one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memrepo.engine.config import Settings
    from memrepo.engine.repo.repo import MemoryRepo

    from .tooling import Session

log = logging.getLogger("memrepo.mcp")

TICK_S = 30.0
"""How often the server checks for idle checkpoint stages (seconds)."""

OPEN_AFTER_S = 2.0
"""A client that sends nothing after ``initialize`` still gets the repo opened (and its index warmed) after this
many seconds."""


def _load_engine() -> tuple[Any, Any]:
    """Import the engine's repo and read counter (run on a spare thread): (MemoryRepo, SessionReads)."""
    from memrepo.engine import SessionReads
    from memrepo.engine.repo.repo import MemoryRepo

    return MemoryRepo, SessionReads


class RepoOpening:
    """Opens the memory repo in the background and closes it when the session ends.

    Args:
        repo_path: the memory repo folder (created when missing, like the app).
        settings: the settings of the process; read from the config file (on the spare thread) when None.
        session: the MCP session (its id and folder close its checkpoints).
        initialized: set by the first message after ``initialize``; the recall door loads the model then.
    """

    def __init__(
        self, repo_path: Path, settings: Settings | None, session: Session, initialized: threading.Event
    ) -> None:
        self.repo_path, self.settings, self.session, self.initialized = repo_path, settings, session, initialized
        self.asked = asyncio.Event()
        self.state: dict[str, Any] = {}
        self._task: asyncio.Future[MemoryRepo] | None = None
        self._background: list[asyncio.Future[Any]] = []
        self._door: Any = None

    def start(self) -> None:
        """Start the opening (it waits for :attr:`asked`, or :data:`OPEN_AFTER_S`); call it on the server's loop."""
        self._task = asyncio.ensure_future(self._open())

    def ask(self) -> None:
        """The client has sent its first message after ``initialize``: open now."""
        self.asked.set()

    async def repo(self) -> MemoryRepo:
        """The opened repo, waiting for the opening (started now if it still waits).

        Raises:
            MemrepoError: the repo could not be opened (the same error on every call).
        """
        self.ask()
        if self._task is None:
            self.start()
        assert self._task is not None
        return await asyncio.shield(self._task)

    async def _open(self) -> MemoryRepo:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.asked.wait(), OPEN_AFTER_S)
        memory_repo, session_reads = await asyncio.to_thread(_load_engine)
        settings = self.settings
        if settings is None:
            from memrepo.engine.config import load_settings

            settings = await asyncio.to_thread(load_settings)
        repo = await memory_repo.open(self.repo_path, settings, create=True, origin="mcp")
        self.state["repo"] = repo
        reads = session_reads(Path(repo.root) / ".git", "mcp")  # counts only (docs/architecture.md §9)
        reads.start()
        self.state["reads"] = reads
        repo.start_watching()
        self._background = [asyncio.ensure_future(repo.warm_recall()), asyncio.ensure_future(_tick(repo))]
        # New processes of this repo (the prompt hook, `memrepo recall`) get hybrid recall from this warm model,
        # loaded once initialize is answered (the load holds the GIL: the client waits for that reply).
        self._door = repo.open_recall_door("the MCP server", self.initialized)
        return repo

    async def close(self) -> None:
        """End the session: the door, the background tasks, the closing checkpoints, the repo (never raises)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        repo = self.state.get("repo")
        if repo is None:
            return
        if self._door is not None:
            await asyncio.to_thread(self._door.close)
        for task in self._background:
            task.cancel()
        session = self.session
        try:  # never raises, but the close may be cancelled: what is left stays buffered
            await repo.checkpoint(session.id, session.cwd, [], "session_close", session.untrusted, origin="mcp")
        except BaseException as exc:
            log.warning("the closing checkpoint of %s did not finish: %s", session.id, type(exc).__name__)
        try:
            await repo.checkpoint_idle(origin="mcp")
        except BaseException as exc:
            log.warning("the closing idle checkpoints did not finish: %s", type(exc).__name__)
        await repo.close()


async def _tick(repo: MemoryRepo) -> None:
    """Distil idle checkpoint stages every :data:`TICK_S` seconds (docs/architecture.md §7: idle checked by the watcher)."""
    while True:
        await asyncio.sleep(TICK_S)
        await repo.checkpoint_idle(origin="mcp")  # never raises: failures are logged and returned
