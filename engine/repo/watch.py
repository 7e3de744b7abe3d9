"""Live change events from the work tree, streamed by watchfiles (docs/architecture.md §4).

Watches the work tree and, of ``.git``, only the files that say HEAD or a git
operation's state moved (:func:`is_git_state`); drops editor swap, backup and temp
files (vim's ``4913`` probe, ``*.swp``, ``*~``, emacs ``.#name`` and
``#name#``, the engine's own temp files); coalesces bursts into one
:class:`~memrepo.engine.models.ChangeEvent` (debounced).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import watchfiles

from memrepo.engine.format.scratch import is_scratch_name
from memrepo.engine.models import ChangeEvent
from memrepo.engine.repo.pollguard import SameSecondGuard

DEBOUNCE_MS = 400
"""Longest a burst of changes is gathered before one event goes out (milliseconds)."""
STEP_MS = 50
"""Quiet time that ends a burst early (milliseconds)."""
POLL_DELAY_MS = 500
"""How often the polling fallback looks at the tree (milliseconds)."""
MOUNTINFO = Path("/proc/self/mountinfo")
SYSCTL_FIX = (
    "to watch natively raise fs.inotify.max_user_watches: sudo sysctl fs.inotify.max_user_watches=524288"
    " (and fs.inotify.max_user_instances=1024 at the instance limit)"
)
"""The fix Health shows when the kernel's inotify limits made the watcher poll."""

CANARY = ".git/memrepo/watch-armed"
"""Written by the polling fallback until the poller reports it: only then is every later change seen (the
poller takes its first look at the tree after ``awatch`` starts; an edit before that look is in its baseline
and never reported: 3 of 5 edits made 0.3 s after starting were lost)."""

