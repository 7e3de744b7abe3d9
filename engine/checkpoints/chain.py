"""A correction's line, and the newest line of its chain (docs/architecture.md §7).

A correction names the line it replaces by a piece of that line's text (``supersedes:``, :func:`supersedes`); a later
correction of the same fact must replace the chain's newest line, not the first one again (sess12: "Thursdays now"
named "Mondays", which "Wednesdays now" had replaced already, and the block kept "Wednesdays" current). Pure
functions of entries: no file, no repo.
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


def newest(target: ExistingEntry, lines: list[ExistingEntry]) -> ExistingEntry:
    """The newest line of ``target``'s chain among ``lines``: the one line that supersedes it, and so on.

    Args:
        target: the line a correction relates.
        lines: the entries the checkpoint listed.

    Returns:
        ExistingEntry: ``target``, or the line that replaced it last (one newer line at each step).
    """
    for _ in lines:
        piece = supersedes(target)[1]
        newer = [e for e in lines if piece and e is not target and e.meta.get("supersedes") == piece]
        if len(newer) != 1:
            break
        target = newer[0]
    return target


__all__ = ["PIECE_CHARS", "newest", "supersedes"]
