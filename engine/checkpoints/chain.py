"""How a correction names the line it replaces (docs/architecture.md §7).

A correction names the line it replaces by its ``subject:`` or a piece of that line's text (``supersedes:``,
:func:`supersedes`); taken out of corrections.py (at 500 lines). Pure functions of entries: no file, no repo.
"""

from __future__ import annotations

import re

from .claims import ExistingEntry

PIECE_CHARS = 80
"""The most characters of the corrected line's text a ``supersedes:`` holds (the block matches a piece of 8 or more)."""


def supersedes(target: ExistingEntry) -> tuple[str | None, str | None]:
    """(subject, supersedes) a correction of ``target`` carries: its ``subject:`` (the writer replaces the line
    in place), else a piece of its text (the block hides the older line), or (None, None) when neither fits."""
    subject = target.meta.get("subject", "").strip()
    if subject:
        return subject, None
    piece = re.split(r"[\[\]]", target.text, maxsplit=1)[0].strip()
    if len(piece) > PIECE_CHARS:  # cut between words: the block matches a piece as whole words, "Tuesday mor" none
        piece = piece[: PIECE_CHARS + 1].rsplit(None, 1)[0].rstrip(" ,;:")
    return None, (piece if len(piece) >= 8 else None)


__all__ = ["PIECE_CHARS", "supersedes"]
