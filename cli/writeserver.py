"""The write server: answers ``memrepo remember`` for new processes of the same repo (docs/architecture.md §4).

Started by a ``memrepo remember`` that found none and wrote (:mod:`.quickremember`), as
``python -m memrepo.cli.writeserver ROOT SOCKET IDLE_S``, detached from its
terminal. Its door (:mod:`.writedoor`, a thread) takes connections and
requests and sends every waiting client a newline several times a second,
so a stopped or hung server is passed within seconds. It loads the settings
and the engine once, then for each request:
checks that it comes from this user and from a client of the same repo
folder, memrepo source, config file and environment (else it closes the
connection unanswered and exits, and the client writes itself), moves to the
client's working folder, opens the store as a new process would, takes the
repo's write lock (or, when another writer holds it, hands the write back:
the client then waits for the lock like any process), writes only if the
client is still there (one that was interrupted gets no write), runs
:func:`memrepo.cli.remembering.remember`, closes the store (nothing it opened
stays open) and sends back what to print with the commit, file and line the
client checks against the repo (:mod:`.replycheck`); then
it brings the persisted recall index up to date and renders the context
blocks last asked for at the new commit, so the next ``memrepo recall`` re-reads
nothing and the next session's hook prints a kept block. Requests are served
one at a time.

It exits after ``IDLE_S`` seconds without a request, on SIGTERM or SIGINT
(after the write under way),
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
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .quickremember import PROTOCOL, environment, source_stamp
from .writedoor import Door

if TYPE_CHECKING:
    from memrepo.engine.config import Settings

TICK_S = 1.0
"""Seconds between the server's checks (idle time, ``.git``, source, socket)."""
KEPT_EVERY_S = 5.0
"""Seconds between two tries at applying the writes kept while blocked, while some wait (an idle tick's)."""
LOCK_WAIT_S = 3.0
"""Seconds a new server waits for an old one (exiting) to let the lock go."""
READ_WAIT_S = 2.0
"""Seconds a reply is given to be sent."""
WRITE_LOCK_WAIT_S = 0.25
"""Seconds the server waits for the repo's write lock before it hands the write back: a client
then waits for the lock itself, beside every other writer, as a process of its own always did."""


class Stop(BaseException):
    """The server should exit (a signal, or a request from another version or setting).

    A BaseException, as :class:`SystemExit`: the command's body turns every
    Exception into an error line, and a stop is none."""


class HandBack(BaseException):
    """The write goes back to the client (the lock is busy) or nowhere (the client left)."""

    def __init__(self, reply: bool) -> None:
        super().__init__()
        self.reply = reply


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


