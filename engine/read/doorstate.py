"""What askers remember of the recall door, and what a look at it tells (docs/architecture.md §4, "the recall door").

A door that missed an asker's budget (a server stopped with ``SIGSTOP``, swapped out, stuck) would cost every
later prompt the whole budget, :data:`.recalldoor.BUDGET_S`, again. The asker that waited in vain leaves a mark,
:data:`MISSED` in the repo's ``.git/memrepo``: the socket's inode, its file's time the moment of the miss. For
:data:`BACKOFF_S` after it, askers skip that door (the same socket: a new server's door is a new inode) and
answer themselves at once. The door takes the mark away as soon as it answers a request within the budget
again (the one left waiting in its queue, when it runs again), so a door that came back is asked at once.

:func:`look` is what Health shows: whether a door is in place, answers, is stale or is skipped.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MISSED = "recall.sock.missed"
"""The mark of a door that missed an asker's budget, beside its socket under ``.git/memrepo`` (in the registry,
engine/state/registry.py, under ``recall.sock*``: derived, no text, kept by every event)."""
BACKOFF_S = 30.0
"""Seconds askers skip a door that missed a budget, unless it answered within one since (then at once)."""
LOOK_WAIT_S = 0.3
"""Seconds :func:`look` waits for a door to close a request it does not accept (its way of saying it runs)."""


@contextlib.contextmanager
def socket_address(path: Path) -> Iterator[str]:
    """An ``AF_UNIX`` address for ``path``: itself when short enough, else through ``/proc/self/fd`` (its folder open)."""
    raw = os.fsencode(str(path))
    if len(raw) < 100:
        yield str(path)
        return
    fd = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        yield f"/proc/self/fd/{fd}/{path.name}"
    finally:
        os.close(fd)


def missed_path(socket_path: Path) -> Path:
    """The mark beside the door's socket ``socket_path``."""
    return Path(socket_path).with_name(MISSED)


def mark_missed(socket_path: Path) -> None:
    """Remember that the door at ``socket_path`` missed a budget now (never raises: the mark is a shortcut)."""
    with contextlib.suppress(OSError):
        inode = os.stat(socket_path).st_ino
        mark = missed_path(socket_path)
        scratch = mark.with_name(f"{MISSED}.{os.getpid()}")
        fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            os.write(fd, str(inode).encode())
        finally:
            os.close(fd)
        os.replace(scratch, mark)


def skipped_until(socket_path: Path, now: float | None = None) -> float | None:
    """When askers may ask the door at ``socket_path`` again (epoch seconds), or None to ask it now.

    None when there is no mark, the mark names another socket (a new door), or it is :data:`BACKOFF_S` old.
    """
    mark = missed_path(socket_path)
    try:
        with open(mark, "rb") as f:
            named = f.read(32)
            when = os.fstat(f.fileno()).st_mtime
        inode = os.stat(socket_path).st_ino
    except OSError:
        return None
    now = time.time() if now is None else now
    if named.strip() != str(inode).encode() or not 0 <= now - when < BACKOFF_S:
        return None
    return when + BACKOFF_S


def clear_missed(socket_path: Path) -> None:
    """Take the mark away (the door answered within the budget again)."""
    with contextlib.suppress(OSError):
        os.unlink(missed_path(socket_path))


@dataclass
class DoorLook:
    """What :func:`look` saw of a repo's recall door.

    Attributes:
        state: ``none`` (no socket), ``stale`` (a socket nobody listens on), ``answering`` (a door that runs),
            ``silent`` (connects, closes nothing within :data:`LOOK_WAIT_S`), or ``skipped`` (missed a budget:
            askers answer themselves until :attr:`until`).
        pid: the door's process, when it was seen (Linux ``SO_PEERCRED``).
        until: epoch seconds the back-off ends, for ``skipped``.
    """

    state: str
    pid: int | None = None
    until: float | None = None


def look(socket_path: Path) -> DoorLook:
    """Look at the door at ``socket_path`` in at most about :data:`LOOK_WAIT_S` seconds; never raises.

    Sends one line the door does not accept (it closes such a connection unanswered) and waits for the close:
    a door that closes it runs; one that does not within the wait is stopped or stuck.
    """
    import socket

    if not os.path.exists(socket_path):
        return DoorLook("none")
    until = skipped_until(socket_path)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    pid = None
    try:
        conn.settimeout(LOOK_WAIT_S)
        with socket_address(socket_path) as address:
            conn.connect(address)
        pid = _peer_pid(conn)
        conn.sendall(b"{}\n")
        conn.recv(1)  # b"": closed unanswered, as the door closes every request it does not accept
        state = "answering"
    except (ConnectionRefusedError, FileNotFoundError):
        return DoorLook("stale")
    except TimeoutError:
        state = "silent"
    except OSError:
        state = "answering"  # reset while closing: it ran
    finally:
        conn.close()
    if until is not None:
        return DoorLook("skipped", pid, until)
    return DoorLook(state, pid)


def peer_cred(conn: object) -> tuple[int, int, int] | None:
    """The (pid, uid, gid) of the process at the other end of ``conn`` (Linux ``SO_PEERCRED``); None where the
    option does not exist.

    Raises:
        OSError: the option exists but could not be read (the door refuses then, never assumes the user).
    """
    import socket
    import struct

    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return None
    raw = conn.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))  # type: ignore[attr-defined]
    pid, uid, gid = struct.unpack("3i", raw)
    return int(pid), int(uid), int(gid)


def _peer_pid(conn: object) -> int | None:
    with contextlib.suppress(OSError):
        cred = peer_cred(conn)
        return None if cred is None else cred[0]
    return None
