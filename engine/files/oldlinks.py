"""A name under ``.git/memrepo/oldinodes/`` for each old inode memrepo replaces (docs/architecture.md §3).

:class:`.oldinode.OldInodes` watches the inode a write renamed over, in the
writing process only. A save an editor wrote into it after the rename lived
in an inode with no name that only that process held: the write server
SIGKILLed before its next look (1 s) took the save with it (loss10's stress,
1 user line lost in 14 kills). Before each rename, the old inode is now hard
linked as ``<dev>-<ino>.old`` beside ``<dev>-<ino>.base`` (a JSON line: the
file's path, the inode's size and mtime, the wall time; then the bytes memrepo
built on, the merge base). Any later process that salvages (the next write,
``status``, the write server's tick, the app's quiet-period commit) adopts
the links it does not watch itself (:func:`found`), merges what was written
into them, and removes each once its watch ends.

A hard link needs ``.git`` on the work tree's file system: with a git dir
elsewhere (``--separate-git-dir`` on another disk) the link fails with
``EXDEV`` and the watch is this process's alone, as before. The base is
written without ``fsync``: it guards against a killed process, not a lost
machine (the page cache outlives a SIGKILL).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import time
from dataclasses import dataclass
from pathlib import Path

LINKS_DIR = "oldinodes"
"""Under ``.git/memrepo/``: the hard links of watched old inodes and their merge bases."""
ORPHAN_SECONDS = 60.0
"""A base without its link (a process killed between the two) or a link without its base is removed once older."""
_NAME = re.compile(r"\A(\d+-\d+)\.(old|base)\Z")
"""The names memrepo gives a link and its base; anything else under ``oldinodes/`` is not memrepo's."""
_TMP = re.compile(r"\A\d+-\d+\.base\.tmp\d+\Z")


@dataclass
class Linked:
    """One linked old inode, as a process that did not watch it finds it.

    Attributes:
        key: ``<dev>-<ino>`` of the inode (its files are ``<key>.old`` and ``<key>.base``).
        rel: the repo-relative path the inode had.
        seen: the bytes memrepo built on (the merge base).
        stamp: the inode's size and mtime when ``seen`` was taken ((-1, -1): written into before the rename).
        at: when it was linked (wall-clock seconds).
    """

    key: str
    rel: str
    seen: bytes
    stamp: tuple[int, int]
    at: float


def key_of(fd: int) -> str:
    """The link name of the inode behind ``fd``: ``<dev>-<ino>``."""
    st = os.fstat(fd)
    return f"{st.st_dev}-{st.st_ino}"


def _write_base(folder: Path, key: str, rel: str, seen: bytes, stamp: tuple[int, int], at: float) -> None:
    head = json.dumps({"rel": rel, "stamp": list(stamp), "at": at}).encode()
    tmp = folder / f"{key}.base.tmp{os.getpid()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, head + b"\n" + seen)
    finally:
        os.close(fd)
    os.replace(tmp, folder / f"{key}.base")


def real_folder(folder: Path) -> bool:
    """True when ``folder`` is a directory itself, not a symlink to one (nor a file, nor missing)."""
    try:
        return stat.S_ISDIR(os.lstat(folder).st_mode)
    except OSError:
        return False


def safe_rel(rel: object) -> bool:
    """True when a base's ``rel`` can name a memory file: a relative ``.md`` path with no ``..``, empty or hidden
    part (never ``.git``). A planted base naming ``../x`` or an absolute path made salvage write outside the repo
    (breaker19 B19-4)."""
    if not isinstance(rel, str) or not rel.endswith(".md") or "\\" in rel or "\0" in rel:
        return False
    parts = rel.split("/")
    return not rel.startswith("/") and all(part and not part.startswith(".") for part in parts)


