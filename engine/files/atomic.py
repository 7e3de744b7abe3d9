"""Atomic file writes (docs/architecture.md §3).

A temp file in the same folder, fsync, then rename over the target, so a
reader sees the old file or the new one, never half of one. Never through a
symlink.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from memrepo.engine.errors import DISK_FULL, MemrepoError, is_disk_full
from memrepo.engine.format.scratch import TEMP_PREFIX

__all__ = ["TEMP_PREFIX", "atomic_write"]


def atomic_write(path: Path, data: bytes, root: Path | None = None, private: bool = False) -> None:
    """Replace ``path`` with ``data`` atomically, creating parent folders.

    The file keeps its permission bits when it existed (0644 for a new file); ``private`` makes it 0600
    whatever it was (state that holds what a session said: docs/architecture.md §3).

    Args:
        path: the target file.
        data: the new content.
        root: the memory repo's top folder: every folder from the file's own
            up to (not including) ``root`` must not be a symlink. When None,
            only the file's own folder is checked.
        private: write the file 0600 (owner only), and any folder made for it 0700.

    Raises:
        MemrepoError: ``path`` or a parent folder is a symlink, or the write
            failed (the old file is then untouched).
    """
    path = Path(path)
    if path.is_symlink():
        raise MemrepoError(f"{path} is a symlink; memrepo never writes through symlinks")
    parent = path.parent
    folder = parent
    while True:
        if folder.is_symlink():
            raise MemrepoError(f"{folder} is a symlink; memrepo never writes through symlinks")
        folder = folder.parent
        if root is None or folder == Path(root) or folder == folder.parent:
            break
    parent.mkdir(mode=0o700 if private else 0o777, parents=True, exist_ok=True)
    try:
        mode = 0o600 if private else path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if is_disk_full(exc):
            raise MemrepoError(DISK_FULL) from exc
        raise MemrepoError(f"could not write {path}: {exc.strerror or exc}") from exc
