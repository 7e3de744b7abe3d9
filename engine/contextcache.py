"""The context block a new process rendered, kept for the next one (docs/architecture.md §4, §5).

Hooks print the block at the start of every agent session, each time in a
new process (:func:`.coldread.context_text`). Rendering it compiles our
redaction rules and runs them over every line: at 20,000 files about a third
of the process after its imports. Between two sessions the block rarely
changes, so the text is kept in ``.git/memrepo/context-cache/``, one file per
key, and the next process with the same key prints it without rendering.

The key (a SHA-256) covers all the block depends on: HEAD, the workspace's id
and file, ``[context] me_md``, each file's ``lstat`` (size, mtime, ctime,
inode and mode: an in-place edit that puts the old mtime back still moves
ctime; a file turned symlink changes its mode) and the ``workspaces/``
folder's, the redaction epoch (the allow-list and the detectors,
:func:`.redactionepoch.redaction_epoch`) and the engine's source files' sizes and
times (another memrepo renders another way).

The kept text holds entries, so forgetting reaches it: :func:`clear` removes
every kept block, and forgetting and compaction call it
(:func:`.recallfile.scrub_recall`); a block is kept only for the commit it
was made at (each :func:`put` drops the blocks of other commits, so text a
commit removed leaves with the next block, and drops its own block when a
commit landed while it rendered), at most :data:`MAX_KEPT` of them, the newest.

Which workspaces blocks were asked for is noted (:func:`note_wanted`: ids
only, no text), so a process that just wrote can render those blocks again at
its new commit (:func:`memrepo.engine.coldread.render_wanted`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from .layout import WORKSPACES
from .regularfile import stat_key
from .sourcestamp import stamp as source_stamp

FOLDER = "context-cache"
"""The kept blocks' folder in ``.git/memrepo/``."""
MAX_KEPT = 32
"""Blocks kept at most (the newest by mtime)."""
VERSION = "1"


def _lstat(path: Path) -> str:
    key = stat_key(path, follow=False)
    return "-" if key is None else ":".join(map(str, key))


def key(
    root: Path, state: Path, head: str, ws_id: str | None, ws_file: str | None, me_md: bool, files: list[str]
) -> str:
    """The key of the block these inputs render.

    Args:
        root: the repo's work tree.
        state: its ``.git/memrepo/`` folder.
        head: HEAD's commit id ("" while unborn).
        ws_id: the workspace's id, or None for MEMORY.md alone.
        ws_file: the workspace's file (repo-relative), or None.
        me_md: ``[context] me_md``.
        files: the repo-relative files the block reads.

    Returns:
        str: 64 hex digits.
    """
    from .redactionepoch import redaction_epoch

    parts = [VERSION, head, ws_id or "", ws_file or "", str(me_md), redaction_epoch(state), source_stamp()]
    parts.append(f"{WORKSPACES}/:{_lstat(root / WORKSPACES)}")
    parts.extend(f"{rel}:{_lstat(root / rel)}" for rel in files)
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def _name(head: str, block_key: str) -> str:
    return f"{head[:12] or 'unborn'}-{block_key}"


def get(state: Path, head: str, block_key: str) -> str | None:
    """The block kept under ``block_key`` at ``head``, or None."""
    try:
        return (state / FOLDER / _name(head, block_key)).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def put(state: Path, head: str, block_key: str, text: str, head_now: Callable[[], str]) -> None:
    """Keep ``text`` under ``block_key`` at ``head``, atomically, and drop the blocks kept at other commits.

    A block made at an older commit can never be asked for again (HEAD is in
    its key) and may hold text a later commit removed: it goes now. A failure
    to write only costs the next process a render.

    Args:
        state: the repo's ``.git/memrepo/`` folder.
        head: the commit the block was rendered at.
        block_key: :func:`key`.
        text: the block.
        head_now: reads HEAD again once the block is written: when a commit
            came meanwhile (a forget that cleared the kept blocks while this
            one was being rendered), the block goes at once, so it can never
            outlive the forget's clear.
    """
    folder = state / FOLDER
    name = _name(head, block_key)
    temp = folder / f".{name}.{os.getpid()}.tmp"
    try:
        folder.mkdir(exist_ok=True)
        temp.write_text(text, "utf-8")
        os.replace(temp, folder / name)
        if head_now() != head:
            (folder / name).unlink(missing_ok=True)
            return
        kept = [p for p in folder.iterdir() if not p.name.startswith(".")]
    except OSError:
        for path in (temp, folder / name):
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
        return
    prefix = name.split("-", 1)[0] + "-"
    same_head = []
    for path in kept:
        if path.name.startswith(prefix):
            same_head.append(path)
        else:
            with contextlib.suppress(OSError):
                path.unlink()
    if len(same_head) > MAX_KEPT:
        with contextlib.suppress(OSError):
            same_head.sort(key=lambda p: p.stat().st_mtime_ns, reverse=True)
            for path in same_head[MAX_KEPT:]:
                path.unlink(missing_ok=True)


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


def clear(state: Path) -> None:
    """Remove every kept block (forgetting and compaction: the text may hold what was forgotten)."""
    import shutil

    shutil.rmtree(state / FOLDER, ignore_errors=True)
