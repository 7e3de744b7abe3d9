"""The context block a new process rendered, kept for the next one (docs/architecture.md §4, §5).

Hooks print the block at the start of every agent session, each time in a
new process (:func:`.coldread.context_text`). Rendering it compiles our
redaction rules and runs them over every line: at 20,000 files about a third
of the process after its imports. Between two sessions the block rarely
changes, so the text is kept in ``.git/memrepo/context-cache/``, one file per
key, and the next process with the same key prints it without rendering.

The key (a SHA-256) covers all the block's lines depend on: the workspace's
id and file, ``[context] me_md``, each file's ``lstat`` (size, mtime, ctime,
inode and mode: an in-place edit that puts the old mtime back still moves
ctime; a file turned symlink changes its mode) and the ``workspaces/``
folder's, whether HEAD is born, the redaction epoch (the allow-list and the
detectors, :func:`.redactionepoch.redaction_epoch`) and the engine's source
files' sizes and times (another memrepo renders another way). HEAD itself is
not in it: the block names HEAD's short id in its two header lines only, so a
block is kept with :data:`HEAD_SLOT` in its place and :func:`get` puts the
current id there. A commit that touched none of the block's files (an agent's
``git commit`` of a project file, another workspace's write) then costs no
render.

The kept text holds entries, so forgetting reaches it: :func:`clear` removes
every kept block, and forgetting and compaction call it
(they walk :mod:`memrepo.engine.state.registry`); a block is dropped by the next :func:`put`
once it cannot be printed again: a block of the same workspace from other
inputs, or any block made before MEMORY.md or me.md changed (so text a commit
removed from them leaves with the next block); a :func:`put` drops its own
block when an input moved while it rendered (a forget may have cleared the
kept blocks meanwhile); at most :data:`MAX_KEPT` blocks are kept, the newest.

Which workspaces blocks were asked for is noted (:func:`note_wanted`: ids
only, no text), so a process that just wrote can render those blocks again at
its new commit (:func:`memrepo.engine.read.coldread.render_wanted`).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from memrepo.engine.files.regularfile import stat_key
from memrepo.engine.files.sourcestamp import stamp as source_stamp
from memrepo.engine.format.layout import LESSONS_MD, ME_MD, MEMORY_MD, WORKSPACES

FOLDER = "context-cache"
"""The kept blocks' folder in ``.git/memrepo/``."""
MAX_KEPT = 32
"""Blocks kept at most (the newest by mtime)."""
VERSION = "2"


def _lstat(path: Path) -> str:
    key = stat_key(path, follow=False)
    return "-" if key is None else ":".join(map(str, key))


HEAD_SLOT = "\x00"
"""What stands for HEAD's short id in a kept block. No line of a rendered block can hold it: rendering
removes control characters from every line it takes from a file (``context.sanitize_line``) and a file
name cannot hold NUL, so :func:`get` replacing it gives exactly the bytes a render at HEAD gives."""


def key(
    root: Path, state: Path, ws_id: str | None, ws_file: str | None, me_md: bool, files: list[str], born: bool
) -> str:
    """The name the block these inputs render is kept under.

    Args:
        root: the repo's work tree.
        state: its ``.git/memrepo/`` folder.
        ws_id: the workspace's id, or None for MEMORY.md alone.
        ws_file: the workspace's file (repo-relative), or None.
        me_md: ``[context] me_md``.
        files: the repo-relative files the block reads, MEMORY.md first.
        born: whether HEAD has a commit (an unborn HEAD's block has no commit in its header).

    Returns:
        str: ``<shared>-<workspace>-<key>``: 16 hex digits of the inputs every block shares (MEMORY.md,
        me.md, lessons.md, the epochs), the workspace id or ``memory``, and 64 hex digits of all the inputs.
    """
    from .redactionepoch import redaction_epoch

    stamps = [f"{rel}:{_lstat(root / rel)}" for rel in files]
    shared = [VERSION, str(born), str(me_md), redaction_epoch(state), source_stamp()]
    shared.extend(stamp for rel, stamp in zip(files, stamps, strict=True) if rel in (MEMORY_MD, ME_MD, LESSONS_MD))
    parts = [*shared, ws_id or "", ws_file or "", f"{WORKSPACES}/:{_lstat(root / WORKSPACES)}", *stamps]
    shared_key = hashlib.sha256("\n".join(shared).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    block_key = hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
    return f"{shared_key}-{ws_id or 'memory'}-{block_key}"


def get(state: Path, name: str, head: str) -> str | None:
    """The block kept under ``name`` (:func:`key`), with ``head`` (HEAD's short id) in its header, or None."""
    try:
        kept = (state / FOLDER / name).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return kept.replace(HEAD_SLOT, head)


def put(state: Path, name: str, text: str, name_now: Callable[[], str]) -> None:
    """Keep ``text`` (rendered with :data:`HEAD_SLOT` for HEAD) under ``name``, atomically, and drop the blocks
    that cannot be printed again (the module docstring). A failure to write only costs the next process a render.

    Args:
        state: the repo's ``.git/memrepo/`` folder.
        name: :func:`key`, taken before the files were read.
        text: the block.
        name_now: takes the key again once the block is written: when an
            input moved meanwhile, the block goes at once. A forget rewrites
            the file before it clears the kept blocks, so a block rendered
            from the text it removed either sees the file moved here or was
            written before the clear: it never outlives the forget. A commit
            of other files (HEAD alone moving) keeps it.
    """
    folder = state / FOLDER
    temp = folder / f".{name}.{os.getpid()}.tmp"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)  # owner only, as every
        with os.fdopen(fd, "w", encoding="utf-8") as fh:  # derived file (docs/architecture.md §4)
            os.fchmod(fh.fileno(), 0o600)
            fh.write(text)
        os.replace(temp, folder / name)
        if name_now() != name:
            (folder / name).unlink(missing_ok=True)
            return
        kept = [p for p in folder.iterdir() if not p.name.startswith(".") and p.name != name]
    except OSError:
        for path in (temp, folder / name):
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
        return
    shared, workspace = _shared_and_workspace(name)
    current = []
    for path in kept:
        other_shared, other_workspace = _shared_and_workspace(path.name)
        if other_shared != shared or other_workspace in (workspace, None):
            with contextlib.suppress(OSError):
                path.unlink()
        else:
            current.append(path)
    if len(current) >= MAX_KEPT:
        with contextlib.suppress(OSError):
            current.sort(key=lambda p: p.stat().st_mtime_ns, reverse=True)
            for path in current[MAX_KEPT - 1 :]:
                path.unlink(missing_ok=True)


