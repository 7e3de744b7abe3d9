"""The lines memrepo removed before a compaction, kept as keyed hashes across it (docs/architecture.md §3, §5).

The stale-save guard (:mod:`.stalesave`) finds the entries memrepo removed
in the last hour in the history. Compaction ("forgetting for real") erases
that history: an editor's copy read before ``forget --compact`` and saved
after it brought the forgotten line back with no question, and the next
write committed it. So compaction first records, for each line memrepo's
own commits removed in the last :data:`KEEP_S`, an HMAC-SHA256 of the file's
path and the line's normalised text, with the time its guard ends.
The key is 32 random bytes in its own file (0600), apart from the hashes
(0600): the hashes alone cannot be checked against a guessed text. No text
is kept. A compaction looks back, and keeps each hash, :data:`KEEP_S` (30 days: an editor left open for
days still meets the question), at most :data:`MAX_HASHES`; once none is left, both files are deleted.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import time
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from memrepo.engine.format.entrylines import entry_lines

KEEP_S = 30 * 86_400.0
"""How long a compaction keeps the hashes of the lines memrepo removed before it, and how far back it looks: an
editor's buffer can stay open for days (breaker27 B27-3), far past the stale-save guard's hour of history."""
MAX_HASHES = 50_000
"""The most hashes kept (those that expire last): a bound on the file (~4 MB), whatever the compactions removed."""

HASHES_NAME = "forgotten-lines.json"
"""The keyed hashes and when each expires, under ``.git/memrepo/`` (0600)."""
KEY_NAME = "forgotten-lines.key"
"""The hashes' key (32 random bytes), in its own file beside them (0600)."""


def normalised(text: str) -> str:
    """An entry line as the guard compares it: NFC, without surrounding white space."""
    return unicodedata.normalize("NFC", text).strip()


def _digest(key: bytes, rel: str, text: str) -> str:
    """The keyed hash of one line of ``rel``: HMAC-SHA256 of the path, a NUL and the normalised text."""
    data = rel.encode("utf-8", "surrogateescape") + b"\0" + normalised(text).encode("utf-8", "surrogateescape")
    return hmac.new(key, data, hashlib.sha256).hexdigest()


def _write_private(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (temp file, fsync, rename), readable by its owner only (0600)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def _load(state: Path, now: float) -> dict[str, float]:
    """The unexpired hashes and their expiry times (seconds since the epoch); empty when none or unreadable."""
    try:
        raw = json.loads((state / HASHES_NAME).read_bytes())
    except (OSError, ValueError):
        return {}
    hashes = raw.get("hashes") if isinstance(raw, dict) else None
    if not isinstance(hashes, dict):
        return {}
    return {h: float(t) for h, t in hashes.items() if isinstance(t, (int, float)) and t > now}


def _key(state: Path, create: bool) -> bytes | None:
    """The repo's key: read, or made now when ``create`` (None when missing and not made)."""
    path = state / KEY_NAME
    with contextlib.suppress(OSError):
        key = path.read_bytes()
        if len(key) >= 32:
            return key
    if not create:
        return None
    key = secrets.token_bytes(32)
    state.mkdir(parents=True, exist_ok=True)
    _write_private(path, key)
    return key


def _entry_texts(data: bytes | None, rel: str) -> set[str]:
    """The normalised entry lines of ``data`` (none when it is None or not a memory file)."""
    return {normalised(line.text) for line in entry_lines(data, rel)}


def record(state: Path, removals: Iterable[tuple[str, bytes, bytes | None, float]], window_s: float) -> int:
    """Keep the keyed hashes of the entry lines ``removals`` took out, each until its removal time + ``window_s``.

    Args:
        state: the engine's state folder, ``.git/memrepo/``.
        removals: (path, bytes before, bytes after or None, commit time) of memrepo's recent commits
            (:meth:`memrepo.engine.git.history.GitHistory.recent_removals`).
        window_s: how long (seconds) a removal is guarded.

    Returns:
        int: the number of hashes kept now (0: nothing recorded, and no file written).

    Raises:
        OSError: the state folder cannot be written.
    """
    now = time.time()
    gone: dict[tuple[str, str], float] = {}
    for rel, before, after, when in removals:
        for text in _entry_texts(before, rel) - _entry_texts(after, rel):
            until = when + window_s
            if until > now and until > gone.get((rel, text), 0.0):
                gone[(rel, text)] = until
    if not gone:
        return 0
    key = _key(state, create=True)
    assert key is not None
    hashes = _load(state, now)
    for (rel, text), until in gone.items():
        digest = _digest(key, rel, text)
        hashes[digest] = max(until, hashes.get(digest, 0.0))
    if len(hashes) > MAX_HASHES:  # bounded: the removals that expire last are kept
        hashes = dict(sorted(hashes.items(), key=lambda item: item[1], reverse=True)[:MAX_HASHES])
    _write_private(state / HASHES_NAME, json.dumps({"hashes": hashes}, sort_keys=True).encode("utf-8"))
    return len(hashes)


def forgotten(state: Path, rel: str, lines: list[str]) -> set[str]:
    """Which of ``lines`` (entry lines of ``rel``) memrepo removed in the window before a compaction erased it.

    Expired hashes are dropped on the way; when none is left, the hashes and the key are deleted.

    Args:
        state: the engine's state folder.
        rel: repo-relative path.
        lines: entry lines a save holds and HEAD lacks.

    Returns:
        set[str]: the lines whose keyed hash is kept and unexpired (empty when no compaction ran in the window).
    """
    if not lines or not (state / HASHES_NAME).exists():
        return set()
    now = time.time()
    try:
        stamp = (state / HASHES_NAME).stat().st_mtime_ns
    except OSError:
        return set()
    hashes = _load(state, now)
    if not hashes:
        with contextlib.suppress(OSError):
            if (state / HASHES_NAME).stat().st_mtime_ns == stamp:  # not rewritten meanwhile by a compaction
                clear(state)
        return set()
    key = _key(state, create=False)
    if key is None:
        return set()
    return {text for text in lines if _digest(key, rel, text) in hashes}


def clear(state: Path) -> None:
    """Delete the hashes and their key (nothing to guard any more)."""
    for name in (HASHES_NAME, KEY_NAME):
        with contextlib.suppress(OSError):
            (state / name).unlink()
