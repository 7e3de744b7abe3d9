"""The write server: answers ``memrepo remember`` for new processes of the same repo (docs/architecture.md §4).

Started by a ``memrepo remember`` that found none (:mod:`.quickremember`), as
``python -m memrepo.cli.writeserver ROOT SOCKET IDLE_S``, detached from its
terminal. It loads the settings and the engine once, then for each request:
checks that it comes from this user and from a client of the same memrepo
source, config file and environment (else it closes the connection unanswered
and exits, and the client writes itself), moves to the client's working
folder, opens the store as a new process would, runs
:func:`memrepo.cli.remembering.remember` and sends back what to print.
Requests are served one at a time; every write still takes the repo's write
lock, so writes by other processes interleave as before.

It exits after ``IDLE_S`` seconds without a request, on SIGTERM or SIGINT,
when the repo's ``.git`` is gone, when memrepo's source changes, or when
another server took its socket. One server per socket: a lock file beside the
socket (``flock``) holds the server's pid.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import socket
import struct
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .quickremember import PROTOCOL, REQUEST_MAX, environment, source_stamp

if TYPE_CHECKING:
    from memrepo.engine.config import Settings

TICK_S = 1.0
"""Seconds between the server's checks (idle time, ``.git``, source, socket)."""
LOCK_WAIT_S = 3.0
"""Seconds a new server waits for an old one (exiting) to let the lock go."""


class Stop(Exception):
    """The server should exit (a signal, or a request from another version or setting)."""


def take_lock(sock_path: str) -> int | None:
    """Lock ``<socket>.lock`` (waiting up to :data:`LOCK_WAIT_S`) and write our pid in it; its fd, or None."""
    fd = os.open(f"{sock_path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except OSError:
            if time.monotonic() > deadline:
                os.close(fd)
                return None
            time.sleep(0.05)
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def listen(sock_path: str) -> tuple[socket.socket, int]:
    """A listening socket at ``sock_path`` (mode 0600, put in place atomically) and its inode."""
    scratch = f"{sock_path}.{os.getpid()}"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(scratch)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(scratch)
    os.chmod(scratch, 0o600)
    server.listen(16)
    os.replace(scratch, sock_path)
    return server, os.stat(sock_path).st_ino


def same_user(conn: socket.socket) -> bool:
    """True when the peer runs as this user (Linux ``SO_PEERCRED``; elsewhere the folder's mode 0700 decides)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    _pid, uid, _gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i")))
    return bool(uid == os.getuid())


def read_request(conn: socket.socket) -> dict[str, object] | None:
    """One request line (at most :data:`REQUEST_MAX` bytes), parsed; None for anything else."""
    chunks: list[bytes] = []
    size = 0
    while size <= REQUEST_MAX:
        chunk = conn.recv(65536)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    try:
        got = json.loads(b"".join(chunks).decode("utf-8", "surrogateescape"))
    except ValueError:
        return None
    return got if isinstance(got, dict) else None


class WriteServer:
    """Serves ``remember`` requests for the repo at ``root`` on one socket.

    Args:
        root: the repo's real path.
        settings: the settings loaded at start.
        config: the config file's digest at start (:func:`memrepo.engine.configpath.config_digest`).
    """

    def __init__(self, root: str, settings: Settings, config: str) -> None:
        self.root = root
        self.settings = settings
        self.config = config
        self.stamp = source_stamp()
        self.env = environment()

    def accepts(self, req: dict[str, object]) -> bool:
        """True when ``req`` is a request of this protocol, repo, source, config and environment."""
        return (
            req.get("v") == PROTOCOL
            and req.get("repo") == self.root
            and req.get("stamp") == self.stamp
            and req.get("config") == self.config
            and req.get("env") == self.env
            and isinstance(req.get("cwd"), str)
            and isinstance(req.get("args"), dict)
        )

    def answer(self, req: dict[str, object]) -> dict[str, object]:
        """Run the write ``req`` asks for in its working folder; the reply (out, err, code)."""
        from memrepo.engine.store import MemoryStore

        from .remembering import remember

        args: dict[str, object] = req["args"]  # type: ignore[assignment]
        try:
            os.chdir(str(req["cwd"]))
        except OSError:
            raise Stop from None  # a folder we cannot enter: the client writes itself, where it is
        try:
            reply = remember(lambda: MemoryStore.open(Path(self.root), self.settings, create=True, origin="cli"), args)
        finally:
            os.chdir("/")
        return {"out": reply.out, "err": reply.err, "code": reply.code}

    def serve(self, server: socket.socket, inode: int, sock_path: str, idle_s: float) -> None:
        """Answer requests until ``idle_s`` seconds pass without one, or a reason to stop (see the module)."""
        server.settimeout(TICK_S)
        last = time.monotonic()
        while True:
            try:
                conn, _ = server.accept()
            except TimeoutError:
                if time.monotonic() - last > idle_s or not self.still_ours(inode, sock_path):
                    return
                continue
            with conn:
                conn.settimeout(30.0)
                if not same_user(conn):
                    continue
                req = read_request(conn)
                if req is None or not self.accepts(req):
                    return  # another version or setting: unanswered, and the client writes itself
                reply = self.answer(req)
                data = json.dumps(reply, ensure_ascii=False).encode("utf-8", "surrogateescape")
                with contextlib.suppress(OSError):  # the client left: it writes itself, and dedupe keeps one entry
                    conn.sendall(data)
            last = time.monotonic()

    def still_ours(self, inode: int, sock_path: str) -> bool:
        """True while the socket is ours, the repo has its ``.git`` and memrepo's source is unchanged."""
        try:
            if os.stat(sock_path).st_ino != inode:
                return False
        except OSError:
            return False
        return os.path.isdir(os.path.join(self.root, ".git")) and source_stamp() == self.stamp


def _stop(_signum: int, _frame: object) -> None:
    raise Stop


def main(argv: list[str]) -> int:
    """Run a write server: ``ROOT SOCKET IDLE_S``; returns the exit code (0, or 2 for bad arguments)."""
    if len(argv) != 3:
        sys.stderr.write("usage: python -m memrepo.cli.writeserver ROOT SOCKET IDLE_S\n")
        return 2
    root, sock_path, idle = argv[0], argv[1], float(argv[2])
    os.chdir("/")
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # as the click command (cli/main.py)
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    lock = take_lock(sock_path)
    if lock is None:
        return 0  # another server has this socket
    server: socket.socket | None = None
    inode = -1
    try:
        from memrepo.engine.config import load_settings
        from memrepo.engine.configpath import config_digest

        before = config_digest()
        settings = load_settings()
        if before is None or config_digest() != before:
            return 0
        writer = WriteServer(root, settings, before)
        server, inode = listen(sock_path)
        writer.serve(server, inode, sock_path, idle)
    except Stop:
        pass
    except Exception:
        return 1
    finally:
        if server is not None:
            server.close()
            with contextlib.suppress(OSError):
                if os.stat(sock_path).st_ino == inode:
                    os.unlink(sock_path)
        os.close(lock)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
