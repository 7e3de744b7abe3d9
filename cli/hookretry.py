"""Hook checkpoints that could not buffer their turns, kept for a later hook to retry (breaker14 B14-4).

A ``checkpoint --from-claude-hook`` marks its session before it reads the transcript and clears the mark once
the turns are in the checkpoint buffer. When the buffer cannot be written (a full disk: the write transaction
says so and nothing is kept), the mark stays, and so does the session's transcript offset (it only moves once
the turns are buffered). Any later hook checkpoint of the same repository, in any folder, first retries the
marked sessions: it reads each transcript from its kept offset and checkpoints it with the event that failed,
so the "Remember that ..." of a session that ended while the disk was full is kept once space is back.

A mark is an empty file in ``.git/memrepo/hook-retry/`` whose name holds the event, the session id and the
transcript's path (URL-safe base64): on a full disk an empty file can still be made (it takes an inode, no
data block), where any content could not be written. Marks whose transcript is gone are dropped; a retry that
fails again keeps its mark.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

RETRY_DIR = "hook-retry"
"""The marks' folder, in ``.git/memrepo/``."""
MAX_NAME = 240
"""Longest mark name (file names stop at 255 bytes); a longer one is not kept and the hook says so."""
RETRIES_PER_CALL = 3
"""Most marked sessions one hook call retries (the rest wait for the next call)."""


@dataclass(frozen=True)
class Mark:
    """One kept hook checkpoint: what to retry."""

    event: str
    session_id: str
    transcript: Path
    file: Path


def _folder(repo: Path) -> Path:
    return repo / ".git" / "memrepo" / RETRY_DIR


def _name(event: str, session_id: str, transcript: Path) -> str:
    raw = f"{event}\n{session_id}\n{transcript}".encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _parse(file: Path) -> Mark | None:
    name = file.name
    try:
        raw = base64.urlsafe_b64decode(name + "=" * (-len(name) % 4)).decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    parts = raw.split("\n")
    if len(parts) != 3 or not all(parts):
        return None
    return Mark(parts[0], parts[1], Path(parts[2]), file)


def mark(repo: Path, event: str, session_id: str, transcript: Path) -> Path | None:
    """Keep ``session_id``'s hook checkpoint for a retry (an empty file); the mark, or None (with the reason).

    Raises:
        OSError: the mark could not be made (the caller says so and goes on).
    """
    name = _name(event, session_id, transcript)
    if len(name) > MAX_NAME:
        return None
    folder = _folder(repo)
    if not (repo / ".git").is_dir():
        return None
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    file = folder / name
    os.close(os.open(file, os.O_WRONLY | os.O_CREAT, 0o600))
    return file


def clear(repo: Path, session_id: str, transcript: Path) -> None:
    """Drop every mark of ``session_id``'s ``transcript`` (its turns are in the buffer now)."""
    for item in pending(repo, limit=None):
        if item.session_id == session_id and item.transcript == transcript:
            with contextlib.suppress(OSError):
                item.file.unlink()


def pending(repo: Path, limit: int | None = RETRIES_PER_CALL, skip: str | None = None) -> list[Mark]:
    """The kept marks, oldest first (at most ``limit``, none of session ``skip``); unreadable names are dropped."""
    try:
        files = [f for f in _folder(repo).iterdir() if f.is_file()]
    except OSError:
        return []
    out: list[tuple[float, Mark]] = []
    for file in files:
        item = _parse(file)
        if item is None:
            with contextlib.suppress(OSError):
                file.unlink()
            continue
        if item.session_id == skip:
            continue
        try:
            out.append((file.stat().st_mtime, item))
        except OSError:
            continue
    out.sort(key=lambda pair: pair[0])
    marks = [item for _when, item in out]
    return marks if limit is None else marks[:limit]


def drop(item: Mark) -> None:
    """Remove one mark (its transcript is gone)."""
    with contextlib.suppress(OSError):
        item.file.unlink()
