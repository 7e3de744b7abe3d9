"""Read a user-named file safely: regular files only, bounded, never blocking (DESIGN.md §7).

Paths that come from outside (a Claude Code hook's ``transcript_path``, the
file ``memrepo setup claude-code --check`` is given) may name a FIFO, a
device such as ``/dev/zero``, a folder or a huge file. :func:`read_regular`
checks with ``os.stat`` that it is a regular file under a size cap before
opening, opens with ``O_NONBLOCK`` (a FIFO swapped in meanwhile cannot block)
and checks the opened file again, so a hook never hangs and nothing is read
without bound.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import LimitError, RefError

__all__ = ["FileMissingError", "read_regular"]


class FileMissingError(RefError):
    """The file does not exist."""


def read_regular(path: Path, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes``.

    Args:
        path: the file (symlinks are followed; the target must be a regular file).
        max_bytes: the largest size read (bytes).
        what: how the one-line errors name the file (``transcript``, ``file``).

    Returns:
        bytes: the whole file.

    Raises:
        FileMissingError: nothing at ``path`` (``<what> not found: PATH``).
        RefError: a folder, FIFO, device or socket, or unreadable.
        LimitError: larger than ``max_bytes``.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError as exc:
        raise FileMissingError(f"{what} not found: {path}") from exc
    except OSError as exc:
        raise RefError(f"cannot read {what} {path}: {exc.strerror or exc}") from exc
    _check(st, path, max_bytes, what)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise RefError(f"cannot read {what} {path}: {exc.strerror or exc}") from exc
    try:
        opened = os.fstat(fd)
        if (opened.st_dev, opened.st_ino) != (st.st_dev, st.st_ino):
            raise RefError(f"{what} {path} changed while being opened; retry")
        _check(opened, path, max_bytes, what)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(max_bytes + 1)
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise LimitError(f"{what} {path} is over the {max_bytes} byte limit")
    return data


def _check(st: os.stat_result, path: Path, max_bytes: int, what: str) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise RefError(f"{what} is a folder, not a file: {path}")
    if not stat.S_ISREG(st.st_mode):
        raise RefError(f"{what} is not a regular file (a pipe, device or socket): {path}")
    if st.st_size > max_bytes:
        raise LimitError(f"{what} {path} is {st.st_size} bytes, over the {max_bytes} byte limit")

