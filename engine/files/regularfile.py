"""Read a user-named file safely: regular files only, bounded, never blocking (docs/architecture.md §7).

Paths that come from outside (a Claude Code hook's ``transcript_path``, the
file ``memrepo setup claude-code --check`` is given) may name a FIFO, a
device such as ``/dev/zero``, a folder or a huge file. :func:`read_regular`
checks with ``os.stat`` that it is a regular file under a size cap before
opening, opens with ``O_NONBLOCK`` (a FIFO swapped in meanwhile cannot block)
and checks the opened file again, so a hook never hangs and nothing is read
without bound.

Files in the memory repo itself get the same care: :func:`is_regular` and
:func:`not_regular_kind` look with ``lstat`` (a FIFO, socket or device in
place of a memory file is neither read nor committed as a deletion), and
:func:`read_work_file` reads one without following a symlink and without
ever blocking.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from memrepo.engine.errors import LimitError, RefError

__all__ = [
    "FileMissingError",
    "NotRegularFileError",
    "is_regular",
    "not_regular_kind",
    "read_regular",
    "read_work_file",
    "stat_key",
]


class FileMissingError(RefError):
    """The file does not exist."""


class NotRegularFileError(RefError, OSError):
    """A FIFO, socket or device stands where a memory file should be (an ``OSError`` too)."""


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


def stat_key(path: Path, follow: bool = True) -> tuple[int, int, int, int, int] | None:
    """What a stat says changed about ``path``: size, mtime, ctime, inode and mode; None when it is missing.

    ctime is in it because ``rsync -t``, ``cp -p`` or ``touch -d`` can put an
    older mtime back at the same size, never the ctime; the mode tells a file
    that became a symlink (with ``follow=False``: an ``lstat``).

    Args:
        path: the file.
        follow: follow a symlink (``stat``) or not (``lstat``).
    """
    try:
        st = os.stat(path, follow_symlinks=follow)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_mode


def not_regular_kind(path: Path) -> str | None:
    """What stands at ``path`` when it is neither a regular file nor missing, else None.

    Looks with ``lstat`` (a symlink is not followed): ``a symlink``, ``a
    folder``, ``a FIFO (named pipe)``, ``a socket`` or ``a device``.
    """
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def is_regular(path: Path) -> bool:
    """True when ``path`` is a regular file itself (``lstat``: a symlink to one is not)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def read_work_file(path: Path, max_bytes: int | None = None) -> bytes:
    """The bytes of a memory-repo file, never following a symlink and never blocking.

    Opens with ``O_NOFOLLOW | O_NONBLOCK`` and checks the opened file is
    regular, so a FIFO or device put in place of a memory file raises at
    once instead of hanging the reader.

    Args:
        path: the file.
        max_bytes: read at most this many bytes (None: the whole file).

    Returns:
        bytes: the content.

    Raises:
        FileNotFoundError: nothing at ``path``.
        IsADirectoryError: a folder.
        NotRegularFileError: a FIFO, socket or device.
        OSError: a symlink (``ELOOP``), or unreadable.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(21, "Is a directory", str(path))
        if not stat.S_ISREG(mode):
            raise NotRegularFileError(
                f"{Path(path).name} is not a regular file (a pipe, device or socket): memrepo does not read it"
            )
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read() if max_bytes is None else fh.read(max_bytes)
    finally:
        os.close(fd)


def utf8_error_at(data: bytes) -> str | None:
    """Where ``data`` stops being UTF-8 (``byte 2993, line 54``), or None when it decodes."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return f"byte {exc.start}, line {line}"
    return None


def not_utf8_line(root: Path, rels: list[str]) -> str | None:
    """One line naming which of ``rels`` (the files recall answered from) are not UTF-8 text, else None.

    Recall reads such a file with its bad bytes replaced (U+FFFD) rather than hide it (breaker5 B5-8);
    this line says so, once, beside the hits. Reads only the few files named (a recall's hits).
    """
    bad = []
    for rel in dict.fromkeys(rels):
        try:
            where = utf8_error_at(read_work_file(root / rel))
        except OSError:
            continue
        if where is not None:
            bad.append(f"{rel} ({where})")
    if not bad:
        return None
    return f"not UTF-8 text, read with the bad bytes shown as \ufffd: {', '.join(bad)}; save it as UTF-8"


def is_text(data: bytes) -> bool:
    """Whether ``data`` is text the entry parser reads: UTF-8 with no NUL byte (docs/architecture.md §3).

    A tail cut mid-character by a read limit (:func:`read_work_file`'s ``max_bytes``) still counts as text.

    Args:
        data: a file's bytes, or its first part.

    Returns:
        bool: False for a binary file or a save in another encoding (a Latin-1 byte).
    """
    if b"\0" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.reason == "unexpected end of data" and exc.end == len(data)
    return True
