"""Read one import source file safely: a regular file, within a size cap, as JSON.

Import sources come from anywhere on disk, so the read never blocks on a FIFO
or device and never loads an unbounded file (docs/architecture.md §10, bad
input gets one clear error).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from memrepo.engine.errors import FormatError

MAX_SOURCE_BYTES = 64 * 1024 * 1024
"""The largest source file read (bytes); a bigger one is refused, so an import never exhausts memory."""


def read_source_bytes(path: Path, cap: int = MAX_SOURCE_BYTES) -> bytes:
    """The bytes of a regular file, read without ever blocking on a FIFO or device.

    The file is opened non-blocking and checked with ``fstat`` (S_ISREG), so a
    FIFO, socket or device named like a source is refused instead of hanging.

    Args:
        path (Path): the file.
        cap (int): most bytes read; a larger file is refused.

    Returns:
        bytes: the whole file.

    Raises:
        FormatError: not a regular file, or larger than ``cap`` bytes.
        OSError: it cannot be opened or read.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FormatError(
                f"{path.name} is not a regular file (a FIFO, socket or device); only regular files are imported"
            )
        if st.st_size > cap:
            raise FormatError(f"{path.name} is too large to import ({st.st_size:,} bytes; at most {cap:,})")
        with os.fdopen(fd, "rb", closefd=True) as fh:
            fd = -1
            data = fh.read(cap + 1)
        if len(data) > cap:
            raise FormatError(f"{path.name} is too large to import (over {cap:,} bytes)")
        return data
    finally:
        if fd >= 0:
            os.close(fd)


def parse_json(text: str, name: str) -> Any:
    """``json.loads`` whose deep nesting is a one-line :class:`FormatError`, not a RecursionError."""
    try:
        return json.loads(text)
    except RecursionError as exc:
        raise FormatError(f"{name} is nested too deeply to read (unreadable JSON)") from exc


def load_json(path: Path) -> Any:
    """The JSON value in a source file.

    Args:
        path (Path): the file.

    Returns:
        Any: the parsed value.

    Raises:
        FormatError: not a regular file, too large, not UTF-8 or not valid JSON.
        OSError: it cannot be opened or read.
    """
    try:
        return parse_json(read_source_bytes(path).decode("utf-8"), path.name)
    except UnicodeDecodeError as exc:
        raise FormatError(f"{path.name} is not UTF-8 text ({exc.reason})") from exc
    except json.JSONDecodeError as exc:
        raise FormatError(f"{path.name} is not valid JSON: {exc.msg} (line {exc.lineno})") from exc
