"""The recall door: a warm process answers hybrid recall for new processes of the same repo (docs/architecture.md §4).

A new process (the prompt hook, ``memrepo recall``) answers lexically: loading numpy and the
embedding model costs it 200-290 ms a prompt. A long-running process that already holds both (the
MCP server Claude Code and Codex start for every session) opens a door: a thread beside its own
work that listens on ``.git/memrepo/recall.sock`` (mode 0600, in the repo's own state folder) and
answers one recall a connection, as :func:`.coldrecall.recall` with ``semantic`` answers it in the
new process (the same gates, floors and hits), with its model and vectors warm. The new process
asks first (:func:`ask`) and answers as before when no door answers within :data:`BUDGET_S`.

Who may ask. The door answers a request only when it comes from this user (``SO_PEERCRED``),
names the same repo folder (device and inode), and carries the same stamp of the engine's source
(:func:`.sourcestamp.stamp`) and the same config file digest
(:func:`memrepo.engine.configpath.config_digest`): another version or setting could answer
otherwise, so it is closed unanswered and the asker answers itself. The asker checks the door's
user too. A socket path too long for ``AF_UNIX`` is reached through ``/proc/self/fd`` (Linux).

Failures all end the same way, in the asker: no socket, a stale one (its process died: the
connect is refused at once), a door that hangs or answers slowly (past :data:`BUDGET_S`), one
killed mid-answer, a reply that does not parse, a door not ready (no recall index built yet):
:func:`ask` returns None and the caller answers lexically, as it always did. A door that missed the budget
is skipped by the next askers for a while (:mod:`.doorstate`).
``MEMREPO_RECALL_DOOR=0`` asks no door.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .doorstate import peer_cred
from .doorstate import socket_address as _address

if TYPE_CHECKING:
    import socket

    from memrepo.engine.config import SemanticSettings

    from .coldhit import ColdHit
    from .semantic_fuse import SemanticRecall


SOCKET = "recall.sock"
"""The door's socket, in the repo's ``.git/memrepo``."""
ENV = "MEMREPO_RECALL_DOOR"
"""Environment variable: ``0`` (or ``off``) asks no door."""
BUDGET_S = 0.5
"""Seconds an asker waits for a door's whole answer (connect, request, reply) before it answers itself.

A warm door answers a prompt in 20-60 ms of wall time on 2 busy cores (benchmarks/bench_hook_recall.py,
make_corpus repos of 200 and 2,000 files), against 120-200 ms for the hook's own lexical answer; half a second
leaves room for a loaded machine and is what a hung door costs a prompt at most."""
PROTOCOL = 1
REQUEST_MAX = 64 * 1024
"""Most bytes of one request line."""
REPLY_MAX = 8 * 1024 * 1024
"""Most bytes of one reply (an asker whose byte budget could exceed it does not ask)."""
READ_WAIT_S = 1.0
"""Seconds the door gives a connection to send its request and take its reply."""
TICK_S = 1.0
"""Seconds between the door's checks that its socket is still in place (another process's exit removes only its
own socket; a door whose socket went makes it again)."""
AFTER_WAIT_S = 10.0
"""Seconds a door waits for its process's ``after`` event (the MCP server's ``initialize`` answered) at most."""
PROBE_S = 5.0
"""Seconds between two looks at whether another door's socket at the path still has a live process behind it."""


def door_path(root: Path) -> Path:
    """The door's socket for the work tree ``root``."""
    return Path(root) / ".git" / "memrepo" / SOCKET


def wanted(provider: str) -> bool:
    """Whether a new process should ask a door: not turned off by :data:`ENV` or semantic recall being off."""
    from .semantic_model import semantic_off

    return os.environ.get(ENV, "").strip().lower() not in ("0", "off", "no") and not semantic_off(provider)


def peer_uid(conn: socket.socket) -> int | None:
    """The uid of the process at the other end (Linux ``SO_PEERCRED``); None where it cannot be read."""
    cred = peer_cred(conn)
    return None if cred is None else cred[1]


