"""Git plumbing for compaction's last steps (docs/architecture.md §5): what names old commits, and old objects.

:func:`remove_strays` deletes reflogs, pseudo-refs, old messages and ref lists;
:func:`delete_old_objects` deletes every pack but the new one and every loose object,
run only once nothing refers to them any more (the order lives in
:mod:`memrepo.engine.history.compact`).
"""

from __future__ import annotations

import contextlib
import re
import shutil
from collections.abc import Callable
from pathlib import Path

from .compactpack import fsync_dir

STRAY_FILES = (
    "ORIG_HEAD",
    "FETCH_HEAD",
    "AUTO_MERGE",
    "COMMIT_EDITMSG",
    "MERGE_MSG",
    "SQUASH_MSG",
    "TAG_EDITMSG",
    "NOTES_EDITMSG",
    "EDIT_DESCRIPTION",
    "gc.log",
    "info/refs",
    "objects/info/packs",
    "objects/info/commit-graph",
    "objects/pack/multi-pack-index",
    "packed-refs",
    "shallow",
)
"""Files under ``.git`` that name old commits or hold old text (messages, ref lists, commit
graphs, a shallow clone's boundary); removed before any object is deleted. ``packed-refs`` goes
once ``main`` is a loose ref."""

STRAY_DIRS = (
    "logs",
    "rr-cache",
    "lost-found",
    "objects/info/commit-graphs",
    "refs/original",
    "sequencer",
)
"""Folders under ``.git`` that do the same: reflogs, rerere's recorded conflicts (file text),
``fsck --lost-found`` output (object text), split commit graphs, filter-branch backups and a
finished cherry-pick's or revert's leftover to-do list (an unfinished one blocks compaction)."""

_PSEUDO_REF_RE = re.compile(r"^[A-Z_]+_HEAD$")
_LOOSE_DIR_RE = re.compile(r"^[0-9a-f]{2}$")
_PACK_SUFFIXES = (".idx", ".pack", ".rev", ".bitmap", ".mtimes", ".promisor", ".keep")
"""Deleted in this order, index first, so no index ever names a missing pack."""


def remove_strays(git_dir: Path) -> list[str]:
    """Delete reflogs, pseudo-refs (``ORIG_HEAD``, ``FETCH_HEAD`` ...), old messages and ref lists.

    Run after :meth:`.compact.GitCompactor.move_main`, so ``main`` is a loose ref and
    ``packed-refs`` can go.

    Returns:
        list[str]: the ``.git``-relative paths removed.
    """
    removed: list[str] = []
    names = list(STRAY_FILES)
    with contextlib.suppress(OSError):
        names += [p.name for p in git_dir.iterdir() if p.is_file() and _PSEUDO_REF_RE.match(p.name)]
    for rel in names:
        path = git_dir / rel
        if path.is_file() or path.is_symlink():
            path.unlink(missing_ok=True)
            removed.append(rel)
    for rel in STRAY_DIRS:
        path = git_dir / rel
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
            removed.append(rel)
    return removed


def old_object_files(objects: Path, keep_pack: str) -> tuple[list[Path], list[Path]]:
    """The files of every pack but ``keep_pack``, and every loose object file.

    Returns:
        tuple: (pack files in deletion order, loose object files).
    """
    pack_dir = objects / "pack"
    packs: list[Path] = []
    if pack_dir.is_dir():
        bases = sorted({p.name.split(".", 1)[0] for p in pack_dir.iterdir() if p.is_file()})
        for base in bases:
            if base == keep_pack:
                continue
            packs += [pack_dir / f"{base}{s}" for s in _PACK_SUFFIXES if (pack_dir / f"{base}{s}").exists()]
            # Anything else with this base name (a half-written temp pack, say).
            packs += [p for p in pack_dir.glob(f"{base}*") if p not in packs]
    loose: list[Path] = []
    if objects.is_dir():
        for sub in sorted(objects.iterdir()):
            if sub.is_dir() and _LOOSE_DIR_RE.match(sub.name):
                loose += sorted(sub.iterdir())
    return packs, loose


def delete_old_objects(objects: Path, keep_pack: str, each: Callable[[int, int], None] | None = None) -> int:
    """Delete every pack but ``keep_pack`` and every loose object.

    Safe only once nothing (ref, reflog, index, worktree, commit graph)
    names an object outside ``keep_pack``.

    Args:
        objects: the ``.git/objects`` folder.
        keep_pack: the base name returned by :func:`.compactpack.write_pack`.
        each: called as ``each(done, total)`` every 256 files and at the end.

    Returns:
        int: the number of files deleted.
    """
    packs, loose = old_object_files(objects, keep_pack)
    files = packs + loose
    total = len(files)
    for n, path in enumerate(files, start=1):
        path.unlink(missing_ok=True)
        if each is not None and (n % 256 == 0 or n == total):
            each(n, total)
    for sub in {p.parent for p in loose}:
        with contextlib.suppress(OSError):
            sub.rmdir()
    for tmp in objects.glob("incoming-*"):
        shutil.rmtree(tmp, ignore_errors=True)
    fsync_dir(objects / "pack")
    return total
