"""A ``supersedes`` given as an entry ref, resolved at write time to what the block matches (docs/agents.md).

The block hides an older line that a newer one names by its ``subject:`` or a piece of its text
(docs/architecture.md §4); it reads no ref. Agents are shown refs (``repo:me.md#L5``, the block's ``me.md#L5``)
and pass one as ``supersedes``: stored as given, it hid nothing, and once a line above it went it named another
line (breaker30 B30-12). So the writer turns such a ref into the named entry's subject, or the first words of its
text (as a checkpoint's correction names the line it replaces), before anything is written. A ref that names no
entry is refused with one line; so is one naming a line of another file than the one the entry goes to (a line
hides only older lines of its own file), by :func:`other_file_refusal`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from memrepo.engine.errors import MemrepoError
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.linepiece import PIECE_CHARS, text_piece
from memrepo.engine.format.paths import entry_ref, parse_ref


@dataclass(frozen=True, slots=True)
class Resolved:
    """A ``supersedes`` ref resolved.

    Attributes:
        value: what is stored as ``supersedes:`` (the entry's subject, or a piece of its text); None when refused.
        path: the repo-relative file of the named entry.
        ref: the ref as given, for messages.
        refusal: why the ref cannot be stored (one line), else None.
    """

    value: str | None
    path: str
    ref: str
    refusal: str | None = None


def looks_like_ref(named: str) -> bool:
    """Whether ``named`` is an entry ref (``repo:<path>#L<n>`` or the block's ``<path>#L<n>``), not a piece of text."""
    return entry_ref(named.strip()).startswith("repo:") and re.search(r"#L\d+(?:@\w+)?\s*$", named) is not None


def piece_of(entry: fmt.Entry) -> str | None:
    """What a ``supersedes:`` naming ``entry`` holds: its subject, else its text up to 80 characters cut between
    words (None when under 8 characters: the block matches no shorter piece)."""
    subject = entry.meta.get("subject", "").strip()
    if subject:
        return subject
    return text_piece(entry.text)


def resolve(root: Path, named: str) -> Resolved | None:
    """The entry a ``supersedes`` ref names, read from the work tree; None when ``named`` is no ref (a subject or a
    piece of text, stored as given).

    Args:
        root: the work tree.
        named: the candidate's ``supersedes``.

    Returns:
        Resolved | None: its ``value`` to store, or its ``refusal`` (the ref is unsafe, its file unreadable, no
        entry is on that line, or the entry's text is too short to name).
    """
    if not looks_like_ref(named):
        return None
    given = named.strip()
    try:
        rel, number = parse_ref(fmt.split_seen(entry_ref(given))[0])
    except MemrepoError as exc:
        return Resolved(None, "", given, f"supersedes {given!r}: {exc}")
    try:
        parsed = fmt.parse(read_work_file(root / rel), rel)
    except (OSError, MemrepoError, ValueError):
        return Resolved(None, rel, given, f"supersedes {given}: no file {rel} to read the entry from")
    entry = dict(parsed.entries()).get(number)
    if entry is None:
        return Resolved(
            None, rel, given, f"supersedes {given}: no entry is on that line (the file changed? recall it again)"
        )
    value = piece_of(entry)
    if value is None:
        return Resolved(
            None, rel, given, f"supersedes {given}: its text is too short to name; give its subject or its text"
        )
    return Resolved(value, rel, given)


def other_file_refusal(resolved: Resolved, target: str) -> str:
    """Why a ref naming a line of another file than ``target`` (where the entry goes) is refused."""
    return (
        f"supersedes {resolved.ref} names a line of {resolved.path}, but this entry goes to {target}, and an entry "
        f"hides only older lines of its own file: name a line of {target}, write the entry where that line is, "
        "or leave supersedes out"
    )


__all__ = ["PIECE_CHARS", "Resolved", "looks_like_ref", "other_file_refusal", "piece_of", "resolve"]
