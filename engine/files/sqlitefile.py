"""Making a derived SQLite file private without opening it (docs/architecture.md §4).

SQLite locks a database file with POSIX advisory locks, and POSIX drops every
lock a process holds on a file when that process closes *any* descriptor of it.
Opening the recall index with ``os.open`` to set its mode, then closing that
descriptor, silently released the write lock another connection of the same
process held (the MCP server keeps one open while a thread opens another):
a second process then wrote beside it, and the two failed with
"UNIQUE constraint failed: items.id" or "disk I/O error" (CI, stop 53). So no
descriptor is ever opened on an existing database file here: a new file is
made under a scratch name and linked into place, and an older file's mode is
changed by its path.
"""

from __future__ import annotations

import contextlib
import os
import stat
import threading


def make_private(path: str) -> None:
    """Have the file at ``path`` exist, readable and writable by its owner only, never opening it.

    A missing file is created empty with mode 0600 under a scratch name in the
    same folder and hard-linked to ``path`` (a file another process made first
    wins and is left as it is); an existing file with group or other bits is
    ``chmod``-ed by path. SQLite's journal takes the database's mode.

    Args:
        path: the database file (its folder exists).

    Raises:
        OSError: the folder cannot be written, or the file's mode cannot be changed.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        _create(path)
        return
    if stat.S_IMODE(mode) & 0o077:
        os.chmod(path, 0o600)  # an index made before it was private


def _create(path: str) -> None:
    """Make ``path`` an empty 0600 file unless it exists by then (see :func:`make_private`)."""
    folder, name = os.path.split(path)
    scratch = os.path.join(folder, f".{name}.{os.getpid()}.{threading.get_ident():x}.new")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(scratch)  # left by a killed process of the same pid
    fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
    os.close(fd)  # closed before the file has its name: no connection can hold a lock on it yet
    try:
        os.link(scratch, path)
    except FileExistsError:
        pass  # made by another process or thread meanwhile: theirs stands
    except OSError:  # no hard links on this file system: made in place, new, so nobody's lock is on it
        with contextlib.suppress(FileExistsError):
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600))
    finally:
        with contextlib.suppress(OSError):
            os.unlink(scratch)
    if stat.S_IMODE(os.stat(path).st_mode) & 0o077:
        os.chmod(path, 0o600)
