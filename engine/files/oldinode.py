"""Edits saved into a file's old inode while memrepo replaced it are kept (docs/architecture.md §3).

An atomic write renames a temp file over the target. A program that opened
the target just before the rename (an appending loop, an editor saving in
place) writes into the old inode, which no longer has a name: without a
look after the rename, that text is gone. :class:`OldInodes` keeps the old
inode open for a short while after each replace and hands back what was
written into it, so the writer can merge it into the file and commit it as
a hand edit. Each watched inode is also hard linked under
``.git/memrepo/oldinodes/`` (:mod:`.oldlinks`): a process that did not
watch it (the writer was killed or ended) adopts it (:meth:`OldInodes.adopt`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memrepo.engine.files import oldlinks
from memrepo.engine.files.atomic import atomic_write

WATCH_SECONDS = 10.0
"""How long an old inode is watched after memrepo replaced its file (seconds; an editor or a script
stalled by a loaded machine may write into it late)."""
MAX_WATCHED = 64
"""Old inodes watched at once; the oldest is let go first."""
SETTLE_QUIET = 0.3
"""Seconds an old inode's size and mtime must stay the same before what was written into it counts as a
whole save (as :data:`memrepo.engine.write.settle.SETTLE_QUIET` for a file with a name)."""
SETTLE_LIMIT = 3.0
"""Seconds to wait at most for an old inode that keeps changing; then it is looked at again by the next write."""
SETTLE_POLL = 0.05
"""Seconds between two looks at an old inode being written."""
HELD_QUIET = 5.0
"""Seconds an old inode another process still holds open for writing must stay unchanged before what it holds
counts as a whole save anyway (a program that keeps it open and never closes it); one nobody holds needs only
:data:`SETTLE_QUIET`."""
HELD_POLL = 0.1
HELD_WATCH_SECONDS = 3600.0
"""How long, at most, an old inode is watched past :data:`WATCH_SECONDS` while another process still holds it open
for writing: an editor that opened the file before memrepo's rename may save into it minutes later (on a loaded
machine, or a person who saves late); letting it go then lost that save."""
HELD_RECHECK = 5.0
"""Seconds between two looks (``/proc``) at whether an expired watch's inode is still held open for writing."""
"""Seconds between two looks for the process still writing an old inode (each look reads ``/proc``)."""
SALVAGED = "salvaged.json"
"""Under ``.git/memrepo/``: for each file salvage merged an old inode's text into, a hash of the merged bytes, so
that every process judges that save strictly while the file holds them (:func:`salvaged`)."""
FD_SHARE = 8
"""At most one descriptor in this many of the process's limit (``ulimit -n``) holds an old inode: a low
limit leaves the writes their descriptors (docs/architecture.md §3)."""


