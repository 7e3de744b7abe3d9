"""A stamp of memrepo's own source files: another version of memrepo renders and writes another way.

What a process keeps for the next one (the kept context block,
:mod:`.contextcache`) or answers for it (the write server,
docs/architecture.md §4) is good only for the same code: :func:`stamp` names
each ``.py`` file of the given folders with its size and mtime, so an upgrade
or an edit of any of them changes it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent
"""The engine's folder."""
SUB_PACKAGES = tuple(  # one string: a quoted "git" in a list reads as a git command (tests/git/test_gitstore.py)
    "agents checkpoints dreams files format git history importers models read redaction repo state sync write".split()  # noqa: SIM905
)
"""The engine's sub-packages (docs/architecture.md, "Packages"); a test keeps the list complete."""
ENGINE_FOLDERS = (ENGINE, *(ENGINE / name for name in SUB_PACKAGES))
"""The engine's source folders: its top level and every sub-package."""


def stamp(folders: Iterable[Path] = ENGINE_FOLDERS) -> str:
    """The names, sizes and mtimes (ns) of the ``.py`` files in ``folders``, sorted, as one string.

    Args:
        folders: the source folders (default: the engine's).

    Returns:
        str: ``name:size:mtime`` items joined by ``|``; an unreadable folder or
        file is left out (never raises).
    """
    parts = []
    for folder in folders:
        with contextlib.suppress(OSError), os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(".py"):
                    with contextlib.suppress(OSError):
                        st = entry.stat()
                        parts.append(f"{folder.name}/{entry.name}:{st.st_size}:{st.st_mtime_ns}")
    return "|".join(sorted(parts))
