"""The polling fallback's blind second (docs/architecture.md §4).

watchfiles polls with notify's ``PollWatcher``, which compares each file's
modification time in whole seconds (notify 8.0, ``poll.rs``: ``mtime.seconds()``,
an event only when the new second is greater). A file changed twice within
one second, the second change after the poller's look, is never reported:
under two CPU hogs 9 of 30 edits made 0.6 s after a file's first write were
lost, each one in the same second as that write, none otherwise.

:class:`SameSecondGuard` closes that gap. It keeps, for each file whose last
seen change falls in the last :data:`AT_RISK_S` seconds, its size, inode and
modification and change times in nanoseconds, and looks at those few files again on every
turn of the poll loop; a difference is a change the poller cannot report. A
file leaves the list once its second has passed: any later change has a later
second, which the poller sees.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path

AT_RISK_S = 2.0
"""How long after its modification time a file is looked at again (seconds): its own second, plus a
second of margin for file systems whose clock runs behind ``time.time()`` by up to one timer tick."""

Stamp = tuple[int, int, int, int]
"""A file's modification and change times (ns), size (bytes) and inode; all -1 when it is gone. The change
time catches a rewrite to the same size whose modification time was set back (``touch -r``, ``os.utime``)."""

GONE: Stamp = (-1, -1, -1, -1)


def _stamp(path: str) -> Stamp:
    try:
        st = os.stat(path)
    except OSError:
        return GONE
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


class SameSecondGuard:
    """Files whose second of change is not over, and what they looked like (see the module docstring).

    Args:
        root: the work tree's absolute path.
        ignored: True for a ``/``-separated relative path the watcher drops.
        clock: seconds since the epoch (a test passes its own).
    """

    def __init__(self, root: Path, ignored: Callable[[str], bool], clock: Callable[[], float] = time.time) -> None:
        self._root = str(root).rstrip("/") + "/"
        self._ignored = ignored
        self._clock = clock
        self._seen: dict[str, Stamp] = {}

    @property
    def watched(self) -> frozenset[str]:
        """The relative paths looked at again on each turn."""
        return frozenset(self._seen)

    def _recent(self, stamp: Stamp, now: float) -> bool:
        return stamp != GONE and now - stamp[0] / 1e9 < AT_RISK_S

    def seed(self) -> None:
        """Walk the tree once and keep every file changed in the last :data:`AT_RISK_S` seconds.

        Called when the stream arms: a file written in the same second as the poller's last look at
        it would hide a change made right after arming. ``.git`` is walked for the state files only
        (``ignored`` decides); a directory that cannot be read is skipped.
        """
        now = self._clock()
        for folder, dirs, files in os.walk(self._root):
            rel_folder = folder[len(self._root) :]
            if rel_folder == ".git":
                dirs[:] = [d for d in dirs if d == "refs"]
            for name in files:
                rel = f"{rel_folder}/{name}" if rel_folder else name
                if self._ignored(rel):
                    continue
                stamp = _stamp(self._root + rel)
                if self._recent(stamp, now):
                    self._seen[rel] = stamp

    def saw(self, paths: Iterable[str]) -> None:
        """Note files the poller just reported: each is watched while its second is not over.

        Args:
            paths: relative paths from the poller's batch.
        """
        now = self._clock()
        for rel in paths:
            stamp = _stamp(self._root + rel)
            if self._recent(stamp, now):
                self._seen[rel] = stamp
            else:
                self._seen.pop(rel, None)

    def changed(self) -> set[str]:
        """Look at the watched files again; return those that changed since last seen (the poller's blind spot).

        Returns:
            set[str]: relative paths that changed (or went away); files whose second is over leave the list.
        """
        now = self._clock()
        found: set[str] = set()
        for rel, before in list(self._seen.items()):
            stamp = _stamp(self._root + rel)
            if stamp != before:
                found.add(rel)
            if self._recent(stamp, now):
                self._seen[rel] = stamp
            else:
                del self._seen[rel]
        return found
