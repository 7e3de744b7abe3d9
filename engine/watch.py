"""Live change events from the work tree, streamed by watchfiles (DESIGN.md §4).

Watches the work tree and, of ``.git``, only the files that say HEAD or a git
operation's state moved (:func:`is_git_state`); drops editor swap, backup and temp
files (vim's ``4913`` probe, ``*.swp``, ``*~``, emacs ``.#name`` and
``#name#``, the engine's own temp files); coalesces bursts into one
:class:`~engine.models.ChangeEvent` (debounced).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import watchfiles

from .atomic import TEMP_PREFIX
from .models import ChangeEvent

DEBOUNCE_MS = 400
"""Longest a burst of changes is gathered before one event goes out (milliseconds)."""
STEP_MS = 50
"""Quiet time that ends a burst early (milliseconds)."""

_IGNORED_NAME = re.compile(
    r"""^(
        4913                    # vim's write-permission probe
      | .*\.sw[a-p]             # vim swap files
      | .*~                     # backups (vim, emacs, nano)
      | \.\#.*                  # emacs lock files
      | \#.*\#                  # emacs auto-save files
      | \.DS_Store
      | .*\.tmp
      | \.goutputstream-.*      # gedit temp files
      | """ + re.escape(TEMP_PREFIX) + r""".*
    )$""",
    re.VERBOSE,
)


_GIT_STATE_FILES = frozenset({
    "HEAD", "packed-refs", "MERGE_HEAD", "REBASE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD",
    "BISECT_LOG", "index.lock",
})
_GIT_STATE_DIRS = frozenset({"refs", "rebase-merge", "rebase-apply"})


def is_git_state(relpath: str) -> bool:
    """True for the few ``.git`` paths whose change means HEAD or the repo's state moved.

    ``HEAD``, ``packed-refs``, anything under ``refs/`` (but ref ``.lock`` files),
    the files of a merge, rebase, cherry-pick, revert or bisect in progress, and
    ``index.lock``. Objects, the index and the engine's own state are not.

    Args:
        relpath: a path relative to the work tree, ``/`` separated.
    """
    parts = relpath.split("/")
    if len(parts) < 2 or parts[0] != ".git":
        return False
    if len(parts) == 2 and parts[1] in _GIT_STATE_FILES:
        return True
    return parts[1] in _GIT_STATE_DIRS and not parts[-1].endswith(".lock")


def is_ignored(relpath: str) -> bool:
    """True for paths the watcher drops: ``.git`` (but :func:`is_git_state`) and editor scratch files.

    Args:
        relpath: a path relative to the work tree, ``/`` separated.
    """
    parts = relpath.split("/")
    if parts[0] == ".git":
        return not is_git_state(relpath)
    return bool(_IGNORED_NAME.match(parts[-1]))


class WorkTreeFilter(watchfiles.BaseFilter):
    """A watchfiles filter for one work tree (see :func:`is_ignored`)."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = str(root).rstrip("/") + "/"

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        """Return True to keep the event for ``path``."""
        if not path.startswith(self.root):
            return False
        return not is_ignored(path[len(self.root) :])


async def watch_changes(
    root: Path,
    stop_event: asyncio.Event | None = None,
    debounce_ms: int = DEBOUNCE_MS,
) -> AsyncIterator[ChangeEvent]:
    """Yield a :class:`ChangeEvent` for each burst of work-tree changes.

    Args:
        root: the work tree's absolute path.
        stop_event: set it to end the stream.
        debounce_ms: longest gathering window (milliseconds).

    Yields:
        ChangeEvent: sorted work-tree paths changed in the burst, and whether
        HEAD or the repo's state moved.
    """
    root = Path(root)
    prefix = str(root).rstrip("/") + "/"
    async for batch in watchfiles.awatch(
        root,
        watch_filter=WorkTreeFilter(root),
        debounce=debounce_ms,
        step=STEP_MS,
        stop_event=stop_event,
        ignore_permission_denied=True,
    ):
        rel = {p[len(prefix) :] for _, p in batch if p.startswith(prefix)}
        git = any(p.startswith(".git/") for p in rel)
        paths = sorted(p for p in rel if not p.startswith(".git/"))
        if paths or git:
            yield ChangeEvent(paths=paths, git=git)