def client_left(conn: socket.socket) -> bool:
    """True when the client closed its end (interrupted, or gave up waiting): its write must not happen."""
    import select

    try:
        poller = select.poll()  # not select.select: it fails on a descriptor numbered 1024 or more
        poller.register(conn, select.POLLIN)
        ready = poller.poll(0)
        return bool(ready) and conn.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


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
        self.folder = _identity(root)
        self.busy = False
        self.stopping = False
        self.written: str | None = None
        """The file the last request wrote (None when it wrote nothing)."""
        self._kept_tried = float("-inf")
        self._index_tried = float("-inf")
        """When :meth:`apply_kept` last tried (monotonic seconds)."""

    def accepts(self, req: dict[str, object]) -> bool:
        """True when ``req`` is a request of this protocol, repo folder, source, config and environment."""
        repo = req.get("repo")
        return (
            req.get("v") == PROTOCOL
            and isinstance(repo, str)
            and self.folder is not None
            and _identity(repo) == self.folder  # the same folder, however the client spelled it
            and req.get("stamp") == self.stamp
            and req.get("config") == self.config
            and req.get("env") == self.env
            and isinstance(req.get("cwd"), str)
            and isinstance(req.get("args"), dict)
        )

    def answer(self, conn: socket.socket, req: dict[str, object]) -> dict[str, object] | None:
        """Run the write ``req`` asks for in its working folder, as the client's own process would.

        The store is opened with the path as the client gave it (its rules,
        a symlink's refusal too, apply as in that process). The write lock is
        taken before the write, within :data:`WRITE_LOCK_WAIT_S`; then, with
        the lock held, a client that left (Ctrl-C, a timeout) gets no write.

        Returns:
            dict | None: the reply (out, err, code); ``{"self": True}`` when the
            lock is busy (the client writes itself); None when the client left.
        """
        from memrepo.engine.errors import BusyError
        from memrepo.engine.repo.store import MemoryStore

        from .remembering import remember

        args: dict[str, object] = req["args"]  # type: ignore[assignment]
        try:
            os.chdir(str(req["cwd"]))
        except OSError:
            return {"self": True}  # a folder we cannot enter: the client writes itself, where it is
        with contextlib.ExitStack() as held:

            def open_store() -> MemoryStore:
                store = MemoryStore.open(Path(str(req["repo"])), self.settings, create=True, origin="cli")
                held.callback(store.close)  # after the lock is let go (callbacks run last in, first out)
                try:
                    held.enter_context(store.lock.hold("remember", timeout=WRITE_LOCK_WAIT_S))
                except BusyError:
                    raise HandBack(reply=True) from None
                if client_left(conn):
                    raise HandBack(reply=False)
                return store

            try:
                reply = remember(open_store, args)
            except HandBack as back:
                return {"self": True} if back.reply else None
            finally:
                os.chdir("/")
        self.written = reply.path if reply.code == 0 else None
        return {"out": reply.out, "err": reply.err, "code": reply.code, **reply.made}

    def serve(self, server: socket.socket, inode: int, sock_path: str, idle_s: float) -> None:
        """Answer requests until ``idle_s`` seconds pass without one, or a reason to stop (see the module)."""
        door = Door(server, self.accepts)
        door.start()
        try:
            self._serve(door, inode, sock_path, idle_s)
        finally:
            door.stop()
            door.join(timeout=5.0)

    def _serve(self, door: Door, inode: int, sock_path: str, idle_s: float) -> None:
        import queue

        last = time.monotonic()
        while True:
            if door.foreign.is_set():
                return  # another version or setting: unanswered, and the client writes itself
            try:
                visit = door.visits.get(timeout=TICK_S)
            except queue.Empty:
                self.prune()
                self.apply_kept()
                self.catch_up_index()
                if self.stopping or time.monotonic() - last > idle_s or not self.still_ours(inode, sock_path):
                    return
                continue
            req = visit.request
            self.busy = True
            self.written = None
            reply = None
            door.serving, door.working_since = visit, time.monotonic()
            try:
                reply = self.answer(visit.conn, req)
            finally:
                self.busy = False
                door.serving = None
                visit.conn.settimeout(READ_WAIT_S)
                data = (
                    None if reply is None else json.dumps(reply, ensure_ascii=False).encode("utf-8", "surrogateescape")
                )
                visit.reply(data)
            if reply is not None and self.written is not None:  # after the close: the client has its reply
                self.busy = True
                door.working_since = time.monotonic()
                try:
                    after_write(str(req["repo"]), self.written, self.settings)
                finally:
                    self.busy = False
            door.working_since = None
            if self.stopping:
                return
            last = time.monotonic()

    def prune(self) -> None:
        """Let go of the old inodes no write needs any more (:meth:`.oldinode.OldInodes.prune`); merge and commit
        the text saved into one since the last write (:meth:`salvage`)."""
        from memrepo.engine.repo.store import MemoryStore

        with contextlib.suppress(OSError):
            MemoryStore.prune_old_inodes(Path(self.root))
        self.salvage()

    def salvage(self) -> None:
        """Merge and commit, on an idle tick, what an editor saved into an old inode after the last write.

        The save sits in an inode with no name, watched in this process only: before, it waited for the next
        write, and was gone when the server stopped first (idle, a signal, a kill). Only when a watched inode
        was written into (an ``fstat`` each); the lock is taken within :data:`TICK_S`, as for the kept writes.
        """
        from memrepo.engine.repo.store import MemoryStore

        if not MemoryStore.old_inodes_written(Path(self.root)):
            return

        self.busy = True  # a stop signal meanwhile lets the commit finish (:func:`_stop`)
        try:
            with contextlib.suppress(Exception):  # blocked, busy or failed: the next tick or write tries again
                store = MemoryStore.open(Path(self.root), self.settings, create=False, origin="cli")
                try:
                    with store.lock.hold("salvage", timeout=TICK_S):
                        store.writer.salvage()
                finally:
                    store.close()
        finally:
            self.busy = False

    def apply_kept(self) -> None:
        """Apply the writes kept while blocked once the block is gone (docs/architecture.md §3), on an idle tick.

        A look at ``.git/memrepo/pending`` each tick; a try (a store opened, the write lock taken
        within :data:`TICK_S`, hand edits committed first as before any write) every
        :data:`KEPT_EVERY_S` while some wait. Still blocked, busy or failed: the next try, or write.
        """
        now = time.monotonic()
        if now - self._kept_tried < KEPT_EVERY_S:
            return
        from memrepo.engine.format.layout import PENDING_DIR

        with contextlib.suppress(OSError):
            if not any((Path(self.root) / ".git" / "memrepo" / PENDING_DIR).glob("*.json")):
                return
        self._kept_tried = now
        from memrepo.engine.repo.store import MemoryStore

        self.busy = True  # a stop signal meanwhile lets the write finish (:func:`_stop`)
        try:
            with contextlib.suppress(Exception):  # blocked, busy or failed: the server serves on, and tries again
                store = MemoryStore.open(Path(self.root), self.settings, create=False, origin="cli")
                try:
                    with store.lock.hold("apply pending", timeout=TICK_S):
                        store.apply_pending()
                finally:
                    store.close()
        finally:
            self.busy = False

    def catch_up_index(self) -> None:
        """Bring back to HEAD the index entries a write gave up on while git held ``index.lock``, on an idle tick.

        A look at ``.git/memrepo/index-behind.json`` each tick (:meth:`~memrepo.engine.repo.store.MemoryStore.index_behind`); while it
        names paths, a store is opened every :data:`KEPT_EVERY_S` (opening catches up:
        :meth:`~memrepo.engine.repo.store.MemoryStore.catch_up_index`). Still held: the next try.
        """
        from memrepo.engine.repo.store import MemoryStore

        now = time.monotonic()
        if now - self._index_tried < KEPT_EVERY_S or not MemoryStore.index_behind(Path(self.root)):
            return
        self._index_tried = now

        self.busy = True  # a stop signal meanwhile lets the index write finish (:func:`_stop`)
        try:
            with contextlib.suppress(Exception):  # busy or failed: the next tick, command or write tries again
                MemoryStore.open(Path(self.root), self.settings, create=False, origin="cli").close()
        finally:
            self.busy = False

    def still_ours(self, inode: int, sock_path: str) -> bool:
        """True while the socket is ours, the repo has its ``.git`` and memrepo's source is unchanged."""
        try:
            if os.stat(sock_path).st_ino != inode:
                return False
        except OSError:
            return False
        return os.path.isdir(os.path.join(self.root, ".git")) and source_stamp() == self.stamp


