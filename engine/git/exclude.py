"""memrepo's temp files are listed in ``.git/info/exclude`` (docs/architecture.md §3).

An atomic write puts a ``.memrepo-tmp-*`` file beside its target for a
moment, and a writer killed at that moment leaves it there. git knows
nothing of memrepo's scratch rule, so a user's ``git add -A`` or
``git status`` would see it. The pattern goes into the repo's own
exclude file (never into a tracked ``.gitignore``) when a repo is made
and the first time memrepo opens one stock git made.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from memrepo.engine.format.scratch import TEMP_PREFIX

PATTERN = f"{TEMP_PREFIX}*"
"""The exclude line: every temp file of :mod:`.atomic`, in any folder."""
_HEADER = "# memrepo's temp files (a write in progress, or one a kill interrupted)"


def exclude_file(git_dir: Path) -> Path:
    """The exclude file git reads for ``git_dir`` (a linked worktree's is its common folder's)."""
    common = Path(git_dir) / "commondir"
    with contextlib.suppress(OSError):
        return (Path(git_dir) / common.read_text().strip()).resolve() / "info" / "exclude"
    return Path(git_dir) / "info" / "exclude"


def ensure_excluded(git_dir: Path) -> bool:
    """Add :data:`PATTERN` to ``info/exclude`` when it is missing; the user's lines are kept as they are.

    Args:
        git_dir: the repository's ``.git`` folder.

    Returns:
        bool: True when the line is there now (it was, or was added); False when the file
        could not be read or written (a read-only ``.git``, a full disk): nothing else changes.
    """
    path = exclude_file(git_dir)
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        text = b""
    except OSError:
        return False
    if any(line.strip() == PATTERN.encode() for line in text.splitlines()):
        return True
    sep = b"" if not text or text.endswith(b"\n") else b"\n"
    added = text + sep + f"{_HEADER}\n{PATTERN}\n".encode()
    tmp = path.with_name(f"{path.name}.memrepo-{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(added)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return False
    return True
