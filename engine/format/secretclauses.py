"""A statement to keep less its clauses about a secret redaction took out (docs/architecture.md §3).

Split from :mod:`.remembering` (the user's requests to keep) so the rule for a redacted secret has room of its
own; :func:`without_secrets` is the same for the user's statements and for a distiller's operation text. Pure text:
no file.
"""

from __future__ import annotations

import re

_SECRET_MARK_RE = re.compile(r"\[REDACTED:[a-z0-9-]+\]")
"""Redaction's marker: the value it stands for is not in the text (docs/architecture.md §3)."""
_CLAUSE_CUT_RE = re.compile(
    r"\s*;\s*|,\s*(?:(?:and|but)\s+)?|\s+(?:and|but)\s+(?=(?:the|our|my|we|it|its|their|they|i|you|your|this|that)\b)",
    re.IGNORECASE,
)
"""Where one clause of a statement ends and the next begins: ``;``, a comma (with "and"/"but"), or "and"/"but"
before a word that starts a clause ("... Tuesdays only and the staging DB password is ...")."""


def without_secrets(text: str) -> str:
    """A statement less its clauses about a secret redaction took out; "" when nothing else is left.

    "We ship on Tuesdays only and the staging DB password is [REDACTED:labelled-secret]" keeps "We ship
    on Tuesdays only". A clause whose value is a redaction marker says nothing an agent can use (the value
    was the content, and memrepo never keeps it): kept, it is a memory line about a secret that is not there.
    The other clauses are still what the user asked to keep, in their words. A statement that is nothing but
    such clauses, or whose marker sits in no clause of its own, or whose rest is under 3 words, is dropped
    whole (""): a shorter line the user never said is worse than none.

    Args:
        text: a statement to keep (the user's, or a distiller's operation text).

    Returns:
        str: the text unchanged when it holds no marker, the rest of it, or "".
    """
    if not _SECRET_MARK_RE.search(text):
        return text
    parts = _CLAUSE_CUT_RE.split(text)
    cuts = _CLAUSE_CUT_RE.findall(text)
    kept = [i for i, part in enumerate(parts) if not _SECRET_MARK_RE.search(part)]
    if not kept:
        return ""
    out = parts[kept[0]]
    for i in kept[1:]:
        out += (cuts[i - 1] if i - 1 == kept[kept.index(i) - 1] else ", ") + parts[i]
    out = out.strip().rstrip(",;").strip()
    return out if len(out.split()) >= 3 else ""


__all__ = ["without_secrets"]
