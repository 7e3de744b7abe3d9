"""Texts Betterleaks and Kingfisher's rules found nothing in, remembered across processes (docs/architecture.md §3).

Loading Betterleaks' Go library costs more than the rest of a new process that
reads memory (``memrepo context``, about 100-150 ms), and every line holding a
path or a name with digits makes it load. Its verdict on a text only depends
on the text and the library, so the texts it found nothing in are remembered
in ``.git/memrepo/redaction-clean.bin``: the next process asks the memo and
never loads the library for a text it has seen. Our own rules still read every
text, and a text Betterleaks found something in is never remembered (it is
scanned each time), so what is redacted does not change.

The memo holds no memory text: only 16-byte BLAKE2b digests keyed by a random
salt made for that file, next to a fingerprint of the library (its files'
sizes and times, and those of ``kingfisher.json`` and ``noseyparker.json``: a new
Betterleaks or new rules start the memo afresh). A text is remembered only when
Kingfisher's rules (:mod:`.kingfisher`) found nothing in it either, so they skip it too. At most
:data:`MAX_ENTRIES` digests are kept, the newest.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import threading
from contextvars import ContextVar, Token
from pathlib import Path

FILE_NAME = "redaction-clean.bin"
"""The memo's file name in ``.git/memrepo/``."""
MAX_ENTRIES = 16384
"""Digests kept at most (16 bytes each), the newest."""
FLUSH_EVERY = 256
"""New digests written out at once (and the rest when the process ends)."""

_MAGIC = b"memrepo-clean-1\n"
_DIGEST = 16


def library_fingerprint() -> bytes | None:
    """16 bytes naming the installed Betterleaks (its files' paths, sizes and mtimes), or None when absent."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("betterleaks")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    folder = os.path.dirname(spec.origin)
    parts = []
    for name in ("__init__.py", "_lib.py", "libbetterleaks.so", "libbetterleaks.dylib", "libbetterleaks.dll"):
        try:
            st = os.stat(os.path.join(folder, name))
        except OSError:
            continue
        parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
    if len(parts) < 3:  # no shared library found: the library cannot load anyway
        return None
    for name in ("kingfisher.json", "noseyparker.json"):  # :data:`.kingfisher.FILES`, without importing it
        rules = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
        with contextlib.suppress(OSError):  # the rule files share the memo: new rules start it afresh too
            st = os.stat(rules)
            parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
    return hashlib.blake2b(f"{folder}|{'|'.join(parts)}".encode(), digest_size=_DIGEST).digest()


class CleanMemo:
    """The memo of one repo's state folder (use :func:`memo_for`).

    Args:
        path: the memo file.
        fingerprint: :func:`library_fingerprint`; a file made for another library is ignored.
    """

    def __init__(self, path: Path, fingerprint: bytes) -> None:
        self.path = path
        self._fingerprint = fingerprint
        self._lock = threading.Lock()
        self._new = 0
        self._salt, self._known = self._read()

    def _read(self) -> tuple[bytes, dict[bytes, None]]:
        try:
            data = self.path.read_bytes()
        except OSError:
            data = b""
        head = len(_MAGIC) + 2 * _DIGEST
        if data.startswith(_MAGIC) and data[len(_MAGIC) : len(_MAGIC) + _DIGEST] == self._fingerprint:
            salt = data[len(_MAGIC) + _DIGEST : head]
            body = data[head:]
            end = len(body) - len(body) % _DIGEST
            return salt, dict.fromkeys(body[i : i + _DIGEST] for i in range(0, end, _DIGEST))
        return os.urandom(_DIGEST), {}

    def key(self, text: str) -> bytes:
        """The digest kept for ``text``."""
        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=_DIGEST, key=self._salt).digest()

    def known_clean(self, key: bytes) -> bool:
        """Whether Betterleaks and Kingfisher's rules found nothing in the text with this digest before."""
        return key in self._known

    def add_clean(self, key: bytes) -> None:
        """Remember that Betterleaks and Kingfisher's rules found nothing in the text with this digest."""
        with self._lock:
            if key in self._known:
                return
            self._known[key] = None
            self._new += 1
            due = self._new >= FLUSH_EVERY
        if due:
            self.flush()

    def flush(self) -> None:
        """Write the new digests out (atomically; a failure only loses the memo's speed-up)."""
        with self._lock:
            if not self._new:
                return
            keys = list(self._known)[-MAX_ENTRIES:]
            self._known = dict.fromkeys(keys)
            self._new = 0
            data = _MAGIC + self._fingerprint + self._salt + b"".join(keys)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o600)
            with os.fdopen(fd, "wb") as f:  # owner only, as every derived file (docs/architecture.md §4)
                os.fchmod(f.fileno(), 0o600)
                f.write(data)
            os.replace(tmp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


_memos: dict[Path, CleanMemo] = {}
_memos_lock = threading.Lock()
_fingerprint: bytes | bool | None = False  # False: not computed yet


def memo_for(state: Path) -> CleanMemo | None:
    """The memo in ``state`` (a repo's ``.git/memrepo/``), or None when Betterleaks is not installed."""
    global _fingerprint
    with _memos_lock:
        memo = _memos.get(state)
        if memo is not None:
            return memo
        if _fingerprint is False:
            _fingerprint = library_fingerprint()
        if _fingerprint is None or not isinstance(_fingerprint, bytes):
            return None
        if not _memos:
            atexit.register(flush_all)
        memo = _memos[state] = CleanMemo(state / FILE_NAME, _fingerprint)
        return memo


_index_state: ContextVar[Path | None] = ContextVar("memrepo_index_memo", default=None)


def used_by_index(state: Path | None) -> Token[Path | None]:
    """From now, in this thread, redaction asks the memo in ``state`` when no allow-list is active.

    The recall index redacts each entry of a file it re-reads, and a process that only reads (``memrepo
    recall`` after a hand edit, the index's first build) activates no allow-list when the repo has none
    (an active one costs a stat a redaction), so without this it would load Betterleaks for every
    token-like text, however often it was found clean (about 100-150 ms in a new process).

    Args:
        state: the repo's ``.git/memrepo/`` folder (the index's own); None for an index held in memory
            (``.git`` cannot be written): no memo, and none in the current folder either.

    Returns:
        Token: what :func:`done_by_index` takes to undo it (the index's sync does, in its ``finally``).
    """
    return _index_state.set(state)


def done_by_index(token: Token[Path | None]) -> None:
    """Undo the :func:`used_by_index` that gave ``token``."""
    _index_state.reset(token)


def index_state() -> Path | None:
    """The state folder :func:`used_by_index` names in this thread now, or None."""
    return _index_state.get()


def flush_all() -> None:
    """Write every open memo's new digests (at exit, and for tests)."""
    for memo in list(_memos.values()):
        memo.flush()


def forget_memo(state: Path) -> None:
    """Delete the memo in ``state`` and drop it from this process (compaction does, with the rest of the history)."""
    with _memos_lock:
        _memos.pop(state, None)
    with contextlib.suppress(OSError):
        os.unlink(state / FILE_NAME)
