"""The work tree's file list: every memory file with its size, whole or for the paths an event named.

What the Folder pane and the writer's file-count limit see (docs/architecture.md
§3): every file under the repo root but ``.git``, editors' scratch files and
the writer's temp files (:func:`memrepo.engine.format.scratch.is_scratch_name`), and
FIFOs, sockets or devices; a symlink is listed with its own size and never
followed, nor is a symlinked folder entered.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from memrepo.engine.format.scratch import is_scratch_name

__all__ = ["file_sizes", "list_files"]


def list_files(root: Path) -> list[tuple[str, int]]:
    """Every file in the work tree (not ``.git``, not scratch or temp files), sorted, with its size in bytes.

    Symlinks are listed with their own size and never followed.
    """
    out: list[tuple[str, int]] = []
    stack = [(root, "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            it = os.scandir(folder)
        except OSError:
            continue
        with it:
            for de in it:
                if not prefix and de.name.casefold() == ".git":
                    continue
                if is_scratch_name(de.name):  # editors' scratch files are not memory
                    continue
                rel = prefix + de.name
                try:
                    if de.is_dir(follow_symlinks=False):
                        stack.append((Path(de.path), rel + "/"))
                        continue
                    st = de.stat(follow_symlinks=False)  # one lstat says the kind and the size
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode):
                    out.append((rel, st.st_size))
                # else a FIFO, socket or device: not memory (reading it would block)
    out.sort()
    return out


def file_sizes(root: Path, paths: Iterable[str]) -> dict[str, int | None] | None:
    """What :func:`list_files` would say of these paths now, without walking the tree.

    Args:
        root: the work tree.
        paths: repo-relative paths (a watcher's events).

    Returns:
        dict | None: each path's size in bytes, or None for a path the list
        would not hold (gone, scratch, inside ``.git`` or a symlinked folder,
        not a regular file or symlink); None for the whole answer when a
        path is a folder now (a folder moved in: only a walk lists it).
    """
    out: dict[str, int | None] = {}
    for rel in paths:
        parts = rel.split("/")
        if not rel or parts[0].casefold() == ".git" or any(not p or p in (".", "..") for p in parts):
            out[rel] = None
            continue
        if any(is_scratch_name(p) for p in parts):
            out[rel] = None
            continue
        folder = root
        listed = True
        for part in parts[:-1]:
            folder = folder / part
            try:
                listed = stat.S_ISDIR(os.lstat(folder).st_mode)
            except OSError:
                listed = False
            if not listed:
                break
        if not listed:
            out[rel] = None
            continue
        full = root / rel
        try:
            st = os.lstat(full)
        except OSError:
            out[rel] = None
            continue
        if stat.S_ISDIR(st.st_mode):
            return None
        out[rel] = st.st_size if stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode) else None
    return out