def identity(path: str | Path) -> tuple[int, int] | None:
    """The folder's (device, inode), following links; None when it cannot be read."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _stamp() -> str:
    from memrepo.engine.files.sourcestamp import stamp

    return stamp()


_HIT_FIELDS = {
    "ref": str,
    "path": str,
    "line": int,
    "text": str,
    "by": str,
    "meta": dict,
    "seen": str,
    "score": float | int,
    "confidence": float | int,
    "unreviewed": bool,
    "heading": str | None,
    "section": str | None,
    "mode": str,
    "scan": str | None,
    "answer": bool,
    "since": int | None,
    "replaced_by": int | None,
    "covered": float | int | None,
    "note": str | None,
}


def request_line(root: Path, query: str, options: dict[str, Any], hook: bool) -> bytes:
    """The request :func:`ask` sends: one JSON line naming the repo, this engine's source and config file."""
    from memrepo.engine.configpath import config_digest

    line = {
        "v": PROTOCOL,
        "repo": str(root),
        "stamp": _stamp(),
        "config": config_digest(),
        "query": query,
        "hook": hook,
        "options": options,
    }
    return json.dumps(line, ensure_ascii=False).encode("utf-8", "surrogateescape") + b"\n"


def ask(root: Path, query: str, options: dict[str, Any], hook: bool, budget: float = BUDGET_S) -> list[ColdHit] | None:
    """Recall's hits from the repo's door, or None when no door answered as asked (the caller answers itself).

    Args:
        root: the work tree (:func:`.coldrecall.open_repo`).
        query: the query.
        options: :func:`.coldrecall.recall`'s ``workspace``, ``limit``, ``max_bytes``, ``detail``,
            ``min_confidence``, ``related`` and ``reviewed`` (absent ones take its defaults).
        hook: the prompt hook asks (its answer floor, ``hook_answer_similarity``, and its quick look at the files).
        budget: seconds for the whole exchange.

    Returns:
        list[ColdHit] | None: best first, each ``via`` the process that answered; None on any failure
        (never raises).
    """
    path = door_path(root)
    if not os.path.exists(path):
        return None  # no door: the common case, answered before socket is even imported (a new process's cost)
    from .doorstate import mark_missed, skipped_until

    if skipped_until(path) is not None:
        return None  # it missed a budget moments ago: not asked again for a while (.doorstate)
    import socket

    deadline = time.monotonic() + budget
    workspace = options.get("workspace")
    if isinstance(workspace, str) and not os.path.isabs(workspace):
        from memrepo.engine.format.paths import is_workspace_path

        if is_workspace_path(workspace):  # the door's process has another working folder and home
            options = {**options, "workspace": os.path.abspath(os.path.expanduser(workspace))}
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.settimeout(budget)
        with _address(path) as address:
            conn.connect(address)  # no door: FileNotFoundError; a stale socket: ConnectionRefusedError, at once
        uid = peer_uid(conn)
        if uid is not None and uid != os.getuid():
            return None
        data = request_line(root, query, options, hook)
        if len(data) > REQUEST_MAX:
            return None
        conn.sendall(data)
        chunks, size = [], 0
        while size <= REPLY_MAX:
            left = deadline - time.monotonic()
            if left <= 0:
                mark_missed(path)
                return None
            conn.settimeout(left)
            chunk = conn.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        else:
            return None
        return _hits(json.loads(b"".join(chunks)))
    except TimeoutError:  # a door that hangs (stopped, stuck): the next askers skip it for a while
        mark_missed(path)
        return None
    except (OSError, ValueError):
        return None
    finally:
        conn.close()


def _hits(reply: object) -> list[ColdHit] | None:
    """The hits of a door's reply, or None when it has none to give or is not of the protocol's shape."""
    from .coldhit import ColdHit

    if not isinstance(reply, dict) or not isinstance(reply.get("via"), str) or not isinstance(reply.get("hits"), list):
        return None
    out = []
    for got in reply["hits"]:
        if not isinstance(got, dict) or not all(isinstance(got.get(k), t) for k, t in _HIT_FIELDS.items()):
            return None
        hit = ColdHit(got["path"], got["line"], got["text"], got["by"], got["meta"], got["score"], got["confidence"])
        for name in _HIT_FIELDS:
            setattr(hit, name, got.get(name))
        hit.via = reply["via"]
        out.append(hit)
    return out


_OPTIONS = {
    "workspace": str | None,
    "limit": int,
    "max_bytes": int,
    "detail": str,
    "min_confidence": float | int | None,
    "related": bool,
    "reviewed": bool,
}