def inside(root: Path, rel: str) -> bool:
    """True when ``root / rel`` is a regular file, or none yet, reached through real folders only (no symlinked
    folder leads out of the work tree)."""
    if not safe_rel(rel):
        return False
    here = root
    for part in rel.split("/")[:-1]:
        here = here / part
        if not real_folder(here):
            return not os.path.lexists(here)  # a folder not made yet holds nothing to follow
    try:
        return stat.S_ISREG(os.lstat(root / rel).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


def keep(state: Path, fd: int, rel: str, seen: bytes, stamp: tuple[int, int]) -> str | None:
    """Link the inode behind ``fd`` (still named ``rel``) under ``state``, with its merge base; its key, or None.

    Called just before memrepo's rename. None when the link cannot be made (a git dir on another file
    system, a full disk, an ``oldinodes`` that is a symlink or not a folder): the watch is then the calling
    process's alone.
    """
    folder = state / LINKS_DIR
    try:
        key = key_of(fd)
        folder.mkdir(mode=0o700, exist_ok=True)
        if not real_folder(folder):
            return None  # a symlink is never followed: the link would hold the file's text somewhere else
        _write_base(folder, key, rel, seen, stamp, time.time())
        dest = folder / f"{key}.old"
        dest.unlink(missing_ok=True)
        _link_fd(fd, dest)
    except OSError:
        with contextlib.suppress(OSError, UnboundLocalError):
            drop(state, key)
        return None
    return key


def _link_fd(fd: int, dest: Path) -> None:
    """Hard link the inode behind ``fd`` as ``dest``: this very inode, even if its name moved since it was opened.

    ``linkat`` through ``/proc/self/fd`` with ``AT_SYMLINK_FOLLOW`` (a plain ``link`` of the magic link fails with
    ``EXDEV``); a directory descriptor makes Python call ``linkat``.
    """
    procfd = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.link(str(fd), dest, src_dir_fd=procfd, follow_symlinks=True)
    finally:
        os.close(procfd)


def update(state: Path, key: str, rel: str, seen: bytes, stamp: tuple[int, int]) -> None:
    """Record a new merge base for ``key`` (salvage merged what was written into it); kept when the link is gone."""
    folder = state / LINKS_DIR
    with contextlib.suppress(OSError):
        if real_folder(folder) and ours(folder, key):
            _write_base(folder, key, rel, seen, stamp, _at(folder / f"{key}.base"))


def _at(base: Path) -> float:
    try:
        with open(base, "rb") as fh:
            return float(json.loads(fh.readline())["at"])
    except (OSError, ValueError, KeyError, TypeError):
        return time.time()


def ours(folder: Path, key: str) -> bool:
    """True when ``key``'s link is one memrepo made: a regular file (never a FIFO, a symlink or a folder) whose
    device and inode are the ones in its name."""
    try:
        st = os.lstat(folder / f"{key}.old")
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and key == f"{st.st_dev}-{st.st_ino}"


def read(state: Path, key: str) -> Linked | None:
    """The base of ``key``, or None when it is gone, unreadable, or names no memory file (:func:`safe_rel`)."""
    folder = state / LINKS_DIR
    if not real_folder(folder):
        return None
    try:
        fd = os.open(folder / f"{key}.base", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            with os.fdopen(os.dup(fd), "rb") as fh:
                data = fh.read()
        finally:
            os.close(fd)
        head, _, seen = data.partition(b"\n")
        meta = json.loads(head)
        size, mtime = (int(n) for n in meta["stamp"])
        if not safe_rel(meta["rel"]):
            return None
        return Linked(key, str(meta["rel"]), seen, (size, mtime), float(meta["at"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def drop(state: Path, key: str) -> None:
    """Remove ``key``'s link and base (its watch ended)."""
    folder = state / LINKS_DIR
    if not real_folder(folder):
        return
    for name in (f"{key}.old", f"{key}.base"):
        _remove(folder / name)


def found(state: Path, skip: frozenset[str] = frozenset()) -> list[Linked]:
    """Every linked old inode under ``state`` with its base, oldest first, but those keyed in ``skip`` (watched by
    the caller: their bases are not read); orphans past :data:`ORPHAN_SECONDS` (a process killed between writing
    the base and making the link) are removed."""
    folder = state / LINKS_DIR
    if not real_folder(folder):
        return []
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    for name in names:
        if _TMP.match(name):  # a base half written by a process killed meanwhile
            with contextlib.suppress(OSError):
                if time.time() - (folder / name).lstat().st_mtime > ORPHAN_SECONDS:
                    (folder / name).unlink()
        elif not _NAME.match(name):
            _remove(folder / name)  # not a name memrepo gives: planted, never read (breaker19 B19-6)
    keys = {m.group(1) for m in map(_NAME.match, names) if m}
    out = []
    for key in sorted(keys - skip):
        if f"{key}.old" in names and not ours(folder, key):
            drop(state, key)  # a FIFO, a symlink, or a file whose inode is not the one named
            continue
        linked = read(state, key) if f"{key}.old" in names else None
        if linked is not None:
            out.append(linked)
            continue
        if f"{key}.base" in names and f"{key}.old" in names:
            drop(state, key)  # a base that names no memory file (or cannot be read): never merged
            continue
        with contextlib.suppress(OSError):
            for name in (f"{key}.old", f"{key}.base"):
                if name in names and time.time() - (folder / name).lstat().st_mtime > ORPHAN_SECONDS:
                    (folder / name).unlink()
    return sorted(out, key=lambda linked: linked.at)


def _remove(path: Path) -> None:
    """Remove a planted name under ``oldinodes/``: a file, a FIFO or a symlink (itself), or a folder."""
    import shutil

    with contextlib.suppress(OSError):
        if stat.S_ISDIR(os.lstat(path).st_mode):
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink()


def open_link(state: Path, key: str) -> int | None:
    """A read-only descriptor of ``key``'s linked inode, or None when it is gone or not one memrepo made."""
    if not real_folder(state / LINKS_DIR):
        return None
    try:
        fd = os.open(state / LINKS_DIR / f"{key}.old", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode) and key == f"{st.st_dev}-{st.st_ino}":
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def linked(state: Path, key: str) -> bool:
    """True while ``key``'s link is still there: once forget, clear or compaction removed it (or another process
    ended its watch), no process merges that inode again (breaker19 B19-7)."""
    return real_folder(state / LINKS_DIR) and ours(state / LINKS_DIR, key)


def written(state: Path) -> bool:
    """True when some linked inode's size or mtime differs from its base's: a save for the next salvage (one
    ``stat`` per link; the write server's idle tick looks every second)."""
    for linked in found_cheap(state):
        try:
            st = os.lstat(state / LINKS_DIR / f"{linked[0]}.old")
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or linked[0] != f"{st.st_dev}-{st.st_ino}":
            continue  # not memrepo's: found() removes it
        if (st.st_size, st.st_mtime_ns) != linked[1]:
            return True
    return False


def found_cheap(state: Path) -> list[tuple[str, tuple[int, int]]]:
    """Each link's key and base stamp, read from the base's first line only (no merge base read, no cleanup)."""
    folder = state / LINKS_DIR
    if not real_folder(folder):
        return []
    try:
        names = [n for n in os.listdir(folder) if _NAME.match(n) and n.endswith(".old")]
    except OSError:
        return []
    out = []
    for name in names:
        key = name[: -len(".old")]
        try:
            with open(folder / f"{key}.base", "rb") as fh:
                size, mtime = (int(n) for n in json.loads(fh.readline())["stamp"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        out.append((key, (size, mtime)))
    return out
