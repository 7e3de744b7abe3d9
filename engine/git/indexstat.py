"""Whether git's index holds stale stat data, read from a few of its entries (no pygit2).

libgit2's status hashes every tracked file whose stat data (mtime, ctime,
inode, size) differs from what the index recorded, and never writes the
fresh stat data back (``git status`` does). After a copy or restore of a repo
every entry differs, so every scan hashes every file until the index is
refreshed (:meth:`memrepo.engine.git.store.GitStore._refresh_index`). A slow
scan alone does not tell a stale index from a large or busy one; this module
checks a sample of the index's entries against the work tree, so the refresh,
which hashes every file, runs only when the index needs it (docs/architecture.md §3:
a write stays cheap at any size).

The index file format (version 2 and 3) is git's documented one
(``Documentation/gitformat-index.txt``); any other version, or anything
unexpected, reads as stale, which keeps the old behaviour (refresh once).
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

SAMPLE = 16
"""Index entries compared with the work tree (from the start of the index, which is sorted by path)."""

_HEADER = struct.Struct(">4sLL")
_ENTRY = struct.Struct(">LLLLLLLLLL20sH")  # ctime s, ns, mtime s, ns, dev, ino, mode, uid, gid, size, id, flags
_EXTENDED = 0x4000
_NAME_MASK = 0xFFF


def index_looks_stale(git_dir: Path, root: Path, sample: int = SAMPLE) -> bool:
    """True when most sampled index entries' stat data disagree with their files on disk.

    Args:
        git_dir: the repository's ``.git`` folder.
        root: the work tree.
        sample: how many entries to compare at most.

    Returns:
        bool: True for a stale index (a copied or restored repo), for an index
        this reader cannot parse (another version, a split index), and when
        no sampled entry's file exists; False when at least half of the sampled
        files present match their entries' mtime, ctime, inode and size.
        Never raises.
    """
    try:
        with open(git_dir / "index", "rb") as f:
            data = f.read(64 * 1024)
    except OSError:
        return True
    try:
        signature, version, count = _HEADER.unpack_from(data, 0)
    except struct.error:
        return True
    if signature != b"DIRC" or version not in (2, 3):
        return True
    pos = _HEADER.size
    fresh = stale = 0
    for _ in range(min(count, sample)):
        try:
            ctime_s, _ctime_ns, mtime_s, _mtime_ns, _dev, ino, _mode, _uid, _gid, size, _oid, flags = (
                _ENTRY.unpack_from(data, pos)
            )
        except struct.error:
            break  # past the bytes read: judge on what was read
        start = pos
        pos += _ENTRY.size
        if version == 3 and flags & _EXTENDED:
            pos += 2
        length = flags & _NAME_MASK
        if length == _NAME_MASK:  # a long path: its end is the NUL
            end = data.find(b"\0", pos)
            if end < 0:
                break
            length = end - pos
        raw = data[pos : pos + length]
        pos = start + ((pos - start + length + 8) & ~7)  # padded with 1-8 NULs to a multiple of 8
        try:
            st = os.lstat(os.path.join(root, os.fsdecode(raw)))
        except (OSError, ValueError):
            continue  # deleted or renamed by hand: says nothing about the stat data
        same = (
            int(st.st_mtime) & 0xFFFFFFFF == mtime_s
            and int(st.st_ctime) & 0xFFFFFFFF == ctime_s
            and st.st_ino & 0xFFFFFFFF == ino
            and st.st_size & 0xFFFFFFFF == size
        )
        if same:
            fresh += 1
        else:
            stale += 1
    return stale > fresh or fresh + stale == 0
