"""The last full status scan's flags, kept current from the watcher's events (docs/architecture.md §4).

libgit2's status scan of a 20,000-file work tree takes 50-80 ms and holds
the GIL all along (pygit2 does not release it), so every status a front end
asks for after an event froze its event loop that long: the app showed a hand
edit 250-300 ms after the save at 20,000 files. While a settled watcher
reports every path that changes, a status only has to look again at those
paths: the rest of the work tree has the flags the last scan found.

The cache is used only when all of these hold, else the caller scans:

- a watcher runs and is trusted (the caller says so);
- HEAD is the commit the scan saw (a commit changes what "changed" means);
- no git state file moved since (``git add`` changes the index: every flag
  can change), and no ``.gitignore`` changed;
- no noted path was staged at the scan (its index flags are not looked at);
- the scan is at most :data:`FULL_SCAN_EVERY_S` old (a backstop; the
  watcher's reconciliation also reports what events missed).

This module holds only the bookkeeping; :class:`~memrepo.engine.git.store.GitStore`
does the looking.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

FULL_SCAN_EVERY_S = 30.0
"""A cached status is scanned again at least this often (seconds), whatever the events said."""


@dataclass(frozen=True)
class CachedScan:
    """What one status starts from (:meth:`StatusCache.start`)."""

    flags: dict[str, int] | None
    """Path to libgit2 status flags as the last scan left them (a copy), or None: scan everything."""
    noted: frozenset[str]
    """Repo-relative paths events reported since then: look at these again."""
    epoch: int
    """The cache's epoch at the start; a git event or :meth:`StatusCache.forget` since voids the result."""


class StatusCache:
    """The last full scan's flags and what changed since; every method is safe from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flags: dict[str, int] | None = None
        self._head: str | None = None
        self._at = 0.0
        self._noted: set[str] = set()
        self._epoch = 0

    def forget(self) -> None:
        """Drop the scan: the next status scans everything (a watcher started or stopped)."""
        with self._lock:
            self._flags = None
            self._epoch += 1

    def note_changed(self, paths: list[str] | None, git: bool = False) -> None:
        """Record what a watcher event reported.

        Args:
            paths: repo-relative paths that changed; None means "anything may have".
            git: a git state file moved (the index, HEAD, a ref): every flag may have changed.
        """
        with self._lock:
            if paths is None or git or any(p == ".gitignore" or p.endswith("/.gitignore") for p in paths):
                self._flags = None
                self._epoch += 1
            if paths:
                self._noted.update(paths)

    def start(self, head: str | None) -> CachedScan:
        """Take what a status at ``head`` starts from; paths noted from now on stay for the next one.

        Args:
            head: HEAD's commit id now (None while unborn).

        Returns:
            CachedScan: ``flags`` is None when a full scan is due (none kept,
            HEAD moved, or the last full scan is older than :data:`FULL_SCAN_EVERY_S`).
        """
        with self._lock:
            noted, self._noted = self._noted, set()
            flags = self._flags
            if flags is not None and (head != self._head or time.monotonic() - self._at > FULL_SCAN_EVERY_S):
                flags = None
            return CachedScan(None if flags is None else dict(flags), frozenset(noted), self._epoch)

    def store(self, scan: CachedScan, head: str | None, flags: dict[str, int]) -> None:
        """Keep ``flags`` as the work tree's status at ``head``, unless the cache was voided since ``scan``.

        Args:
            scan: what :meth:`start` gave this status.
            head: HEAD's commit id the flags were read against.
            flags: path to libgit2 status flags.
        """
        with self._lock:
            if scan.epoch != self._epoch:
                return
            self._flags = dict(flags)
            self._head = head
            if scan.flags is None:  # a full scan: the backstop's clock starts again
                self._at = time.monotonic()

    def give_back(self, scan: CachedScan) -> None:
        """The status failed: the paths :meth:`start` took are looked at again next time."""
        with self._lock:
            self._noted.update(scan.noted)
