"""Measures of a memory repo's history: the size of ``.git``, its commits, those since compaction.

Health shows them (docs/architecture.md §9) and compaction reports them
(docs/architecture.md §5). They only read: nothing here changes the repository.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pygit2

DERIVED_STATE = frozenset(
    {
        "recall.sqlite",
        "recall.sqlite-journal",
        "workspaces.sqlite",
        "workspaces.sqlite-journal",
        "vectors.sqlite",
        "vectors.sqlite-journal",
    }
)
"""Files in ``.git/memrepo/`` rebuilt from the work tree (the recall index, the workspace map, hybrid recall's vectors): not git's data,
not what compaction shrinks, so left out of :func:`git_dir_size`."""


def git_dir_size(git_dir: Path) -> int:
    """Bytes of every file under ``git_dir`` (symlinks not followed), the recall index and workspace map left out."""
    total = 0
    state = os.path.join(str(git_dir), "memrepo")
    for folder, _dirs, files in os.walk(git_dir):
        for name in files:
            if folder == state and name in DERIVED_STATE:
                continue
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(folder, name)).st_size
    return total


def history_since_compaction(root: Path) -> tuple[int, int, bool, int | None]:
    """Walk HEAD's history back to the last "Compact history" commit (``Origin: compact``).

    Args:
        root: the memory repo's work tree.

    Returns:
        tuple: (commits after the last compaction, how many of them removed
        text on purpose: forget, clear, purge, discard and undo; whether a
        compaction was found at all; the oldest such removal's commit time in
        seconds since the epoch, None when there is none).
    """
    try:
        repo = pygit2.Repository(str(root))
    except (pygit2.GitError, KeyError):
        return 0, 0, False, None
    if repo.head_is_unborn:
        return 0, 0, False, None
    commits = removals = 0
    oldest: int | None = None
    try:
        for commit in repo.walk(repo.head.target):
            message = commit.message
            if "\nOrigin: compact" in message and message.startswith("Compact history"):
                return commits, removals, True, oldest
            commits += 1
            if message.startswith(REMOVING_PREFIXES):
                removals += 1
                oldest = commit.commit_time if oldest is None else min(oldest, commit.commit_time)
    except (KeyError, pygit2.GitError):  # a missing commit (HEAD's, after a prune): the work tree row says so
        pass
    return commits, removals, False, oldest


REMOVING_PREFIXES = ("Forget:", "Clear ", "Purge task", "Discard:", "Undo:")
"""Commit summaries whose commits can take text out of the files (it then stays in history)."""


def count_commits(root: Path, start: str, orphan: str | None = None) -> int:
    """Commits reachable from ``start``, on a repository of its own (safe on another thread).

    With ``orphan`` (a parentless commit, the compact one) libgit2 counts in C
    without holding the GIL (``git_graph_ahead_behind``: every commit of
    ``start`` is "ahead" of an unrelated commit), so the count runs beside
    the pack writer instead of taking turns with it; without, it walks.

    Returns:
        int: the count; 0 when the repository or the commit cannot be read.
    """
    try:
        repo = pygit2.Repository(str(root))
        if orphan is not None:
            if orphan == start:
                return 1  # HEAD is the compact commit already: a history of one
            return repo.ahead_behind(pygit2.Oid(hex=start), pygit2.Oid(hex=orphan))[0]
        return sum(1 for _ in repo.walk(pygit2.Oid(hex=start)))
    except (pygit2.GitError, KeyError, ValueError):
        return 0
