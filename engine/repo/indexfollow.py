"""A long-running process keeps the persisted recall index up to date with hand edits (docs/architecture.md §4).

``memrepo recall`` starts a new process each time. When a memory file was
edited by hand since the last sync, that process reads the file again and
redacts every entry of it, which loads the secret detectors: 150-250 ms at
2,000 files against 80-150 ms with nothing to read (benchmarks/bench_cold.py's
row after a hand edit). A process that watches the files (the MCP server,
the app) already hears of the edit, so it brings the index up to date then,
with the edited files' shown text made (:func:`.coldrecall.refresh_index`, as
the write server does after a write), and the next ``memrepo recall`` finds
every stamp as stored and loads no detector.

The refresh waits until the files have been quiet :data:`FOLLOW_QUIET_S`
(an editor's save is several events), runs on a thread of its own with its
own connection (the index file's SQLite lock orders it with every other
reader and writer, as any two processes are), one at a time, and only when
the index was built: a first build is never started here.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path

log = logging.getLogger("memrepo.repo")

FOLLOW_QUIET_S = 0.3
"""Seconds with no new event before the index is brought up to date with the files edited."""


class IndexFollower:
    """Brings the persisted recall index up to date after the watcher reports changed memory files.

    Args:
        root: the work tree.
        stopped: True once the repo is closing (a refresh then never starts).
        quiet_s: the quiet period (seconds).

    Attributes:
        refreshed: how many refreshes ran to the end (the tests wait on it).
    """

    def __init__(self, root: Path, stopped: Callable[[], bool], quiet_s: float = FOLLOW_QUIET_S) -> None:
        self.root = root
        self._stopped = stopped
        self.quiet_s = quiet_s
        self._paths: set[str] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._running: asyncio.Future[None] | None = None
        self.refreshed = 0

    @property
    def busy(self) -> bool:
        """Whether a refresh is due or under way."""
        return self._timer is not None or (self._running is not None and not self._running.done())

    def note(self, paths: Iterable[str]) -> None:
        """Note repo-relative paths the watcher reported (in the event loop's thread); markdown files are followed."""
        wanted = [path for path in paths if path.endswith(".md")]
        if not wanted or self._stopped():
            return
        self._paths.update(wanted)
        self._arm()

    def _arm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(self.quiet_s, self._start)

    def _start(self) -> None:
        self._timer = None
        if self._stopped() or not self._paths:
            return
        if self._running is not None and not self._running.done():
            self._arm()  # one at a time: the paths wait for the refresh under way
            return
        paths = sorted(self._paths)
        self._paths.clear()
        self._running = asyncio.get_running_loop().run_in_executor(None, self._refresh, paths)

    def _refresh(self, paths: list[str]) -> None:
        """Sync the index and make the edited files' shown text (a worker thread; never raises)."""
        from memrepo.engine.read.coldrecall import refresh_index

        try:
            refresh_index(self.root, shown_for=paths)
        except (sqlite3.Error, OSError) as exc:  # the next recall reads the files itself, as before
            log.warning("the recall index of %s was not brought up to date: %s", self.root, exc)
            return
        except Exception:  # a thread of its own: nothing would ever see the error
            log.warning("bringing the recall index of %s up to date failed", self.root, exc_info=True)
            return
        self.refreshed += 1