_REMOTE_FS = frozenset(
    {"nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "sshfs", "virtiofs", "afs", "ceph", "glusterfs", "lustre", "vboxsf"}
)
_LIMIT_ERRNOS = frozenset({errno.ENOSPC, errno.EMFILE, errno.ENFILE})

log = logging.getLogger(__name__)

_GIT_STATE_FILES = frozenset(
    {
        "HEAD",
        "packed-refs",
        "MERGE_HEAD",
        "REBASE_HEAD",
        "CHERRY_PICK_HEAD",
        "REVERT_HEAD",
        "BISECT_LOG",
        "index.lock",
    }
)
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
    return is_scratch_name(parts[-1])


class WorkTreeFilter(watchfiles.BaseFilter):
    """A watchfiles filter for one work tree (see :func:`is_ignored`)."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = str(root).rstrip("/") + "/"

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        """Return True to keep the event for ``path`` (the polling fallback's :data:`CANARY` too)."""
        if not path.startswith(self.root):
            return False
        rel = path[len(self.root) :]
        return rel == CANARY or not is_ignored(rel)


@dataclass
class WatchMode:
    """How the watcher watches: natively (inotify and the like) or by polling, and why.

    ``polling`` is None while watching natively, else the reason (shown in Health);
    ``fix`` is what the user can do about it, or None.
    """

    polling: str | None = None
    fix: str | None = None


def _unescape(field: str) -> str:
    """A mountinfo path field with its octal escapes (``\\040`` for a space) decoded."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def remote_mount(root: Path, mountinfo: Path = MOUNTINFO) -> str | None:
    """The type of the network, FUSE or 9p file system ``root`` is on, or None for a local one.

    Reads ``/proc/self/mountinfo`` (Linux); elsewhere, or when it cannot be read, None.
    Native change events do not arrive from the other side of such a mount.

    Args:
        root: the work tree.
        mountinfo: the mount table to read (a test passes its own).
    """
    try:
        lines = mountinfo.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    target = os.path.realpath(root)
    best: tuple[int, str] | None = None
    for line in lines:
        left, sep, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if not sep or len(fields) < 5 or not tail:
            continue
        point = _unescape(fields[4])
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and (best is None or len(point) >= best[0]):
            best = (len(point), tail[0])
    if best is None:
        return None
    fstype = best[1]
    if fstype in _REMOTE_FS or fstype == "fuse" or fstype.startswith("fuse."):
        return fstype
    return None


def _limit_error(exc: BaseException) -> bool:
    """Whether ``exc`` says the kernel's watch or instance limit was hit.

    watchfiles names the watch limit ("OS file watch limit reached"); at the instance limit it raises
    its internal error with the OS's text ("Too many open files (os error 24)").
    """
    if isinstance(exc, OSError) and exc.errno in _LIMIT_ERRNOS:
        return True
    text = str(exc).lower()
    if "limit" in text and ("watch" in text or "inotify" in text):
        return True
    return any(f"os error {code}" in text for code in _LIMIT_ERRNOS) or "too many open files" in text


def inotify_room(root: Path) -> str | None:
    """Why the kernel's inotify limits cannot watch every folder under ``root``, or None when they can.

    watchfiles adds one inotify watch per folder (``.git``'s too); past the watch limit it stops adding
    them without an error, so changes in the folders left out never arrive. This adds the same watches
    on an instance of its own first (then lets them go): a refusal means the native watcher would fall
    short. Linux only; elsewhere, or when the look itself fails, None.
    """
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        init, add = libc.inotify_init1, libc.inotify_add_watch
    except (OSError, AttributeError):
        return None
    fd = init(os.O_CLOEXEC)
    if fd < 0:
        code = ctypes.get_errno()
        if code in _LIMIT_ERRNOS:
            return f"the kernel's inotify instance limit was reached ({os.strerror(code)})"
        return None
    try:
        folders = [str(root)]
        for folder, dirs, _files in os.walk(root):
            folders.extend(os.path.join(folder, name) for name in dirs)
        for n, folder in enumerate(folders):
            if add(fd, os.fsencode(folder), 0x2) < 0:  # IN_MODIFY: any mask takes a watch
                code = ctypes.get_errno()
                if code == errno.ENOSPC:
                    return f"the kernel's inotify watch limit leaves room for {n} of the {len(folders)} folders"
                if code in _LIMIT_ERRNOS:
                    return f"the kernel's inotify limits refuse a watch ({os.strerror(code)})"
    finally:
        os.close(fd)
    return None


async def watch_changes(
    root: Path,
    stop_event: asyncio.Event | None = None,
    debounce_ms: int = DEBOUNCE_MS,
    mode: WatchMode | None = None,
    on_armed: Callable[[bool], None] | None = None,
) -> AsyncIterator[ChangeEvent]:
    """Yield a :class:`ChangeEvent` for each burst of work-tree changes.

    Watches natively unless the tree is on a network, FUSE or 9p mount
    (:func:`remote_mount`) or the native watch fails at the kernel's limits
    (inotify watches or instances): then it polls, and says why in ``mode``.

    Args:
        root: the work tree's absolute path.
        stop_event: set it to end the stream.
        debounce_ms: longest gathering window (milliseconds).
        mode: updated with how the tree is watched (the caller shows it in Health).
        on_armed: called with True once every change from then on will be yielded (the
            watches are in place), and with False when a stream failed and events may
            have been missed before the polling fallback arms again (docs/architecture.md §4).

    Yields:
        ChangeEvent: sorted work-tree paths changed in the burst, and whether
        HEAD or the repo's state moved.
    """
    root = Path(root)
    mode = mode if mode is not None else WatchMode()
    fstype = remote_mount(root)
    if fstype is not None:
        mode.polling, mode.fix = (
            f"the folder is on a {fstype} mount, whose changes from elsewhere raise no events",
            None,
        )
    else:
        short = await asyncio.to_thread(inotify_room, root)
        if short is not None:
            log.warning("native watching would miss changes (%s): polling instead", short)
            mode.polling, mode.fix = f"polling the whole work tree: {short}", SYSCTL_FIX
    while True:
        try:
            async for event in _stream(
                root, stop_event, debounce_ms, polling=mode.polling is not None, on_armed=on_armed
            ):
                yield event
            return
        except (OSError, RuntimeError) as exc:
            if on_armed is not None:
                on_armed(False)
            if mode.polling is not None or not _limit_error(exc):
                raise
            log.warning("native watching failed (%s): polling instead", exc)
            mode.polling, mode.fix = (
                f"polling the whole work tree: the kernel's inotify limit was reached ({exc})",
                SYSCTL_FIX,
            )


async def _stream(
    root: Path,
    stop_event: asyncio.Event | None,
    debounce_ms: int,
    *,
    polling: bool,
    on_armed: Callable[[bool], None] | None = None,
) -> AsyncIterator[ChangeEvent]:
    prefix = str(root).rstrip("/") + "/"
    armed = None
    canary: asyncio.Task[None] | None = None
    # The poller misses a second change in the same second (pollguard.py); the guard looks again each turn.
    guard = SameSecondGuard(root, is_ignored) if polling else None
    seeded = False
    if on_armed is not None and polling:
        canary = asyncio.get_running_loop().create_task(_write_canary(root / CANARY))
    elif on_armed is not None:
        # watchfiles' awatch builds its RustNotify (which adds every inotify watch, or the
        # poller's first scan, before it returns) before its first await; the watcher keeps
        # every change from then until its watch() call collects them. So this callback,
        # run at the stream's first pause, runs once no change can be missed
        # (tests/core/test_watch_armed.py checks it against the real library).
        armed = asyncio.get_running_loop().call_soon(on_armed, True)
    try:
        async for batch in watchfiles.awatch(
            root,
            watch_filter=WorkTreeFilter(root),
            debounce=debounce_ms,
            step=STEP_MS,
            stop_event=stop_event,
            ignore_permission_denied=True,
            force_polling=polling,
            poll_delay_ms=POLL_DELAY_MS,
            rust_timeout=POLL_DELAY_MS if polling else None,  # polling: a turn (maybe empty) every look
            yield_on_timeout=polling,
        ):
            rel = {p[len(prefix) :] for _, p in batch if p.startswith(prefix)}
            arming = False
            if CANARY in rel:
                rel.discard(CANARY)
                if canary is not None and not canary.done():
                    canary.cancel()
                    arming = on_armed is not None
            if guard is not None:
                if not seeded and (canary is None or arming):
                    await asyncio.to_thread(guard.seed)  # before arming: a file of this second is watched
                    seeded = True
                found = guard.changed()
                guard.saw(rel)
                rel |= found
            if arming and on_armed is not None:
                on_armed(True)  # the poller saw a change made after its first look
            git = any(p.startswith(".git/") for p in rel)
            paths = sorted(p for p in rel if not p.startswith(".git/"))
            if paths or git:
                yield ChangeEvent(paths=paths, git=git)
    except BaseException:
        if armed is not None:
            armed.cancel()  # the watcher failed to start: it never armed
        raise
    finally:
        if canary is not None:
            canary.cancel()


async def _write_canary(path: Path) -> None:
    """Write ``path`` every poll until cancelled (the stream cancels it once the poller reported it)."""
    n = 0
    while True:
        await asyncio.sleep(POLL_DELAY_MS / 1000)
        n += 1
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"{n}\n")
        except OSError:
            return  # a read-only .git: no canary; the stream never says armed (reads keep checking files)
