"""How a correction names the line it replaces (docs/architecture.md §7).

A correction names the line it replaces by its ``subject:`` or a piece of that line's text (``supersedes:``,
:func:`supersedes`); taken out of corrections.py (at 500 lines). Pure functions of entries: no file, no repo.
"""

from __future__ import annotations

from memrepo.engine.format.linepiece import PIECE_CHARS, text_piece

from .claims import ExistingEntry


def supersedes(target: ExistingEntry) -> tuple[str | None, str | None]:
    """(subject, supersedes) a correction of ``target`` carries: its ``subject:`` (the writer replaces the line
    in place), else a piece of its text (the block hides the older line), or (None, None) when neither fits."""
    subject = target.meta.get("subject", "").strip()
    if subject:
        return subject, None
    return None, text_piece(target.text)


__all__ = ["PIECE_CHARS", "supersedes"]
