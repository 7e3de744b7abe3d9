"""Reading an agent's ``.jsonl`` transcript: streamed, whole lines only, never blocking (split out of
:mod:`.transcripts`, at 499 lines; docs/architecture.md §6).

A transcript is opened only when it is a regular file (a FIFO or device is refused without blocking), read line by
line in bounded memory, and a line over :data:`MAX_LINE_BYTES` (a pasted image) is skipped unread.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from memrepo.engine.errors import MemrepoError, RefError
from memrepo.engine.files.regularfile import FileMissingError

__all__ = ["CHUNK", "MAX_LINE_BYTES", "iter_objects"]

MAX_LINE_BYTES = 8 * 1024 * 1024
"""A transcript line longer than this (a pasted image, a huge tool result) is skipped unread (bytes)."""
CHUNK = 1024 * 1024
"""Bytes read at a time while streaming a transcript."""


def _open_regular(path: Path) -> BinaryIO:
    """Open a regular file for reading without ever blocking (a FIFO or device is refused).

    Raises:
        MemrepoError: missing (``transcript not found: PATH``), a folder, FIFO,
            device or socket, or unreadable.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError as exc:
        raise FileMissingError(f"transcript not found: {path}") from exc
    except OSError as exc:
        raise RefError(f"cannot read transcript {path}: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file (a pipe, device or socket)"
        raise RefError(f"transcript is {kind}: {path}")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise RefError(f"cannot read transcript {path}: {exc.strerror or exc}") from exc
    opened = os.fstat(fd)
    if (opened.st_dev, opened.st_ino) != (st.st_dev, st.st_ino) or not stat.S_ISREG(opened.st_mode):
        os.close(fd)
        raise RefError(f"transcript {path} changed while being opened; retry")
    return os.fdopen(fd, "rb")


def iter_objects(path: Path, strict: bool = False, start: int = 0, tail: bool = False) -> Iterator[tuple[int, dict]]:
    """The JSON objects of a ``.jsonl`` file from byte ``start`` on, streamed, with the offset after each.

    Only whole lines are read: a last line without its newline (still being written) is left for a later
    read, so the offsets yielded are always safe places to resume from; with ``tail`` it is read when it is
    whole JSON (a killed writer's last object). Lines over :data:`MAX_LINE_BYTES` or not JSON objects are skipped.

    Raises:
        MemrepoError: with ``strict``, the file is missing or not a regular
            file (a FIFO, a device, a folder); without it such a file reads as empty.
    """
    try:
        fh = _open_regular(path)
    except MemrepoError:
        if strict:
            raise
        return
    with fh:
        if start:
            fh.seek(start)
        offset = start
        while True:
            raw = fh.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            if not raw.endswith(b"\n"):
                if len(raw) <= MAX_LINE_BYTES:
                    if tail:
                        obj = _object(raw)
                        if obj is not None:
                            yield offset + len(raw), obj
                    return  # a half-written last line: read it next time
                offset += len(raw)  # too long: skip the rest of it unread
                while raw and not raw.endswith(b"\n"):
                    raw = fh.readline(CHUNK)
                    offset += len(raw)
                continue
            offset += len(raw)
            obj = _object(raw)
            if obj is not None:  # else junk: skip it
                yield offset, obj


def _object(raw: bytes) -> dict | None:
    try:
        obj = json.loads(raw)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None
