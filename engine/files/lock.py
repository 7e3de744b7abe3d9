"""The cross-process write lock and git's own lock files (docs/architecture.md §3).

A :class:`filelock.FileLock` on ``.git/memrepo/write.lock``: one write at a
time across processes. A holder record (pid, purpose, time) next to it lets
health show the holder; a record whose process is dead is never named.

git and libgit2 take ``index.lock``, ``HEAD.lock``, ``packed-refs.lock``,
``shallow.lock`` (a fetch) and ``refs/**.lock`` by creating the file and keep it open until they rename it
into place. So a lock file that no live process has open (seen through
``/proc/<pid>/fd``) and that is older than :data:`STALE_LOCK_S` was left by
a killed process (memrepo's own writer or a git command) and is removed by
:func:`settle_git_locks`; one a live process holds is waited for with
bounded backoff, then refused with one message naming that process.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from memrepo.engine.errors import BusyError

from .lockholder import confirmed_unheld as confirmed_unheld  # re-exported: the git layer asks it here
from .lockholder import lock_holder, pid_alive
from .remoteclean import NETWORK_HOLDERS, forget_dead_network_holder, settled_record

GIT_LOCK_WAIT_S = 3.0
"""Longest a writer waits for another git process's lock file before "busy" (seconds)."""
STALE_LOCK_S = 10.0
"""A git lock file no live process holds open is stale once this old (seconds)."""
STALE_UNSEEN_S = 60.0
"""Without ``/proc`` (no way to see who holds a lock file) a lock file is stale once this old (seconds)."""
UNHELD_GRACE_S = 0.05
"""How long a young lock file nobody holds is given to go (a git command renames it right after closing it)."""
STATUS_WAIT_S = 0.25
"""How long a status check by the write-lock holder waits for a live git process's lock file (seconds)."""
_ROOT_LOCKS = ("index.lock", "HEAD.lock", "packed-refs.lock", "config.lock", "ORIG_HEAD.lock", "shallow.lock")
"""Lock files directly in ``.git``: ``shallow.lock`` is libgit2's, taken after every pack a fetch
downloads (a killed fetch leaves it and every later fetch fails "failed to lock file")."""

LOCK_TIMEOUT_S = 5.0
"""How long a writer waits for the lock before failing with "busy, retry" (seconds)."""
POLL_S = 0.005
"""How often a waiting writer retries the lock (seconds)."""


def state_dir(git_dir: Path) -> Path:
    """The engine's own state folder, ``.git/memrepo/`` (created when missing), private to its owner (0700).

    It holds the recall index, caches and the allow-list (docs/architecture.md §4): a folder made before it
    was private is made so here.
    """
    path = Path(git_dir) / "memrepo"
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o700)
    return path


def private_lock(path: Path, timeout: float = -1, *, thread_local: bool = True) -> FileLock:
    """A filelock on ``path``, owner only like every file under ``.git/memrepo/`` (docs/architecture.md §4).

    filelock's ``mode`` makes the file 0600 when it creates it; a lock file an older memrepo made 0644 is
    tightened here (one ``stat``; an error to do so is ignored: the folder is 0700 anyway).

    Args:
        path: the lock file.
        timeout: seconds to wait when taking it (-1: forever), as filelock takes it.
        thread_local: filelock's flag (False when another thread may release it).
    """
    with contextlib.suppress(OSError):
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
    return FileLock(str(path), timeout=timeout, mode=0o600, thread_local=thread_local)


class WriteLock:
    """The repo's write lock; re-entrant within one process and thread.

    Args:
        git_dir: the repository's ``.git`` folder.
        timeout: seconds to wait before :class:`BusyError`.
    """

    def __init__(self, git_dir: Path, timeout: float = LOCK_TIMEOUT_S) -> None:
        folder = state_dir(git_dir)
        self.git_dir = Path(git_dir)
        self.path = folder / "write.lock"
        self.holder_path = folder / "write.holder"
        self.timeout = timeout
        self._lock = private_lock(self.path, timeout, thread_local=False)
        self.killed = False
        """Whether the holder that took the lock last (outermost) found a killed writer's record."""
        self.on_release: Callable[[], None] | None = None
        """Run after the lock is let go by its outermost holder (the writer fsyncs its commits there)."""

    @contextmanager
    def hold(self, purpose: str, timeout: float | None = None) -> Iterator[None]:
        """Hold the lock for one write.

        Args:
            purpose: a few words recorded for health (``remember``, ``forget``).
            timeout: seconds to wait for it (default: the lock's ``timeout``).

        Raises:
            BusyError: another writer kept the lock for that long.
        """
        wait = self.timeout if timeout is None else timeout
        try:
            # A short poll so a waiting writer gets its turn between another
            # process's back-to-back writes (flock itself is polled, not queued).
            self._lock.acquire(timeout=wait, poll_interval=POLL_S)
        except Timeout as exc:
            holder = self.holder()
            who = f" (held by pid {holder.get('pid')} for {holder.get('purpose')})" if holder else ""
            raise BusyError(f"memory repo is busy: another write held the lock for {wait:g} s{who}; retry") from exc
        try:
            if self._lock.lock_counter == 1:
                killed_at = killed_writer_at(self.git_dir)
                self.holder_path.write_text(json.dumps({"pid": os.getpid(), "purpose": purpose, "at": time.time()}))
                # A killed writer's or a dead git command's lock files go; a
                # live git process's are waited for (then "busy").
                settle_git_locks(self.git_dir, killed_at=killed_at)
                # Its temp files are invisible to git (info/exclude): the writer finds them (undo.recover).
                self.killed = killed_at is not None
                forget_dead_network_holder(self.git_dir)
            yield
        finally:
            outermost = self._lock.lock_counter == 1
            if outermost:
                # Only a live holder is ever named in a busy error.
                self.holder_path.unlink(missing_ok=True)
            self._lock.release()
            if outermost and self.on_release is not None:
                self.on_release()

    @contextmanager
    def try_hold(self) -> Iterator[bool]:
        """Take the lock only if it is free right now; yields whether it was taken.

        For opportunistic upkeep (refreshing the index's stat data) that a
        reader may do but must never wait for.
        """
        try:
            self._lock.acquire(timeout=0)
        except Timeout:
            yield False
            return
        try:
            yield True
        finally:
            self._lock.release()

    def holder(self) -> dict[str, object] | None:
        """Who holds the lock, if its record exists and names a live process: ``{pid, purpose, at}``.

        A record a killed writer left (its process is gone) is never named.
        """
        try:
            record = json.loads(self.holder_path.read_text())
        except (OSError, ValueError):
            return None
        if not isinstance(record, dict) or not pid_alive(record.get("pid")):
            return None
        return record