def watch_cap() -> int:
    """How many old inodes may be watched at once: :data:`MAX_WATCHED`, fewer under a low ``ulimit -n`` (at least 2)."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return MAX_WATCHED
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return MAX_WATCHED
    return max(2, min(MAX_WATCHED, soft // FD_SHARE))


def open_old(path: str | os.PathLike[str]) -> int | None:
    """A read-only descriptor of the regular file at ``path`` (never a FIFO or a symlink), or None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def read_fd(fd: int) -> bytes:
    """The whole content of the file behind ``fd``."""
    size = os.fstat(fd).st_size
    chunks = []
    offset = 0
    while True:
        chunk = os.pread(fd, max(size - offset, 0) + 65536, offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def _stamp(fd: int) -> tuple[int, int]:
    st = os.fstat(fd)
    return st.st_size, st.st_mtime_ns


def wait_still(
    stamp: Callable[[], tuple[int, int] | None], quiet: float = SETTLE_QUIET, limit: float = SETTLE_LIMIT
) -> bool:
    """Wait until ``stamp()`` (a file's size and mtime) has not changed for ``quiet`` seconds; False after ``limit``.

    A file last changed longer than ``quiet`` ago (the usual case) returns at once; a stamp of None (the
    file is gone) counts as still. Shared by the old inodes here and the named files of
    :func:`memrepo.engine.write.settle.wait_settled` (docs/architecture.md §3).
    """
    deadline = time.monotonic() + limit
    now = stamp()
    if now is None or time.time_ns() - now[1] >= quiet * 1e9:
        return True
    since = time.monotonic()
    while True:
        time.sleep(SETTLE_POLL)
        later = stamp()
        if later is None:
            return True
        if later != now:
            now, since = later, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return True
        if time.monotonic() >= deadline:
            return False


def settled(fd: int, quiet: float = SETTLE_QUIET, limit: float = SETTLE_LIMIT) -> bool:
    """Wait until the file behind ``fd`` has kept its size and mtime for ``quiet`` seconds; False after ``limit``.

    An editor saving in place truncates the file, then writes its buffer,
    on a loaded machine in parts: what the inode holds in between is half a
    save, never to be merged or committed (docs/architecture.md §3).

    Raises:
        OSError: ``fd`` can no longer be looked at.
    """
    return wait_still(lambda: _stamp(fd), quiet, limit)


def held_for_writing(fd: int) -> bool:
    """True when a process holds the inode behind ``fd`` open for writing: an editor that opened the file before
    memrepo's rename and has not finished its save into it (vim with ``backupcopy=yes``, nano: open with
    truncation, write the buffer, close).

    Looks at ``/proc/*/fd`` of the processes this user may read (a few ms for a thousand descriptors; only on
    the rare path of an old inode written into). False where there is no ``/proc``: the quiet time alone
    decides there, as before.
    """
    try:
        st = os.fstat(fd)
        pids = os.listdir("/proc")
    except OSError:
        return False
    inode = (st.st_dev, st.st_ino)
    for pid in pids:
        if not pid.isdigit():
            continue
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue  # gone, or another user's
        for n in fds:
            try:
                other = os.stat(f"/proc/{pid}/fd/{n}")
                if (other.st_dev, other.st_ino) != inode:
                    continue
                with open(f"/proc/{pid}/fdinfo/{n}", encoding="ascii") as info:
                    flags = next((int(line.split()[1], 8) for line in info if line.startswith("flags:")), 0)
            except (OSError, ValueError, IndexError):
                continue
            if flags & os.O_ACCMODE in (os.O_WRONLY, os.O_RDWR):
                return True
    return False


def finished(fd: int, seen: bytes, limit: float = SETTLE_LIMIT) -> bool:
    """Wait until what was written into the old inode behind ``fd`` is a whole save; False after ``limit``.

    Whole: its size and mtime kept for :data:`SETTLE_QUIET` (:func:`settled`) and no process holds it open for
    writing any more (:func:`held_for_writing`). An editor preempted between its truncation and its write (a
    loaded machine) leaves the inode empty or half written and quiet for longer than the settle time: that
    half save was merged into the file (breaker10 B10-6, then asked about as a torn save); it is now waited for
    until the editor closes the file. Still taken while held: ``seen`` plus whole lines (an appending
    program), or an inode unchanged for :data:`HELD_QUIET` (one that never closes it).
    """
    deadline = time.monotonic() + limit
    while True:
        if not settled(fd, limit=max(deadline - time.monotonic(), 0.0)):
            return False
        size, mtime = _stamp(fd)
        if time.time_ns() - mtime >= HELD_QUIET * 1e9 or not held_for_writing(fd):
            return True
        if size > len(seen) and os.pread(fd, len(seen), 0) == seen and os.pread(fd, 1, size - 1) == b"\n":
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(HELD_POLL)


@dataclass
class OldInode:
    """A replaced file's old inode, still open.

    Attributes:
        rel: the repo-relative path it had.
        fd: its read-only descriptor.
        seen: its content as memrepo last knew it (the merge base of what is written into it later).
        stamp: size and mtime when ``seen`` was taken.
        since: when the watch started (monotonic seconds).
    """

    rel: str
    fd: int
    seen: bytes
    stamp: tuple[int, int]
    since: float = field(default_factory=time.monotonic)
    held_at: float = 0.0
    held: bool = False
    key: str | None = None
    """Its name under ``.git/memrepo/oldinodes/`` (:mod:`.oldlinks`), or None when it has none."""
    state: Path | None = None

    def expired(self, now: float) -> bool:
        """True when the watch may end: older than :data:`WATCH_SECONDS`, nothing written into it since ``seen``, and
        no other process still holds the inode open for writing (looked at every :data:`HELD_RECHECK` seconds, up to
        :data:`HELD_WATCH_SECONDS`). A process holding it may still save into it: that save had no name left.
        """
        age = now - self.since
        if age <= WATCH_SECONDS or not self.untouched():
            return False
        if age > WATCH_SECONDS + HELD_WATCH_SECONDS:
            return True
        if now - self.held_at >= HELD_RECHECK:
            self.held_at = now
            self.held = held_for_writing(self.fd)
        return not self.held

    def untouched(self) -> bool:
        """True when nothing was written into the inode since ``seen`` (or it cannot be read any more)."""
        try:
            return _stamp(self.fd) == self.stamp
        except OSError:
            return True

    def took(self, data: bytes) -> None:
        """``data``, read from the inode, is merged (or was what memrepo saw): the next save is merged on top of it,
        in this process and in any other that finds its link."""
        self.seen = data
        if self.key is not None and self.state is not None:
            oldlinks.update(self.state, self.key, self.rel, data, self.stamp)

    def unlinked(self) -> bool:
        """True when this inode had a link and it is gone: forget, clear or compaction removed it, or the process
        that merged its last save ended the watch. A process that adopted it must not merge it again: a save
        merged by another, then forgotten, came back (breaker19 B19-7)."""
        return self.key is not None and self.state is not None and not oldlinks.linked(self.state, self.key)

    def _follow_link(self) -> None:
        """Take the merge base another process recorded after it salvaged this inode (its link's base)."""
        if self.key is None or self.state is None:
            return
        linked = oldlinks.read(self.state, self.key)
        if linked is not None and linked.stamp != self.stamp:
            self.seen, self.stamp = linked.seen, linked.stamp

    def written(self) -> bytes | None:
        """What the inode holds now when someone wrote into it since ``seen`` and finished, else None.

        A write still going on (the size or mtime changed in the last
        :data:`SETTLE_QUIET` seconds, changed while it was read, or a process
        still holds the inode open for writing: :func:`finished`) is waited
        for up to :data:`SETTLE_LIMIT`, then left for the next look: half a
        save is never handed back.
        """
        try:
            if _stamp(self.fd) == self.stamp or self.unlinked():
                return None
            self._follow_link()
            if _stamp(self.fd) == self.stamp:
                return None
            if not finished(self.fd, self.seen):
                return None
            before = _stamp(self.fd)
            data = read_fd(self.fd)
            after = _stamp(self.fd)
        except OSError:
            return None
        if before != after:
            return None  # written into while read: the next look takes it
        self.stamp = after
        if data == self.seen:
            self.took(data)
            return None
        return data


class OldInodes:
    """The old inodes of files the writer replaced in the last :data:`WATCH_SECONDS`.

    One per repository and process (:meth:`shared`): a program that opens a
    new store for each write (the write server, an engine API caller) still
    has its last writes' old inodes looked at by the next one. Expired watches
    are let go at the next watch or :meth:`prune`; at most :func:`watch_cap`
    descriptors are held.
    """

    _shared: dict[str, OldInodes] = {}  # noqa: RUF012 - the per-process registry, by real .git path

    def __init__(self, state: Path | None = None) -> None:
        self.state = state
        """``.git/memrepo/``: each watched inode is linked there (:mod:`.oldlinks`); None: this process's alone."""
        self._watched: list[OldInode] = []
        self._cap = watch_cap()
        self.merged: dict[str, bytes] = {}
        """The bytes the writer last merged into each file from its old inode (``Writer.salvage``): a save from a
        copy older than memrepo's rename, judged strictly while the file holds them (engine/write/stalesave.py)."""

    @classmethod
    def shared(cls, git_dir: str | os.PathLike[str]) -> OldInodes:
        """The watch list of the repository at ``git_dir`` in this process (made on first use)."""
        key = os.path.realpath(git_dir)
        found = cls._shared.get(key)
        if found is None:
            found = cls._shared[key] = cls(Path(key) / "memrepo")
        return found

    def watch(self, rel: str, fd: int, seen: bytes | None) -> None:
        """Watch ``fd``, the inode ``rel`` has until memrepo replaces it; takes the descriptor.

        Call it just before the rename. ``seen`` is the content memrepo read
        and built on (None: it did not read the file, so what it holds now is known).
        """
        try:
            stamp = _stamp(fd)
            now = read_fd(fd)
        except OSError:
            os.close(fd)
            return
        if seen is None:
            seen = now
        elif now != seen:
            stamp = (-1, -1)  # written into since memrepo read it: the first look reports it
        self.prune()
        key = None if self.state is None else oldlinks.keep(self.state, fd, rel, seen, stamp)
        self._watched.append(OldInode(rel, fd, seen, stamp, key=key, state=self.state))
        while len(self._watched) > self._cap:
            self._close(self._watched[0], ended=False)  # its link stays: a process with room adopts it

    def adopt(self, root: Path) -> None:
        """Watch the linked old inodes this process does not (:func:`.oldlinks.found`): those a process killed or
        gone since left, whose saves would have no name otherwise (the write server SIGKILLed before its tick)."""
        if self.state is None or not oldlinks.real_folder(self.state / oldlinks.LINKS_DIR):
            return
        mine = set()
        for old in self._watched:
            with contextlib.suppress(OSError):
                mine.add(old.key or oldlinks.key_of(old.fd))
        for found in oldlinks.found(self.state, frozenset(mine)):
            if len(self._watched) >= self._cap:
                break
            fd = oldlinks.open_link(self.state, found.key)
            if fd is None:
                continue
            if not oldlinks.inside(root, found.rel):  # a path out of the work tree: never written (B19-4)
                os.close(fd)
                oldlinks.drop(self.state, found.key)
                continue
            try:
                named = os.stat(root / found.rel)
                if oldlinks.key_of(fd) == f"{named.st_dev}-{named.st_ino}":  # never renamed over: no old inode
                    os.close(fd)
                    oldlinks.drop(self.state, found.key)
                    continue
            except OSError:
                pass
            since = time.monotonic() - max(time.time() - found.at, 0.0)
            self._watched.append(
                OldInode(found.rel, fd, found.seen, found.stamp, since, key=found.key, state=self.state)
            )

    def prune(self) -> None:
        """Let go of the watches that expired (:meth:`OldInode.expired`); those written into the next write merges."""
        now = time.monotonic()
        for old in list(self._watched):
            if old.expired(now):
                self._close(old)

    def __len__(self) -> int:
        return len(self._watched)

    def touched(self) -> bool:
        """True when some watched inode was written into since memrepo last looked (a save for the next salvage),
        here or in a linked one another process left (:func:`.oldlinks.written`)."""
        if any(not old.untouched() for old in self._watched):
            return True
        return self.state is not None and oldlinks.written(self.state)

    def _close(self, old: OldInode, ended: bool = True) -> None:
        """Stop watching ``old``; ``ended``: its watch is over for every process, so its link goes too."""
        self._watched.remove(old)
        if ended and old.key is not None and old.state is not None:
            oldlinks.drop(old.state, old.key)
        with contextlib.suppress(OSError):
            os.close(old.fd)

    def take_written(self) -> list[tuple[OldInode, bytes]]:
        """Every watched inode written into since memrepo saw it, with its content; expired watches end."""
        out = []
        now = time.monotonic()
        for old in list(self._watched):
            data = old.written()
            if data is not None:
                out.append((old, data))
            elif old.unlinked():
                self._close(old, ended=False)  # its link is gone: its watch ended for every process
            elif old.expired(now):
                self._close(old)
        return out

    def close(self) -> None:
        """Stop watching (the writer closes); the links stay for the next process to adopt."""
        for old in list(self._watched):
            self._close(old, ended=False)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


def _salvaged_map(state: Path) -> dict[str, str]:
    try:
        found = json.loads((state / SALVAGED).read_bytes())
    except (OSError, ValueError):
        return {}
    return (
        {k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(found, dict) else {}
    )


def note_salvaged(state: Path, rel: str, data: bytes | None) -> None:
    """Record (``data``) or drop (None) that ``rel`` holds text salvage merged in from an old inode.

    The record was only in the salvaging process's memory (``OldInodes.merged``): a status, a
    ``commit-hand-edits`` or the app in another process judged the merged save as a fresh hand edit, and a
    stale save that dropped the agent's line written just before was committed with no question (loss10
    stress; a kill of the write server did the same). A failure to write costs only that strictness.
    """
    now = _salvaged_map(state)
    if data is None:
        if rel not in now:
            return
        del now[rel]
    else:
        now[rel] = _digest(data)
    with contextlib.suppress(OSError):
        if now:
            atomic_write(state / SALVAGED, json.dumps(now, sort_keys=True).encode(), private=True)
        else:
            (state / SALVAGED).unlink(missing_ok=True)


def salvaged(state: Path, rel: str, data: bytes) -> bool:
    """True when ``rel``'s bytes ``data`` are what salvage last merged into it, in any process (:func:`note_salvaged`)."""
    digest = _salvaged_map(state).get(rel)
    return digest is not None and digest == _digest(data)
