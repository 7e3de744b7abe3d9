"""Values marked as false alarms: redaction leaves them alone (docs/architecture.md §3).

A value is kept as a salted SHA-256 (HMAC) in ``.git/memrepo/secrets-allow.json``,
never in clear, with the type it was redacted as and when it was allowed. The
salt lives apart, in ``.git/memrepo/secrets-allow.salt`` (a copy of the hashes
alone cannot be tested against guesses); both files are 0600, local to the
clone (never committed, never synced). The salt is made once per repo, so the
same value hashes differently in two repos. A list written before the salt
moved out is moved on first read.

A process consults the allow-lists of the repos it opened (:func:`activate`,
called when a store opens); :func:`memrepo.engine.redaction.find` drops every
finding whose exact value is allowed. The file is read again when it changes.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import threading
from datetime import UTC, datetime
from pathlib import Path

from memrepo.engine.files.regularfile import stat_key

FILE_NAME = "secrets-allow.json"
SALT_NAME = "secrets-allow.salt"
"""The salt's own file, beside the hashes' (16 random bytes)."""

_lock = threading.Lock()
_active: dict[Path, tuple[tuple[int, int, int, int, int] | None, bytes, frozenset[str]]] = {}
"""state dir -> (file stamp, salt, allowed hashes)."""
_generation = 0


_stamp = stat_key
"""The allow-list file's stamp: a same-size rewrite that puts the old mtime back still moves ctime."""


def _read(state: Path) -> dict:
    try:
        data = json.loads((state / FILE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _values(data: dict) -> dict[str, dict]:
    raw = data.get("values")
    return raw if isinstance(raw, dict) else {}


def digest(salt: bytes, value: str) -> str:
    """The hash kept for ``value``: HMAC-SHA256 keyed by the repo's salt."""
    return hmac.new(salt, value.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def _salt(state: Path, data: dict) -> bytes:
    """The repo's salt: its own file, or (a list written before it moved out) the ``salt`` key, moved out now."""
    try:
        salt = (state / SALT_NAME).read_bytes()
    except OSError:
        salt = b""
    if len(salt) >= 16:
        return salt
    try:
        salt = bytes.fromhex(str(data.get("salt", "")))
    except ValueError:
        salt = b""
    if salt:
        _write_private(state / SALT_NAME, salt)
        _write(state, {"values": _values(data)})
    return salt


def _load(state: Path) -> tuple[tuple[int, int, int, int, int] | None, bytes, frozenset[str]]:
    stamp = _stamp(state / FILE_NAME)
    data = _read(state) if stamp else {}
    salt = _salt(state, data) if stamp else b""
    if "salt" in data:
        stamp = _stamp(state / FILE_NAME)  # the file was rewritten without it
    hashes = data.get("values", {})
    return stamp, salt, frozenset(hashes) if isinstance(hashes, dict) else frozenset()


def activate(state: Path) -> None:
    """Consult the allow-list kept in ``state`` (a repo's ``.git/memrepo/``) from now on."""
    global _generation
    state = Path(state)
    with _lock:
        if state not in _active:
            _active[state] = _load(state)
            _generation += 1


def states() -> list[Path]:
    """The state folders whose allow-lists are active in this process (one per repo opened)."""
    with _lock:
        return list(_active)


def generation() -> int:
    """A number that changes whenever an active allow-list changes (for caches of redacted text)."""
    global _generation
    with _lock:
        for state, (stamp, _salt, _hashes) in list(_active.items()):
            if _stamp(state / FILE_NAME) != stamp:
                _active[state] = _load(state)
                _generation += 1
        return _generation


def is_allowed(value: str) -> bool:
    """Whether ``value`` was marked a false alarm in any active allow-list."""
    generation()  # picks up a changed file
    with _lock:
        entries = list(_active.values())
    return any(salt and digest(salt, value) in hashes for _stamp_, salt, hashes in entries)


def add(state: Path, value: str, kind: str) -> str:
    """Mark ``value`` a false alarm in the allow-list kept in ``state``; returns its hash.

    The file is replaced atomically (temp file, fsync, rename), mode 0600; the
    salt is made on the first call, in its own 0600 file.
    """
    state = Path(state)
    state.mkdir(parents=True, exist_ok=True)
    with _lock:
        data = _read(state)
        salt = _salt(state, data)
        if not salt:
            salt = os.urandom(16)
            _write_private(state / SALT_NAME, salt)
        values = _values(data)
        key = digest(salt, value)
        values[key] = {"type": kind, "allowed": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
        _write(state, {"values": values})
    activate(state)
    generation()
    return key


def remove(state: Path, key: str) -> bool:
    """Forget the allowed value whose hash starts with ``key``; False when none (or several) match."""
    state = Path(state)
    with _lock:
        data = _read(state)
        values = _values(data)
        hits = [k for k in values if k.startswith(key)] if key else []
        if len(hits) != 1:
            return False
        _salt(state, data)  # an old list's salt moves out before the file is written without it
        del values[hits[0]]
        _write(state, {"values": values})
    generation()
    return True


def entries(state: Path) -> list[tuple[str, str, str]]:
    """(hash, type, when allowed) of every allowed value kept in ``state``."""
    values = _read(Path(state)).get("values")
    if not isinstance(values, dict):
        return []
    return [(k, str(v.get("type", "")), str(v.get("allowed", ""))) for k, v in values.items() if isinstance(v, dict)]


def _write_private(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (temp file, fsync, rename), readable by its owner only (0600)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        os.fchmod(fd, 0o600)  # whatever the umask, and a stale temp file's old mode
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def _write(state: Path, data: dict) -> None:
    _write_private(state / FILE_NAME, json.dumps(data, indent=1, sort_keys=True).encode("utf-8"))