# -- git's lock files ----------------------------------------------------------


def git_lock_files(git_dir: Path) -> list[Path]:
    """The lock files git or libgit2 left or hold in ``git_dir`` right now (index, HEAD, shallow, refs)."""
    git_dir = Path(git_dir)
    found = [git_dir / name for name in _ROOT_LOCKS if (git_dir / name).is_file()]
    refs = git_dir / "refs"
    if refs.is_dir():
        found += sorted(p for p in refs.rglob("*.lock") if p.is_file())
    return found


def live_git_lock(git_dir: Path) -> tuple[Path, tuple[int, str]] | None:
    """A git lock file in ``git_dir`` a live process (not this one) holds, with its ``(pid, command line)``; or None.

    ``git commit -a`` waiting in its editor holds ``index.lock`` (closed, no file descriptor): its process is
    found by :func:`~.lockholder.lock_holder` all the same, so a retry waits for it instead of breaking it.
    """
    for path in git_lock_files(git_dir):
        holder = lock_holder(path)
        if holder is not None and holder[0] != os.getpid():
            return path, holder
    return None


def describe_git_lock(git_dir: Path, path: Path) -> str:
    """One line on a lock file for status and health: who holds it, or that nobody does and when it goes."""
    rel = Path(path).relative_to(git_dir).as_posix()
    what = (
        "the git index is locked (.git/index.lock)" if rel == "index.lock" else f"git's lock file .git/{rel} is there"
    )
    holder = lock_holder(path)
    if holder is not None:
        return f"{what}: another git process (pid {holder[0]}: {holder[1]}) holds it; writes wait for it"
    limit = STALE_LOCK_S if Path("/proc/self/fd").is_dir() else STALE_UNSEEN_S
    when = "" if _stale(Path(path), time.time(), None) else f" once it is {limit:g} s old"
    return (
        f"{what} but no process holds it (a killed git command left it): the next write removes it{when}, or delete it"
    )


HOLDERS = ("write.holder", *NETWORK_HOLDERS)
"""Under ``.git/memrepo/``: the records of memrepo's writer, of its network step (fetch, push) and of a
running dream (its review branch and worktree are made outside the write lock)."""


