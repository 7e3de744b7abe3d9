"""git's ``index.lock``, held by memrepo while it writes and commits work-tree files (docs/architecture.md §3).

git takes ``.git/index.lock`` before it rewrites the work tree (``git stash``'s reset, ``git checkout``,
``git reset --hard``, a merge) and lets it go once the files and the index are written. memrepo takes the
same file, the same way (created with ``O_EXCL``, kept open, removed to let go), from its last look at a
file to the commit that moves the branch: a git command can then rewrite the files only wholly before that
look (memrepo sees the rewrite and commits nothing of it) or wholly after the commit (git works on top of
it). Before, ``git stash`` beside a "Hand edits" commit reset the files between memrepo's read and its
commit: HEAD got the user's lines, the work tree lost them, ``git stash pop`` then changed nothing (the same
lines on both sides) and the next look committed their removal (breaker28 B28-3).

A git command that meets the held lock fails at once ("Unable to create ... index.lock: File exists"), as it
does beside any other git process, and changes nothing; it can be run again a moment later.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memrepo.engine.errors import BusyError

from . import lock as gitlocks


class IndexHold:
    """Holds ``.git/index.lock`` for one repository in this process; nested holds share the outer one.

    Args:
        git_dir: the repository's ``.git`` folder.
    """

    def __init__(self, git_dir: Path) -> None:
        self.path = Path(git_dir) / "index.lock"
        self.git_dir = Path(git_dir)
        self._depth = 0
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        """True while this process holds the lock (libgit2 cannot write the index meanwhile)."""
        return self._depth > 0

    @contextmanager
    def hold(self, wait_s: float | None = None) -> Iterator[None]:
        """Hold ``index.lock`` for the block (a nested hold is part of the outer one).

        Args:
            wait_s: how long a lock another process holds is waited for;
                :data:`~memrepo.engine.files.lock.GIT_LOCK_WAIT_S` when None.

        Raises:
            BusyError: another process held ``index.lock`` for ``wait_s`` (nothing was done).
        """
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._take(gitlocks.GIT_LOCK_WAIT_S if wait_s is None else wait_s)
        self._depth = 1
        try:
            yield
        finally:
            self._depth = 0
            self._let_go()

    def _take(self, wait_s: float) -> None:
        deadline = time.monotonic() + wait_s
        while True:
            try:
                self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
                return
            except FileExistsError:
                pass
            left = deadline - time.monotonic()
            if left <= 0:
                raise BusyError(
                    f"{gitlocks.describe_git_lock(self.git_dir, self.path)}; memrepo waited {wait_s:g} s: "
                    "retry when it has finished"
                )
            # A live holder is waited for (BusyError past the wait); a stale one removed.
            gitlocks.settle_git_locks(self.git_dir, wait_s=left)
            time.sleep(0.005)

    def _let_go(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            mine = os.fstat(fd)
            now = os.stat(self.path)
            if (mine.st_dev, mine.st_ino) == (now.st_dev, now.st_ino):
                os.unlink(self.path)  # still ours (nobody removed it as stale and took it since)
        os.close(fd)
