"""A write's changes to the work tree, put back when its commit fails (docs/architecture.md §3).

A transaction renames new files over the old ones, then commits. When the
commit fails (a full disk, a git lock held too long) the files must be as
they were: a change left in the work tree would later be committed as a
hand edit, or shown in ``git status``, for a write reported as failed.
Before each replacement or deletion the old file gets a second name, a
hard link beside it (a scratch name, never committed), so putting it back
is one rename and needs no free space. Where a link cannot be made (a
file system without hard links) the bytes the transaction read are written
back instead.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Callable
from pathlib import Path

from memrepo.engine.format.scratch import TEMP_PREFIX

_serial = itertools.count()
UNDO_PREFIX = f"{TEMP_PREFIX}undo-"
"""An old version's second name: ``<UNDO_PREFIX><pid>-<n>-<file name>`` beside the file."""


class Undo:
    """What one transaction's apply changed, in order, and how to put each back.

    Args:
        root: the work tree's top folder.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._steps: list[tuple[str, str, Path | None, bytes | None]] = []
        """(kind, rel, link to the old inode, old bytes) in the order done; kind is ``file`` or ``move``."""

    def keep(self, rel: str, old: bytes | None) -> None:
        """Call just before ``rel`` is replaced or deleted; ``old`` is its bytes as read (None: unknown or missing)."""
        full = self.root / rel
        if not os.path.lexists(full):
            self._steps.append(("file", rel, None, None))
            return
        link = full.with_name(f"{UNDO_PREFIX}{os.getpid()}-{next(_serial)}-{full.name}"[:255])
        try:
            os.link(full, link, follow_symlinks=False)
        except OSError:
            self._steps.append(("file", rel, None, old if old is not None else b""))
            return
        self._steps.append(("file", rel, link, None))

    def moved(self, src: str, dest: str) -> None:
        """Call just after ``src`` was renamed to ``dest``."""
        self._steps.append(("move", src, None, dest.encode("utf-8", "surrogateescape")))

    def restore(self) -> list[str]:
        """Put every changed file back as it was, newest change first; the paths touched.

        Never raises: what cannot be put back stays as it is (and is listed).
        """
        touched = []
        for kind, rel, link, old in reversed(self._steps):
            full = self.root / rel
            touched.append(rel)
            with contextlib.suppress(OSError):
                if link is not None and os.path.samefile(link, full):
                    link.unlink()  # never replaced: nothing to put back
                    continue
                if kind == "move":
                    dest = (old or b"").decode("utf-8", "surrogateescape")
                    touched.append(dest)
                    os.replace(self.root / dest, full)
                elif link is not None:
                    os.replace(link, full)
                elif old is None:
                    full.unlink(missing_ok=True)  # it was new
                else:
                    from .atomic import atomic_write

                    atomic_write(full, old, self.root)
        self._steps.clear()
        return sorted(set(touched))

    def forget(self) -> None:
        """The change stands (committed): drop the second names."""
        for _kind, _rel, link, _old in self._steps:
            if link is not None:
                with contextlib.suppress(OSError):
                    link.unlink()
        self._steps.clear()


def recover(root: Path, committed: Callable[[str], bytes | None]) -> list[str]:
    """Find what a killed writer wrote and never committed; remove its temp files (under the write lock).

    A second name whose bytes are HEAD's while its file now differs from HEAD was left between a write
    and its commit: that file holds the killed writer's change, which the caller commits as before
    (docs/architecture.md §3: a killed write's entry is kept), never as a question about a stale save.
    Every temp file is removed. A walk of the work tree, ``.git`` skipped, once per kill (git does
    not list these files: they are in ``info/exclude``).

    Args:
        root: the work tree.
        committed: a repo-relative path's bytes in HEAD (None when HEAD has no such file).

    Returns:
        list[str]: the repo-relative paths the killed writer changed.
    """
    changed = []
    for folder, dirs, files in os.walk(root):
        if folder == str(root):
            dirs[:] = [d for d in dirs if d != ".git"]
        for name in files:
            if not name.startswith(TEMP_PREFIX):
                continue
            path = Path(folder) / name
            target = _undo_target(name)
            with contextlib.suppress(OSError):
                if target is not None:
                    rel = (Path(folder) / target).relative_to(root).as_posix()
                    head = committed(rel)
                    try:
                        now: bytes | None = (Path(folder) / target).read_bytes()
                    except FileNotFoundError:
                        now = None
                    if head is not None and now != head and path.read_bytes() == head:
                        changed.append(rel)
                path.unlink()
    return sorted(changed)


def _undo_target(name: str) -> str | None:
    """The file name a second name stands for, or None (not a second name, or an old form without it)."""
    if not name.startswith(UNDO_PREFIX):
        return None
    parts = name[len(UNDO_PREFIX) :].split("-", 2)
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit() or not parts[2]:
        return None
    return parts[2]
