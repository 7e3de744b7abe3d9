"""``memrepo remember`` handed to a write server that has the engine loaded (docs/architecture.md §4).

A new ``memrepo remember`` process spends nearly all its time importing
(pygit2, pydantic, the secret rules): about ten times the write itself. The
first one that wrote starts a write server (:mod:`memrepo.cli.writeserver`):
a process with the engine loaded that waits on a unix socket for the next
``remember`` of the same repo, opens the store for each one as a new process
would, and exits after ``[writes] server_idle_s`` seconds (default 300) of
quiet. The next ``remember`` sends its arguments there and prints the reply:
the same bytes and exit code as the click command (both run
:func:`memrepo.cli.remembering.remember`).

The socket is ``<runtime dir>/memrepo/w-<device>-<inode>.sock`` (the repo folder's):
``$XDG_RUNTIME_DIR``, else ``$TMPDIR`` or ``/tmp`` with ``memrepo-<uid>``;
the folder is the user's own, mode 0700, or nothing is handed. A request
carries a stamp of memrepo's source files and the config file's digest: a
server started by another version or with other settings refuses it and
exits, and the write runs here. Any other failure (no server, a dead one, a
reply that does not parse) runs the write here too: the governed writer's
dedupe makes a write the server did but could not report come back as
``reinforced``.

``MEMREPO_WRITE_SERVER=0`` (or ``[writes] server_idle_s = 0``) turns it off;
``MEMREPO_WRITE_SERVER=SECONDS`` sets the wait.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import socket
    from collections.abc import Callable

    from memrepo.engine.configpath import ReadKeys

ENV = "MEMREPO_WRITE_SERVER"
"""Environment variable: ``0`` turns the write server off; a number of seconds is its wait (over the config's)."""
REQUEST_MAX = 1024 * 1024
"""Most bytes of one request or reply."""
REPLY_WAIT_S = 30.0
"""Seconds a client waits for the reply at most (the server hands a write back when the repo's lock is busy)."""
ALIVE_WAIT_S = 1.5
"""Seconds a client waits for a sign of life: the server's door sends a newline several times a second
(:mod:`.writedoor`), so a silence this long is a stopped or hung server and the client writes itself."""
IDLE_MAX_S = 86_400.0
"""The longest wait a write server is given (a day): none waits for ever."""
PROTOCOL = 2

_VALUED = {
    "--kind": "kind",
    "--scope": "scope",
    "--workspace": "workspace",
    "--subject": "subject",
    "--supersedes": "supersedes",
    "--by": "by",
    "--source": "source",
    "--task": "task",
    "--origin-text": "origin_text",
}
_FLAGS = {"--pin": "pin", "--untrusted": "untrusted", "--json": "as_json"}
_CHOICES = {"scope": ("global", "workspace"), "by": ("user", "agent")}


def parse_remember(argv: list[str]) -> dict[str, object] | None:
    """``[--repo PATH] remember TEXT [options]`` in its plain forms, or None for click to read.

    Args:
        argv: the command line after the program name.

    Returns:
        dict | None: ``repo`` (None when absent), ``text`` and every option
        of ``memrepo remember`` (None or False when absent); None for
        anything click would read otherwise or refuse (``--opt=value``, a
        repeated option, ``--help``, an unknown option, a value click's
        choices refuse, a blank ``--workspace``, a text starting with ``-``).
    """
    from .quickbase import read_plain, split_repo

    split = split_repo(argv)
    if split is None or not split[1] or split[1][0] != "remember":
        return None
    read = read_plain(split[1][1:], _VALUED, _FLAGS, equals=False)
    if read is None:
        return None
    got: dict[str, object] = {"repo": split[0], "text": read[0]}
    got.update(dict.fromkeys(_VALUED.values()))
    got.update(dict.fromkeys(_FLAGS.values(), False))
    got.update(read[1])
    for name, allowed in _CHOICES.items():
        if got[name] is not None and got[name] not in allowed:
            return None
    if got["workspace"] is not None and not str(got["workspace"]).strip():
        return None
    return got


def idle_seconds(keys: ReadKeys) -> float:
    """How long a write server waits for the next write: ``$MEMREPO_WRITE_SERVER``, else the config's; 0 = none.

    At most :data:`IDLE_MAX_S`; anything but a finite positive number means none.
    """
    import math

    value = os.environ.get(ENV, "").strip()
    if value:
        try:
            seconds = float(value)
        except ValueError:
            return 0.0  # "off", "no", ...: anything but a number turns it off
    else:
        seconds = keys.server_idle_s
    return min(seconds, IDLE_MAX_S) if math.isfinite(seconds) and seconds > 0 else 0.0


def socket_path(root: str) -> str | None:
    """The write server's socket for the repo folder at ``root`` (an absolute path), or None when none may be used.

    The folder is made mode 0700 when missing; one that is not a folder of
    this user's, readable by nobody else, means None, as does a path too long
    for a unix socket.
    """
    import socket
    import stat

    if not hasattr(socket, "AF_UNIX") or not hasattr(os, "getuid"):
        return None
    runtime = os.environ.get("XDG_RUNTIME_DIR", "").strip()
    if runtime and not os.path.isabs(runtime):
        runtime = ""  # the XDG rule: a relative value is ignored
    base = Path(runtime) / "memrepo" if runtime else Path(os.environ.get("TMPDIR") or "/tmp") / f"memrepo-{os.getuid()}"
    try:
        base.mkdir(mode=0o700, parents=bool(runtime), exist_ok=True)
        st = os.lstat(base)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    try:
        repo = os.stat(root)  # the folder's device and inode name it: no digest library to load
    except OSError:
        return None
    path = str(base / f"w-{repo.st_dev:x}-{repo.st_ino:x}.sock")
    return path if len(path.encode()) < 100 else None


def source_stamp() -> str:
    """A stamp of the engine's and the command line's source (another version answers another way)."""
    from memrepo.engine.files.sourcestamp import ENGINE_FOLDERS, stamp

    return stamp((*ENGINE_FOLDERS, Path(__file__).resolve().parent))


ENV_KEYS = (
    "HOME",
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
    "XDG_DATA_HOME",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_NOSYSTEM",
    "GIT_CONFIG_SYSTEM",
    "EMAIL",
    "TZ",
)
"""Environment variables a write reads (git's identity and config, the user folders, the time zone of the
``added:`` date and the commit): a server started with other values refuses the request."""


def environment() -> dict[str, str | None]:
    """This process's values of :data:`ENV_KEYS` (None when unset)."""
    return {key: os.environ.get(key) for key in ENV_KEYS}


def request(root: str, args: dict[str, object]) -> bytes | None:
    """The request line for ``args`` (what :func:`parse_remember` read), or None when this config cannot be read."""
    from memrepo.engine.configpath import config_digest

    digest = config_digest()
    try:
        cwd = os.getcwd()
    except OSError:  # a folder removed under us: this process writes, as it always did
        return None
    if digest is None:
        return None
    body = {k: v for k, v in args.items() if k != "repo"}
    line = {
        "v": PROTOCOL,
        "repo": root,
        "stamp": source_stamp(),
        "config": digest,
        "env": environment(),
        "cwd": cwd,
        "args": body,
    }
    data = json.dumps(line, ensure_ascii=False).encode("utf-8", "surrogateescape") + b"\n"
    return data if len(data) <= REQUEST_MAX else None


def receive(conn: socket.socket, line: bool) -> bytes:
    """What the other end sends, to its end (or, with ``line``, to a newline), at most about :data:`REQUEST_MAX`.

    Raises:
        OSError: the socket's timeout passed, or the connection broke.
    """
    chunks: list[bytes] = []
    size = 0
    while size <= REQUEST_MAX:
        chunk = conn.recv(65536)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if line and chunk.endswith(b"\n"):
            break
    return b"".join(chunks)


LEFT_SILENT = [False]
"""Whether this process handed its line to a server that then went silent (:func:`hand_over`): stopped mid-write,
it may still write the line once it runs again (breaker27 B27-8), so a busy lock after it is no plain "retry"."""


def hand_over(sock_path: str, data: bytes) -> dict[str, object] | None:
    """Send one request to the server at ``sock_path``; its reply, or None when nobody answered as asked.

    A server silent for :data:`ALIVE_WAIT_S` (stopped, hung, or not a write server) is left at once, and
    its socket removed so the next ``remember`` does not wait for it again.
    """
    import socket
    import time

    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    chunks: list[bytes] = []
    sent = False
    try:
        conn.settimeout(1.0)
        conn.connect(sock_path)
        conn.sendall(data)  # one line: the server reads to its newline, then sees whether we are still here
        sent = True
        conn.settimeout(ALIVE_WAIT_S)
        deadline = time.monotonic() + REPLY_WAIT_S
        size = 0
        while size <= REQUEST_MAX and time.monotonic() < deadline:
            chunk = conn.recv(65536)  # a newline several times a second while the server works
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        else:
            return None
    except TimeoutError:
        LEFT_SILENT[0] = LEFT_SILENT[0] or sent
        _forget_silent(sock_path)
        return None
    except OSError:
        return None
    finally:
        conn.close()
    try:
        reply = json.loads(b"".join(chunks))
    except ValueError:
        return None
    if isinstance(reply, dict) and reply.get("self") is True:
        return reply  # the repo's lock is busy: this process writes, waiting for it as any writer
    if not isinstance(reply, dict) or not all(isinstance(reply.get(k), t) for k, t in _REPLY.items()):
        return None
    return reply


_REPLY = {"out": str, "err": str, "code": int}


def _forget_silent(sock_path: str) -> None:
    """Remove a silent server's socket: it exits when it wakes (not its socket any more); a new one starts."""
    import contextlib

    with contextlib.suppress(OSError):
        os.unlink(sock_path)


def start_server(root: str, sock_path: str, idle: float) -> None:
    """Start a write server for ``root`` beside this process (detached; it exits after ``idle`` quiet seconds)."""
    import contextlib
    import subprocess

    with contextlib.suppress(OSError):  # no server: every remember runs in its own process, as before
        subprocess.Popen(
            [sys.executable, "-m", "memrepo.cli.writeserver", root, sock_path, repr(idle)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
            cwd="/",
        )


def remember(args: dict[str, object], keys: ReadKeys) -> Callable[[], None] | None:
    """Hand ``memrepo remember`` to the repo's write server (exits when it wrote), or say how to start one.

    Args:
        args: what :func:`parse_remember` read.
        keys: the config's keys (:func:`memrepo.cli.quickbase.config_keys`).

    Returns:
        Callable | None: when the write must run in this process (click's
        command): None, or, when no server answered, what starts one for the
        next write (the caller runs it once this write succeeded). Exits with
        the server's exit code when the server wrote and its reply was printed.
    """
    idle = idle_seconds(keys)
    if idle <= 0:
        return None
    repo = args["repo"] or os.environ.get("MEMREPO_REPO") or keys.repo
    try:
        root = os.path.abspath(os.path.expanduser(str(repo)))  # as given: the store's own rules see a symlink
        if not os.path.isdir(os.path.join(root, ".git")):
            return None  # a repo the command creates: no server before it exists
    except (OSError, ValueError):
        return None
    sock_path = socket_path(root)
    data = request(root, args) if sock_path else None
    if sock_path is None or data is None:
        return None
    import time

    sent = time.time()
    reply = hand_over(sock_path, data) if os.path.exists(sock_path) else None
    if reply is None:
        return lambda: start_server(root, sock_path, idle)
    if reply.get("self"):
        return None
    from .replycheck import reply_holds

    if not reply_holds(root, reply, str(args["text"]), sent):
        return None  # the repo does not hold what the reply says: written here (dedupe keeps one entry)
    sys.stdout.write(str(reply["out"]))
    sys.stdout.flush()
    sys.stderr.write(str(reply["err"]))
    sys.stderr.flush()
    sys.exit(int(reply["code"]))  # type: ignore[call-overload]