def _shared_and_workspace(name: str) -> tuple[str, str | None]:
    """The shared inputs' key and the workspace of a kept block's name (:func:`key`); None for a name of
    another form (an older memrepo's)."""
    shared, _, rest = name.partition("-")
    workspace, _, block_key = rest.rpartition("-")
    return shared, (workspace if workspace and len(block_key) == 64 else None)


WANTED = ".wanted"
"""The file (in the kept blocks' folder, dot-named so :func:`put` keeps it) listing the workspaces asked for."""
WANTED_MAX = 4
"""Workspaces :func:`note_wanted` remembers (the most recent)."""


def note_wanted(state: Path, ws_id: str | None) -> None:
    """Remember that a block was asked for with workspace ``ws_id`` (None: MEMORY.md alone); never raises.

    The write server renders these again after each write (:func:`wanted`),
    so the next session's hook finds its block kept at the new commit.
    """
    import json

    path = state / FOLDER / WANTED
    asked = [w for w in wanted(state) if w != ws_id]
    with contextlib.suppress(OSError):
        temp = path.with_name(f"{WANTED}.{os.getpid()}.tmp")
        temp.write_text(json.dumps([ws_id or "", *(w or "" for w in asked)][:WANTED_MAX]), "utf-8")
        os.replace(temp, path)


def wanted(state: Path) -> list[str | None]:
    """The workspaces blocks were last asked for, most recent first (None: MEMORY.md alone); [] when unknown."""
    import json

    try:
        got = json.loads((state / FOLDER / WANTED).read_text("utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(got, list):
        return []
    return [w or None for w in got if isinstance(w, str) and (not w or w.startswith("ws-"))][:WANTED_MAX]


LOCK = "context-cache.lock"
"""The lock file (in ``.git/memrepo/``, beside the kept blocks' folder, so :func:`clear` keeps it)."""
CLEAR_WAIT_S = 10.0
"""How long :func:`clear` waits for the renders under way (each holds the lock some milliseconds)."""


@contextlib.contextmanager
def rendering(state: Path) -> Iterator[None]:
    """Hold the kept blocks' lock, shared, from a render's first read of a file to its :func:`put`.

    :func:`clear` takes it exclusively, so a render that read a file before a forget rewrote it has
    written or dropped its block (or died, which frees the lock) before the forget's clear runs: no
    block and no temporary file with the forgotten text can outlive it. Found by a helper: a render
    killed between its write and its check left the forgotten text in a kept block. Never raises:
    a lock that cannot be taken (a read-only ``.git``) leaves the render as before.

    Args:
        state: the repo's ``.git/memrepo/`` folder.
    """
    fd = _open_lock(state)
    with contextlib.suppress(OSError):
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_SH)
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)


def _open_lock(state: Path) -> int | None:
    """A descriptor of :data:`LOCK` (made when missing), or None when it cannot be opened."""
    try:
        return os.open(state / LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return None


def clear(state: Path) -> None:
    """Remove every kept block (forgetting and compaction: the text may hold what was forgotten).

    Waits (at most :data:`CLEAR_WAIT_S`) for the renders under way (:func:`rendering`), then removes
    the folder, temporary files too. A render stopped for longer (``SIGSTOP``) is not waited for: its
    :func:`put` still drops its block when it wakes, since the forget moved its inputs.

    Args:
        state: the repo's ``.git/memrepo/`` folder.
    """
    import shutil
    import time

    fd = _open_lock(state)
    try:
        deadline = time.monotonic() + CLEAR_WAIT_S
        while fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.005)
            except OSError:
                break
        shutil.rmtree(state / FOLDER, ignore_errors=True)
    finally:
        if fd is not None:
            os.close(fd)
