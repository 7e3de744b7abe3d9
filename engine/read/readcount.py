"""A small read counter: how many agent sessions read memory (docs/architecture.md §9).

It lives in ``.git/memrepo/reads.json`` and holds counts only, never a query,
a session id or any text, so it never needs scrubbing. Each front end that
serves an agent session (the MCP server: one process is one session; the
Claude Code SessionStart hook: one call is one session) keeps one
:class:`SessionReads` and notes what the session read; the counter is updated
under its own small file lock and written atomically.

Layout of the file::

    {"sessions": {"mcp": 3, "hook": 5},
     "sessions_read": {"mcp": 2, "hook": 5},
     "reads": {"context": 7, "recall": 4, "read": 1}}
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from pathlib import Path

from filelock import FileLock, Timeout

from memrepo.engine.files.atomic import atomic_write

log = logging.getLogger(__name__)

FILE = "reads.json"
"""The counter's file name under ``.git/memrepo/``."""
CHANNELS = ("mcp", "hook")
"""Where a session comes from: the MCP server, or a Claude Code hook."""
KINDS = ("context", "recall", "read")
"""What a session read: the context block, recall, or a file through ``memory_read``."""


def _empty() -> dict[str, dict[str, int]]:
    return {"sessions": {}, "sessions_read": {}, "reads": {}}


def load_counts(git_dir: Path) -> dict[str, dict[str, int]]:
    """The counts so far; a missing or unreadable file counts nothing.

    Args:
        git_dir: the repository's ``.git`` folder.

    Returns:
        dict: ``sessions``, ``sessions_read`` (channel -> count) and ``reads`` (kind -> count).
    """
    path = git_dir / "memrepo" / FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return _empty()
    out = _empty()
    if isinstance(data, dict):
        for group in out:
            values = data.get(group)
            if isinstance(values, dict):
                out[group] = {str(k): int(v) for k, v in values.items() if isinstance(v, int) and v >= 0}
    return out


def _bump(git_dir: Path, changes: list[tuple[str, str]]) -> None:
    """Add 1 to each ``(group, key)`` under the counter's lock; failures are logged, never raised."""
    folder = git_dir / "memrepo"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        lock = folder / "reads.lock"
        with contextlib.suppress(OSError):  # owner only, as files.lock.private_lock makes it (not imported: the
            if lock.stat().st_mode & 0o077:  # hooks' quick path never loads the write lock's module)
                os.chmod(lock, 0o600)
        with FileLock(str(lock), timeout=2, mode=0o600):
            counts = load_counts(git_dir)
            for group, key in changes:
                counts[group][key] = counts[group].get(key, 0) + 1
            atomic_write(folder / FILE, (json.dumps(counts, sort_keys=True) + "\n").encode(), private=True)
    except (OSError, Timeout) as exc:
        log.warning("read counter not updated: %s", exc)


class SessionReads:
    """The reads of one agent session, counted once per session.

    Args:
        git_dir: the repository's ``.git`` folder.
        channel: one of :data:`CHANNELS`.
    """

    def __init__(self, git_dir: Path, channel: str) -> None:
        if channel not in CHANNELS:
            raise ValueError(f"unknown channel {channel!r}")
        self.git_dir = Path(git_dir)
        self.channel = channel
        self.started = False
        self.has_read = False

    def start(self) -> None:
        """Count this session (once; later calls do nothing)."""
        if not self.started:
            self.started = True
            _bump(self.git_dir, [("sessions", self.channel)])

    def note(self, kind: str) -> None:
        """Count one read of ``kind`` (:data:`KINDS`); the first read also counts the session as reading.

        Raises:
            ValueError: an unknown kind.
        """
        if kind not in KINDS:
            raise ValueError(f"unknown read kind {kind!r}")
        changes = [("reads", kind)]
        if not self.started:
            self.started = True
            changes.append(("sessions", self.channel))
        if not self.has_read:
            self.has_read = True
            changes.append(("sessions_read", self.channel))
        _bump(self.git_dir, changes)


def note_read(git_dir: Path, kind: str) -> None:
    """Count one read of ``kind`` by a session counted elsewhere (a UserPromptSubmit hook's recall).

    Raises:
        ValueError: an unknown kind.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown read kind {kind!r}")
    _bump(Path(git_dir), [("reads", kind)])