class RecallDoor(threading.Thread):
    """The door of one warm process: listens on :func:`door_path` and answers each request (see the module).

    Args:
        root: the work tree.
        settings: ``[semantic]`` as the process loaded it.
        shared: the process's own semantic half; its model is used (loaded once) and its background
            build kicked, while the vectors are read on this thread.
        via: who answers, for the asker's mode line (``the MCP server``).
        after: set when the process has answered what must not wait for the model's load (the MCP server's
            ``initialize``); the door loads it, then listens, only then (or after :data:`AFTER_WAIT_S`).
    """

    def __init__(
        self,
        root: Path,
        settings: SemanticSettings,
        shared: SemanticRecall,
        via: str,
        after: threading.Event | None = None,
    ) -> None:
        super().__init__(name="memrepo-recall-door", daemon=True)
        from memrepo.engine.configpath import config_digest

        from .semantic_fuse import SemanticRecall

        self.root = Path(root)
        self.settings = settings
        self.hook_settings = settings.model_copy(update={"answer_similarity": settings.hook_answer_similarity})
        self.builder = shared.builder()
        self.warm = SemanticRecall(self.root, settings, shared.embedder, builder=self.builder)
        self.via = via
        self.after = after
        self.folder = identity(self.root)
        self.stamp = _stamp()
        self.config = config_digest()
        self.ready = threading.Event()
        """Set once the door listens (or gave up: :attr:`listening` False)."""
        self.listening = False
        self._closing = threading.Event()
        self._inode: int | None = None
        self._probed = 0.0
        self._seen_built = False
        self._build_started = False

    def close(self, timeout: float = 5.0) -> None:
        """Stop answering, remove the socket (if still ours) and wait for the thread."""
        self._closing.set()
        if self.is_alive():
            self.join(timeout)

    def accepts(self, req: object) -> bool:
        """True for a request of this protocol, repo folder, engine source and config file."""
        if not isinstance(req, dict) or req.get("v") != PROTOCOL or self.folder is None:
            return False
        options = req.get("options")
        return (
            isinstance(req.get("repo"), str)
            and identity(req["repo"]) == self.folder
            and req.get("stamp") == self.stamp
            and req.get("config") == self.config
            and isinstance(req.get("query"), str)
            and isinstance(req.get("hook"), bool)
            and isinstance(options, dict)
            and all(k in _OPTIONS and isinstance(v, _OPTIONS[k]) for k, v in options.items())
        )

    def answer(self, req: dict[str, Any]) -> dict[str, Any]:
        """The reply to an accepted request: ``{"via", "hits"}``, ``hits`` None while no recall index is built."""
        from . import coldrecall
        from .recallbuilding import build_state

        built, done = build_state(self.root)
        self._seen_built = self._seen_built or built
        if not built and (done is not None or not self._seen_built):
            return {"via": self.via, "hits": None}  # the asker scans the files or starts the build, as it does
        # (False, None) once it was built: the file is held for a moment (this process's vector build
        # attaches it), not unbuilt; recall waits for it as any reader does.
        from .semantic_store import vectors_path

        if self.builder is not None and not vectors_path(self.root).is_file():
            self.builder.kick()  # no vectors yet: the first build starts (then each fusion kicks the next)
        hook = req["hook"]
        hits = coldrecall.recall(
            self.root,
            req["query"],
            **req["options"],
            quick=hook,
            semantic=self.hook_settings if hook else self.settings,
            warm=self.warm,
        )
        return {"via": self.via, "hits": [{**hit.as_dict(), "covered": hit.covered, "note": hit.note} for hit in hits]}

    def run(self) -> None:
        """Warm the model, listen, start the vectors' build when the index is built, answer; never raises."""
        listener = None
        try:
            from .recallbuilding import build_state

            self._seen_built = build_state(self.root)[0]
            # Loading numpy and the model holds the GIL: not while the MCP server answers initialize.
            until = time.monotonic() + AFTER_WAIT_S
            while self.after is not None and not self.after.wait(0.1) and not self._closing.is_set():
                if time.monotonic() > until:
                    break
            self._warm_model()
            listener = self._listen()
            self.listening = listener is not None
            self.ready.set()
            while listener is not None and not self._closing.is_set():
                self._start_build()
                with contextlib.suppress(TimeoutError, BlockingIOError, InterruptedError):
                    conn, _ = listener.accept()
                    with conn:
                        self._serve(conn)
                if not self._in_place():
                    listener.close()
                    listener = self._listen()
        except Exception:  # the door is a shortcut: without it every asker answers itself
            pass
        finally:
            self.ready.set()
            if listener is not None:
                listener.close()
                with contextlib.suppress(OSError):
                    if os.stat(door_path(self.root)).st_ino == self._inode:
                        os.unlink(door_path(self.root))
            self.warm.close()

    def _warm_model(self) -> None:
        """Load the model before the door listens, vectors or not (the first asker never waits for the load).

        With no vectors yet the build loads it anyway, moments later; loading it here first means neither the
        first hybrid answer nor the answer that starts the build pays the load (breaker4 F4: a new user's
        first prompts missed the door's budget while the model loaded, 600-670 ms, and got lexical or nothing).
        """
        from .semantic_model import ModelUnavailable

        if self.warm.embedder is not None:
            with contextlib.suppress(ModelUnavailable):
                self.warm.embedder.embed(["warm"], query=True)

    def _start_build(self) -> None:
        """Start the vectors' build once the recall index is built (the process builds it at start), once.

        Before, the first build waited for the first recall: a new user's first minute had no vectors at all.
        The build runs at the lowest CPU priority on its own thread (:class:`.semantic_build.VectorBuilder`),
        resumes where an earlier one stopped, and finds nothing to do when the vectors are complete.
        """
        if self._build_started or self.builder is None:
            return
        from .recallbuilding import build_state

        if build_state(self.root)[0]:
            self._build_started = True
            self.builder.kick()

    def _listen(self) -> socket.socket | None:
        """A listening socket at :func:`door_path`, mode 0600, put in place atomically; None when none can be."""
        path = door_path(self.root)
        scratch = path.with_name(f"{SOCKET}.{os.getpid()}")
        import socket

        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(scratch)
            with _address(scratch) as address:
                server.bind(address)
            os.chmod(scratch, 0o600)
            server.listen(16)
            os.replace(scratch, path)
            self._inode = os.stat(path).st_ino
            from .doorstate import clear_missed

            clear_missed(path)  # a new door: another's miss is not its own (an inode number can come back)
        except OSError:
            server.close()
            with contextlib.suppress(OSError):
                os.unlink(scratch)
            return None
        server.settimeout(TICK_S)
        return server

    def _in_place(self) -> bool:
        """False when the socket file is gone, or is a dead door's (then this door makes it again).

        Another live door's socket is left to it. A socket whose process died (``kill -9``, a closed terminal)
        stays on disk and refuses connections: found by one connect every :data:`PROBE_S`, which the live
        door sees as a request that closed unsent (breaker4: two sessions on one repo, the owner killed,
        and the other's door never took the path back, so every prompt of both got lexical recall).
        """
        path = door_path(self.root)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return False
        except OSError:
            return True
        if st.st_ino == self._inode:
            return True
        now = time.monotonic()
        if now - self._probed < PROBE_S:
            return True
        self._probed = now
        import socket

        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.settimeout(TICK_S)
            with _address(path) as address:
                probe.connect(address)
        except (ConnectionRefusedError, FileNotFoundError):
            return False  # dead: take the path back
        except OSError:
            return True
        finally:
            probe.close()
        return True

    def _serve(self, conn: socket.socket) -> None:
        """Read one request, answer it if it is accepted, else close unanswered."""
        started = time.monotonic()
        conn.settimeout(READ_WAIT_S)
        uid = peer_uid(conn)
        if uid is not None and uid != os.getuid():
            return
        buf = b""
        while not buf.endswith(b"\n") and len(buf) <= REQUEST_MAX:
            chunk = conn.recv(65536)
            if not chunk:
                return
            buf += chunk
        try:
            req = json.loads(buf.decode("utf-8", "surrogateescape"))
        except ValueError:
            return
        if not self.accepts(req):
            return
        try:
            reply = self.answer(req)
        except Exception as exc:  # the asker answers itself
            import logging

            logging.getLogger("memrepo.recalldoor").warning(
                "the recall door could not answer: %s: %s", type(exc).__name__, exc, exc_info=True
            )
            return
        with contextlib.suppress(OSError):
            conn.sendall(json.dumps(reply, ensure_ascii=False).encode("utf-8", "surrogateescape"))
        if time.monotonic() - started < BUDGET_S:  # answered in time: askers that skipped this door ask again
            from .doorstate import clear_missed

            clear_missed(door_path(self.root))