def killed_writer_at(git_dir: Path) -> float | None:
    """When a memrepo process that was killed took the write lock or started a fetch or push, else None.

    Its holder record is still there and names a dead process (the earliest,
    when both do). Only meaningful to a caller holding the write lock (before
    it writes its own record): then no live writer can own the record. A
    fetch or push runs outside the write lock (docs/architecture.md §3), so a
    killed one's ref locks (``refs/remotes/origin/<branch>.lock``) are known
    as memrepo's own by its ``sync.holder`` record; a dream's
    (``refs/heads/dream/<id>.lock``) by its ``dream.holder`` record.
    """
    times = []
    for name in HOLDERS:
        try:
            record = json.loads((Path(git_dir) / "memrepo" / name).read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(record, dict) or record.get("pid") == os.getpid() or pid_alive(record.get("pid")):
            continue
        if record.get("settled") is True:  # its locks were cleared: only its pack temporary files wait
            continue
        at = record.get("at")
        if isinstance(at, (int, float)):
            times.append(float(at))
    return min(times) if times else None


@contextmanager
def network_holder(git_dir: Path, remote_dir: Path | None = None) -> Iterator[None]:
    """Record this process in ``.git/memrepo/sync.holder`` while it fetches or pushes (see :func:`killed_writer_at`).

    Args:
        git_dir: the memory repo's ``.git`` folder.
        remote_dir: the git folder of a remote on a local path, which a push writes itself (its ref locks
            too), or None; what a killed push left there is cleared with its record
            (:mod:`memrepo.engine.files.remoteclean`).
    """
    kept = settled_record(git_dir, "sync.holder")  # a killed push's young pack temporary files: looked at later
    path = record_holder(git_dir, "sync.holder", "sync", remote=None if remote_dir is None else str(remote_dir))
    try:
        yield
    finally:
        if kept is None:
            path.unlink(missing_ok=True)
        else:
            with contextlib.suppress(OSError):
                path.write_text(json.dumps(kept))


def record_holder(git_dir: Path, name: str, purpose: str, remote: str | None = None) -> Path:
    """Write the holder record ``name`` (one of :data:`HOLDERS`) for this process; returns its path.

    The caller removes it when its git work outside the write lock is done.
    """
    path = Path(git_dir) / "memrepo" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    record: dict[str, object] = {"pid": os.getpid(), "purpose": purpose, "at": time.time()}
    if remote is not None:
        record["remote"] = remote
    path.write_text(json.dumps(record))
    return path


def _stale(path: Path, now: float, killed_at: float | None) -> bool:
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return False
    if killed_at is not None and mtime >= killed_at - 1:
        return True  # taken by the memrepo writer that was killed: its own
    seen = Path("/proc/self/fd").is_dir()
    return now - mtime >= (STALE_LOCK_S if seen else STALE_UNSEEN_S)


def settle_git_locks(git_dir: Path, wait_s: float | None = None, killed_at: float | None = None) -> list[str]:
    """Clear stale git lock files in ``git_dir`` and wait for live ones; the caller holds the write lock.

    A lock file a live process holds open is waited for, with backoff, for
    at most ``wait_s`` seconds. One nobody holds is removed when a killed
    memrepo writer took it (``killed_at``, see :func:`killed_writer_at`) or
    once it is :data:`STALE_LOCK_S` old: git renames a lock file into place
    the moment it closes it, so no live command leaves one unheld. A younger
    unheld one is left in place (status names it; it goes once stale).

    Args:
        git_dir: the repository's ``.git`` folder.
        wait_s: the longest wait; :data:`GIT_LOCK_WAIT_S` when None.
        killed_at: when a killed memrepo writer took the write lock.

    Returns:
        list[str]: the stale lock files removed, relative to ``.git``.

    Raises:
        BusyError: a live process still held a lock file after ``wait_s``
            seconds (the message names the process and the file).
    """
    git_dir = Path(git_dir)
    wait = GIT_LOCK_WAIT_S if wait_s is None else wait_s
    deadline = time.monotonic() + wait
    removed: list[str] = []
    delay = 0.005
    unheld_until = time.monotonic() + min(wait, UNHELD_GRACE_S)
    while True:
        held: list[tuple[Path, tuple[int, str]]] = []
        young = False
        now = time.time()
        for path in git_lock_files(git_dir):
            holder = lock_holder(path)
            if holder is not None:
                if holder[0] != os.getpid():
                    held.append((path, holder))
            elif _stale(path, now, killed_at):
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
                    removed.append(path.relative_to(git_dir).as_posix())
            elif path.exists():
                young = True  # closed a moment ago by a git command about to rename it, or left by a kill
        if not held and not (young and time.monotonic() < unheld_until):
            return removed
        if held and time.monotonic() >= deadline:
            path, (pid, cmd) = held[0]
            rel = path.relative_to(git_dir).as_posix()
            raise BusyError(
                f"another git process (pid {pid}: {cmd}) holds .git/{rel}; memrepo waited {wait:g} s: "
                "retry when it has finished",
                git_lock=True,
            )
        time.sleep(min(delay, max(0.0, deadline - time.monotonic())))
        delay = min(delay * 2, 0.02)


class DreamLock:
    """``.git/memrepo/dream.lock``: one dream at a time across processes (separate from the write lock).

    May be released from another thread than the one that took it.
    """

    def __init__(self, git_dir: Path) -> None:
        self.git_dir = Path(git_dir)
        self.path = state_dir(git_dir) / "dream.lock"
        self._lock = private_lock(self.path, thread_local=False)

    def acquire(self) -> None:
        """Take the lock now or fail; while held, ``dream.holder`` names this process.

        The holder record lets the next writer know a lock file under
        ``refs/heads/dream/`` that a killed dream left as memrepo's own, and
        remove it at once (:func:`memrepo.engine.files.lock.killed_writer_at`).

        Raises:
            BusyError: another dream is running.
        """
        try:
            self._lock.acquire(timeout=0)
        except Timeout as exc:
            raise BusyError("another dream is running on this memory repo; wait for it to finish") from exc
        record_holder(self.git_dir, "dream.holder", "dream")

    def release(self) -> None:
        """Let the lock go (no-op when not held)."""
        if self._lock.is_locked:
            (self.git_dir / "memrepo" / "dream.holder").unlink(missing_ok=True)
            self._lock.release(force=True)
