"""Size limits of a memory repo (docs/architecture.md §2) and the checks that enforce them on write.

Every refusal names where to write instead, so an agent can retry somewhere
that fits.
"""

from __future__ import annotations

from memrepo.engine.errors import LimitError

from .layout import MEMORY_MD

MEMORY_MD_MAX_BYTES = 4 * 1024
"""MEMORY.md holds only what every session needs: at most 4 KB (bytes)."""
FILE_MAX_BYTES = 64 * 1024
"""Any other memory file: at most 64 KB (bytes)."""
ENTRY_MAX_CHARS = 500
"""One entry's text: at most 500 characters (metadata not counted)."""
MAX_FILES = 2000
"""At most 2,000 files in the work tree."""


def check_entry(text: str) -> None:
    """Refuse entry text over :data:`ENTRY_MAX_CHARS` characters.

    Raises:
        LimitError: the text is too long; the message says to split it or to
            keep the detail in a topic note.
    """
    if len(text) > ENTRY_MAX_CHARS:
        raise LimitError(
            f"entry is {len(text)} characters, over the {ENTRY_MAX_CHARS}-character limit: "
            "write a shorter entry, or put the detail in a topic note (topics/<name>.md) "
            "and remember a one-line entry that links to it with [[topics/<name>]]"
        )


def check_file_size(path: str, size: int) -> None:
    """Refuse a file that would grow past its limit.

    Args:
        path: repo-relative path with ``/`` separators.
        size: the file's size after the write, in bytes.

    Raises:
        LimitError: over 4 KB for MEMORY.md (write to me.md or lessons.md
            instead) or over 64 KB for any other file (forget old entries or
            move detail to a topic note).
    """
    if path == MEMORY_MD:
        if size > MEMORY_MD_MAX_BYTES:
            raise LimitError(
                f"MEMORY.md would be {size} bytes, over its {MEMORY_MD_MAX_BYTES}-byte limit: "
                "write this to me.md (about the user) or lessons.md (lessons) instead, "
                "without --pin"
            )
    elif size > FILE_MAX_BYTES:
        raise LimitError(
            f"{path} would be {size} bytes, over the {FILE_MAX_BYTES}-byte file limit: "
            f"forget old entries in {path}, or write the detail to a new topic note "
            "(topics/<name>.md)"
        )


def check_file_count(count: int) -> None:
    """Refuse creating a file when the repo already holds :data:`MAX_FILES` files.

    Args:
        count: number of files in the work tree before the new one.

    Raises:
        LimitError: at the limit; the message says to write to an existing
            file (me.md, lessons.md, an existing workspace file) instead.
    """
    if count >= MAX_FILES:
        raise LimitError(
            f"the repo holds {count} files, at its {MAX_FILES}-file limit: write to an existing "
            "file instead (me.md, lessons.md or an existing workspaces/<slug>.md), "
            "or clear a workspace you no longer use"
        )