def after_write(repo: str, written: str, settings: Settings) -> None:
    """What a new process will ask for next, made here once the client has its reply: the persisted recall
    index brought up to date with the written file's entries as recall shows them
    (:func:`memrepo.engine.read.coldrecall.refresh_index`), and the context blocks last asked for rendered at the
    new commit (:func:`memrepo.engine.read.coldread.render_wanted`). Only a head start: what fails here the next
    ``memrepo recall`` or session hook does itself."""
    from memrepo.engine.read.coldread import render_wanted
    from memrepo.engine.read.coldrecall import refresh_index

    with contextlib.suppress(Exception):
        refresh_index(Path(repo), shown_for=[written])
    with contextlib.suppress(Exception):
        render_wanted(Path(repo), settings)


def _identity(path: str) -> tuple[int, int] | None:
    """The folder's (device, inode), following links; None when it cannot be read."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


_serving: list[WriteServer] = []


def _stop(_signum: int, _frame: object) -> None:
    """SIGTERM, SIGINT: stop now when idle; after the write under way otherwise (it is never cut short)."""
    if _serving and _serving[0].busy:
        _serving[0].stopping = True
        return
    raise Stop


def main(argv: list[str]) -> int:
    """Run a write server: ``ROOT SOCKET IDLE_S``; returns the exit code (0, or 2 for bad arguments)."""
    if len(argv) != 3:
        sys.stderr.write("usage: python -m memrepo.cli.writeserver ROOT SOCKET IDLE_S\n")
        return 2
    root, sock_path, idle = argv[0], argv[1], float(argv[2])
    if not os.path.isabs(sock_path):
        return 2
    os.chdir("/")
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # as the click command (cli/main.py)
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        lock = take_lock(sock_path)
    except OSError:
        return 1
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
        _serving.append(writer)
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
