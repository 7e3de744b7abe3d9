"""How a newer line names an older one it makes out of date: its ``subject:``, else a piece of its text
(docs/architecture.md §4, §7).

One rule for a checkpoint's correction (:mod:`memrepo.engine.checkpoints.chain`) and a ``supersedes`` ref resolved
at write time (:mod:`memrepo.engine.write.supersedesref`): the block hides the older line that a ``supersedes:``
piece of 8 or more characters names as whole words. Pure text: no file.
"""

from __future__ import annotations

import re

PIECE_CHARS = 80
"""The most characters of the named line's text a ``supersedes:`` holds (the block matches a piece of 8 or more)."""


def text_piece(text: str) -> str | None:
    """The piece of ``text`` a ``supersedes:`` holds: up to its metadata, at most :data:`PIECE_CHARS` characters cut
    between words ("Tuesday mor" would match nothing), or None when under 8 characters.

    Args:
        text: the named entry's text.

    Returns:
        str | None: the piece, or None.
    """
    piece = re.split(r"[\[\]]", text, maxsplit=1)[0].strip()
    if len(piece) > PIECE_CHARS:  # cut between words: the block matches a piece as whole words
        piece = piece[: PIECE_CHARS + 1].rsplit(None, 1)[0].rstrip(" ,;:")
    return piece if len(piece) >= 8 else None


__all__ = ["PIECE_CHARS", "text_piece"]
