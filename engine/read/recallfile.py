"""The recall index file: open it (a large first build in a child process), scrub it (docs/architecture.md §4, §5).

:mod:`memrepo.engine.read.recall` holds the index and its search; this module holds
what a process does with the file as a whole.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from .recall import RecallIndex
from .recallkeys import index_path, walk
from .recallopen import empty_index


def scrub_recall(root: Path, index: RecallIndex | None, paths: Iterable[str] | None) -> None:
    """Make removed text leave the persisted index now (docs/architecture.md §5).

    Forgetting calls it with the file it rewrote, compaction with None: every
    file is checked and the index file is then rewritten whole. A first build
    not finished (another process may be running it) holds the batches it
    committed: forgetting re-reads the file it rewrote there, compaction
    empties the index so the build starts again. The other derived files
    are the registry's business (:mod:`memrepo.engine.state.scrub`).

    Args:
        root: the memory repo's work tree.
        index: the index this process has open, if any (kept open).
        paths: the repo-relative files that changed; None for all of them.
    """
    target = index
    if target is None:
        if not index_path(root).exists():
            return
        target = RecallIndex(root)
    try:
        if not target.built:  # a first build not finished: the batches it committed hold text too
            if paths is None:
                empty_index(target._db)  # compaction: the build starts again from the files left
                target._forget_cached()
            else:
                target.sync(paths, partial=True)  # the forgotten file alone, not the whole build here
            return
        target.sync(paths)
        if paths is None:
            target.scrub()
    finally:
        if target is not index:
            target.close()


DETACHED_BUILD_FILES = 100
"""A first build of at least this many files runs in a detached process of its own (:func:`spawn_build`): it
takes seconds even at 200 files on a busy machine, longer than a short agent session lives (breaker5 B5-1)."""


def spawn_build(root: Path) -> subprocess.Popen[bytes]:
    """Start :func:`build_index` of ``root`` in a detached background process and return it.

    The process runs in a session of its own (``setsid``): it outlives the process that started it, and a
    client that kills its MCP server's process group (Codex at the end of ``codex exec``) does not stop it.
    It runs at a low CPU priority, one at a time (:func:`build_lock`); a killed one leaves its batches.

    Raises:
        OSError: no process could be started.
    """
    code = BUILD_CODE
    return subprocess.Popen(
        [sys.executable, "-c", code, str(root)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def open_index(root: Path) -> RecallIndex:
    """The persisted index of ``root``, current; a first build of :data:`DETACHED_BUILD_FILES` files runs apart.

    A build is pure Python for seconds (tens of seconds at 20,000 files); in a
    process of its own it holds neither this process's GIL (the app's screen and
    the MCP server's loop keep running) nor its memory, and runs at a low
    CPU priority (recall answers from a scan of the files meanwhile). The
    process is detached (:func:`spawn_build`): when this one ends first (a
    short ``codex exec`` session), the build goes on and the next session
    finds the index. Later syncs re-read only changed files, here.
    """
    index = RecallIndex(root)
    if not index.built and index.path != ":memory:" and len(walk(Path(root))) >= DETACHED_BUILD_FILES:
        with contextlib.suppress(OSError):  # no process here: built below instead
            spawn_build(Path(root)).wait()
        while build_running(root):  # a build another process started holds the lock: it finishes first
            time.sleep(0.2)
        index.close()
        index = RecallIndex(root)  # built by the detached process (or, if it failed, built below)
    index.keep_walk = True  # its stats are the reader's first record (ReadCaches.adopt_recall_index takes them)
    index.sync()
    return index


@contextlib.contextmanager
def build_lock(root: Path) -> Iterator[bool]:
    """Hold the background build's lock of ``root`` while in the block, if free: yields whether it was.

    The lock is an exclusive ``flock`` on the ``.git/memrepo`` folder itself, so it
    makes no file of its own and dies with its holder (a killed build leaves none
    behind). Where ``flock`` does not exist it is always free (two builds then share
    the work, each skipping the files the other committed).
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no flock here
        yield True
        return
    folder = index_path(Path(root)).parent
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        yield True
    finally:
        os.close(fd)  # closing it lets the lock go


def build_running(root: Path) -> bool:
    """Whether a background build of ``root``'s index holds :func:`build_lock` now (never waits)."""
    try:
        with build_lock(root) as free:
            return not free
    except OSError:
        return False


BUILD_NICE = 10
"""The niceness a background build runs at: it yields to interactive work (weight 110 against 1,024 at
nice 0) and still moves on a busy machine, where the idle class or nice 19 would all but stop it."""
NICE_FIRST = f"import os\ntry: os.nice(max(0, {BUILD_NICE} - os.nice(0)))\nexcept (OSError, AttributeError): pass\n"
"""The first lines of the build's process: its priority lowered to :data:`BUILD_NICE` before any import (its
imports and first files at the session's priority competed with the session's own first recall)."""
BUILD_CODE = NICE_FIRST + (
    "import sys; from memrepo.engine.read.recallfile import build_index; build_index(sys.argv[1], True)"
)
"""What :func:`spawn_build`'s process runs."""


def low_priority() -> None:
    """Lower this process's CPU priority to :data:`BUILD_NICE` (no change where it cannot be lowered)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(max(0, BUILD_NICE - os.nice(0)))


def build_index(root: str, background: bool = False) -> None:
    """Build (or bring up to date) the persisted index of the repo at ``root``: :func:`spawn_build`'s process.

    Its output goes nowhere: the parent may be a full-screen app on the same terminal.

    Args:
        root: the work tree.
        background: a detached build a recall started while it answered from a scan
            (:mod:`.recallscan`): at a low CPU priority (:data:`BUILD_NICE`), and only when no other
            such build holds :func:`build_lock` (one at a time; a killed one
            leaves its batches, and the next resumes from them).
    """
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    from memrepo.engine.redaction import allow

    # Redacted as the parent's own index would be: values marked false alarms here stay (docs/architecture.md §3).
    # Only where there is a list: an active one costs a stat a redaction (about 10% of a build), and with none
    # nothing is allowed (a list made during the build empties the index at the next open, .recallopen).
    state = index_path(Path(root)).parent
    if (state / allow.FILE_NAME).exists():
        allow.activate(state)
    if not background:
        RecallIndex(Path(root)).sync()
        return
    low_priority()
    with build_lock(Path(root)) as free:
        if not free:
            return  # another build runs
        index = RecallIndex(Path(root))
        try:
            index.sync()
        finally:
            index.close()
