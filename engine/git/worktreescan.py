"""The work tree's status flags as libgit2 and a quick hash read them (split out of :mod:`.store`, at 500 lines).

:class:`WorkTreeScan` is the part of :class:`memrepo.engine.git.store.GitStore` that reads status flags: the whole
work tree's scan, tried again when a file went away while it was hashed, and a few paths' flags hashed against
HEAD's tree. Mixed into the store: one worker thread owns it (docs/architecture.md §1).
"""

from __future__ import annotations

import time
from pathlib import Path

import pygit2
from pygit2.enums import FileStatus

from memrepo.engine.files.regularfile import not_regular_kind, read_work_file
from memrepo.engine.format.scratch import is_scratch

__all__ = ["SCAN_TRIES", "WorkTreeScan"]

SCAN_TRIES = 3
"""How many times a status scan is tried when a file went away while libgit2 hashed it."""


class WorkTreeScan:
    """The status-reading part of a git store (mixed into :class:`~memrepo.engine.git.store.GitStore`).

    Attributes:
        root: the work tree.
        _repo: the pygit2 repository the store opened.
    """

    root: Path
    _repo: pygit2.Repository

    def _scan(self) -> dict[str, int]:
        """libgit2's status of the whole work tree, read again when a file went away while it was hashed.

        Another process replacing a file (an editor's save, an appender beside
        the writer) between libgit2 listing it and reading it makes the scan
        fail with "error reading file for hashing"; a second look sees the new
        file (docs/architecture.md §3: nothing another process does is fatal).
        """
        for attempt in range(SCAN_TRIES):
            try:
                return self._repo.status(untracked_files="all")
            except OSError:
                if attempt == SCAN_TRIES - 1:
                    raise
                time.sleep(0.01 * (attempt + 1))
        raise AssertionError("unreachable")

    def _quick_flags(self, paths: list[str], unread: set[str] | None = None) -> dict[str, int] | None:
        """Status of a few paths by hashing them against HEAD's tree.

        Cheaper than ``status_file`` on a large index (no index load), and
        enough for the watcher's hints: a full scan still runs periodically
        and catches anything staged by hand.

        Args:
            paths: repo-relative file paths.
            unread: when given, gets the paths that could not be read (replaced
                or removed while hashed); they are left out of the result.

        Returns None when a path is a folder (in HEAD or in the work tree):
        the watcher may report a new or moved folder but not the files in it,
        so the caller scans everything.
        """
        repo = self._repo
        tree = None if repo.head_is_unborn else repo.head.peel(pygit2.Commit).tree
        flags: dict[str, int] = {}
        for path in dict.fromkeys(paths):
            if is_scratch(path):
                continue
            full = self.root / path
            try:
                entry = tree[path] if tree is not None else None
            except KeyError:
                entry = None
            if (entry is not None and not isinstance(entry, pygit2.Blob)) or (full.is_dir() and not full.is_symlink()):
                return None
            odd = not_regular_kind(full)
            present = odd is not None or full.exists()
            if entry is None:
                if present and not repo.path_is_ignored(path):
                    flags[path] = FileStatus.WT_NEW
            elif not present:
                flags[path] = FileStatus.WT_DELETED
            elif odd is not None:  # a symlink, FIFO, socket or device in place of the file
                flags[path] = FileStatus.WT_TYPECHANGE
            else:
                try:
                    data = read_work_file(full)
                except OSError:
                    if unread is not None:
                        unread.add(path)
                    continue
                if pygit2.hash(data) != entry.id:
                    flags[path] = FileStatus.WT_MODIFIED
        return flags
