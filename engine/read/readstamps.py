"""What the read caches' reconciliation compares: each memory file's stat and content hash (docs/architecture.md §4).

:meth:`.readcache.ReadCaches.reconcile` fingerprints every memory file and compares with the last pass. A network
mount, an exFAT mtime or an ``rsync -t`` can hide a change from events and from an mtime check; a content hash
cannot. Stat and hash only: no file is parsed here.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from memrepo.engine.format.scratch import is_scratch_name

Fingerprint = tuple[int, int, int, int, bytes | None]
"""size, mtime, ctime, inode and a content hash of one file (:meth:`.readcache.ReadCaches.reconcile`); None
where the file was only stat'ed (a running repo's first pass, or a file not yet in a hashing slice)."""


def fingerprint(path: Path, previous: Fingerprint | None = None, read: bool = True) -> Fingerprint | None:
    """None for a missing or non-regular file (opened non-blocking: a FIFO never blocks the read).

    Args:
        path: the file.
        previous: its fingerprint of the last pass, kept as it is (hash or none) while the
            file's stat is unmoved: the file is then not read.
        read: hash the content otherwise (False: stat only).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        if previous is not None and previous[:4] == stamp:
            return previous
        if not read:
            return (*stamp, None)
        digest = hashlib.blake2b(digest_size=16)
        while chunk := os.read(fd, 1 << 16):
            digest.update(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, digest.digest()


def walked_by_recall(rel: str) -> bool:
    """Whether the recall index's walk lists ``rel`` (:func:`memrepo.engine.read.recallkeys.walk`)."""
    from .recallkeys import ARCHIVED_DIR

    parts = rel.split("/")
    return not rel.startswith(ARCHIVED_DIR) and not any(p.startswith(".") or is_scratch_name(p) for p in parts[:-1])


def moved(before: Fingerprint | None, now: Fingerprint | None) -> bool:
    """Whether a file changed between two passes.

    Content decides where both passes hashed it: a rewrite with the same
    bytes (a touch) changes nothing a cache holds. Where one pass only
    stat'ed it, a moved stat counts as a change.
    """
    if before is None or now is None:
        return before is not now
    if before[4] is not None and now[4] is not None:
        return before[4] != now[4]
    return before[:4] != now[:4]


def list_memory_files(root: Path) -> list[str]:
    """The ``.md`` files recall and the context block read: no dot folders, no symlinks, no FIFOs."""
    found: list[str] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and not os.path.islink(os.path.join(folder, d))]
        rel_folder = os.path.relpath(folder, root)
        for name in files:
            full = os.path.join(folder, name)
            plain = name.endswith(".md") and not name.startswith(".") and not is_scratch_name(name)
            if plain and os.path.isfile(full) and not os.path.islink(full):
                found.append(name if rel_folder == "." else f"{rel_folder}/{name}".replace(os.sep, "/"))
    return found
