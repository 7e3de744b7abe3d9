"""The write server's door: takes connections and requests, and tells each waiting client it lives
(docs/architecture.md §4).

A thread beside the server's writes. It accepts every connection at once,
reads its request line (a connection that sends none within
:data:`READ_WAIT_S` is closed, holding up nobody), queues a request of this
server's kind for the writer and sends each queued or served client a
newline every :data:`BEAT_S` seconds until its reply. A client that hears
nothing for :data:`.quickremember.ALIVE_WAIT_S` seconds takes the server
for stopped or hung and writes itself: a SIGSTOP stops this thread too.
A request from another version or setting makes the server exit (the
client then writes itself).
"""

from __future__ import annotations

import contextlib
import json
import queue
import selectors
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

READ_WAIT_S = 2.0
"""Seconds a connection is given to send its request (a client sends it at once)."""
BEAT_S = 0.25
"""Seconds between two newlines to a client waiting for its reply."""
QUEUE_PATIENCE_S = 5.0
"""A queued client is told the server lives only while the server's work under way (another client's
write, or the upkeep after one: the recall index, context blocks) is younger than this (seconds): one
stuck behind a long wait (a 100,000-file index build holding the index's lock) hears nothing and writes itself."""
REQUEST_MAX = 1024 * 1024
"""Most bytes of one request."""


def same_user(conn: socket.socket) -> bool:
    """True when the peer runs as this user (Linux ``SO_PEERCRED``; elsewhere the folder's mode 0700 decides)."""
    import os

    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    _pid, uid, _gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i")))
    return bool(uid == os.getuid())


@dataclass(eq=False)
class Visit:
    """One client's request, from its reading to its reply.

    Attributes:
        conn: the connection (blocking, with a timeout, once queued).
        request: the parsed request line.
        sending: held while anything is sent on ``conn`` (a beat or the reply).
        done: set once the reply was sent (no more beats).
    """

    conn: socket.socket
    request: dict[str, object]
    sending: threading.Lock = field(default_factory=threading.Lock)
    done: bool = False

    def reply(self, data: bytes | None) -> None:
        """Send the reply (None: none, the connection just closes) and close."""
        with self.sending:
            self.done = True
            if data is not None:
                with contextlib.suppress(OSError):  # the client left: dedupe keeps one entry if it writes
                    self.conn.sendall(data)
            self.conn.close()

    def beat(self) -> None:
        """One newline: "still here, still at it" (skipped while the reply is being sent)."""
        if not self.sending.acquire(blocking=False):
            return
        try:
            if not self.done:
                with contextlib.suppress(OSError):
                    self.conn.send(b"\n", socket.MSG_DONTWAIT)
        finally:
            self.sending.release()


class Door(threading.Thread):
    """Accepts connections on ``listener`` and queues requests ``accepts`` takes (:attr:`visits`).

    Args:
        listener: the server's listening socket.
        accepts: True for a request of this server's kind.

    Attributes:
        visits: the queued requests, oldest first.
        foreign: set when a request of another kind came: the server exits.
    """

    def __init__(self, listener: socket.socket, accepts: Callable[[dict[str, object]], bool]) -> None:
        super().__init__(name="memrepo-write-door", daemon=True)
        self.listener = listener
        self.accepts = accepts
        self.visits: queue.Queue[Visit] = queue.Queue()
        self.foreign = threading.Event()
        self._ending = threading.Event()
        self.serving: Visit | None = None
        """The visit the server is writing for (always told it lives)."""
        self.working_since: float | None = None
        """When the server's work under way began (``time.monotonic()``), None while it waits for a visit."""
        self._waiting: list[Visit] = []
        self._lock = threading.Lock()
        self._reading: dict[socket.socket, tuple[bytearray, float]] = {}

    def stop(self) -> None:
        """End the thread; queued clients' connections close (each writes itself)."""
        self._ending.set()

    def run(self) -> None:
        """Accept, read, queue and beat until :meth:`stop` (see the module)."""
        selector = selectors.DefaultSelector()
        self.listener.setblocking(False)
        selector.register(self.listener, selectors.EVENT_READ)
        last_beat = time.monotonic()
        try:
            while not self._ending.is_set():
                for key, _ in selector.select(timeout=BEAT_S / 2):
                    if key.fileobj is self.listener:
                        self._accept(selector)
                    else:
                        self._read(selector, key.fileobj)  # type: ignore[arg-type]
                now = time.monotonic()
                for conn, (_buf, deadline) in list(self._reading.items()):
                    if now > deadline:
                        self._drop(selector, conn)
                if now - last_beat >= BEAT_S:
                    last_beat = now
                    with self._lock:
                        self._waiting = [v for v in self._waiting if not v.done]
                        waiting = list(self._waiting)
                    since = self.working_since
                    patient = since is None or now - since < QUEUE_PATIENCE_S
                    for visit in waiting:
                        if patient or visit is self.serving:
                            visit.beat()
        finally:
            for conn in list(self._reading):
                self._drop(selector, conn)
            selector.close()
            while True:
                try:
                    self.visits.get_nowait().reply(None)
                except queue.Empty:
                    break

    def _accept(self, selector: selectors.BaseSelector) -> None:
        try:
            conn, _ = self.listener.accept()
        except OSError:  # gone meanwhile, or out of descriptors: the client waits, then writes itself
            return
        if not same_user(conn):
            conn.close()
            return
        conn.setblocking(False)
        self._reading[conn] = (bytearray(), time.monotonic() + READ_WAIT_S)
        selector.register(conn, selectors.EVENT_READ)

    def _drop(self, selector: selectors.BaseSelector, conn: socket.socket) -> None:
        self._reading.pop(conn, None)
        with contextlib.suppress(KeyError, ValueError):
            selector.unregister(conn)
        conn.close()

    def _read(self, selector: selectors.BaseSelector, conn: socket.socket) -> None:
        buf, _deadline = self._reading[conn]
        try:
            chunk = conn.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        buf += chunk
        if (not chunk and not buf) or len(buf) > REQUEST_MAX:
            self._drop(selector, conn)
            return
        if chunk and not buf.endswith(b"\n"):
            return  # the rest of the line (or the end of the stream) is still to come
        self._reading.pop(conn)
        selector.unregister(conn)
        try:
            got = json.loads(bytes(buf).decode("utf-8", "surrogateescape"))
        except ValueError:
            got = None
        if not isinstance(got, dict):
            conn.close()
            return
        if not self.accepts(got):
            conn.close()
            self.foreign.set()  # another version or setting: unanswered, the client writes itself
            return
        conn.setblocking(True)
        visit = Visit(conn, got)
        with self._lock:
            self._waiting.append(visit)
        visit.beat()  # at once: the client knows it was heard
        self.visits.put(visit)
