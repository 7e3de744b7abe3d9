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
    r"(?:(?<!\s)\s+)?[;；]\s*|[,，、]\s*(?:(?:and|but)\s+)?|(?<!\s)\s+(?:and|but)\s+(?=(?:the|our|my|we|it|its|their|they|i|you|your|this|that)\b)",
    re.IGNORECASE,
)
"""Where one clause of a statement ends and the next begins: ``;``, a comma (with "and"/"but"; a CJK one too), or
"and"/"but" before a word that starts a clause ("... Tuesdays only and the staging DB password is ...")."""
_AROUND_RE = re.compile(r"\[REDACTED:[a-z0-9-]+\][^\s,;]*\s*\S*[^\W_]{3}")
"""A marker with words of its clause after it: a host, a path, a URL ("psql postgresql://app:[REDACTED]@db-stage:5432",
"curl -H 'Bearer [REDACTED]' https://metrics/api/v2"): the clause says more than the secret (sess15)."""
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def without_secrets(text: str) -> str:
    """A statement less its clauses about a secret redaction took out; "" when nothing else is left.

    "We ship on Tuesdays only and the staging DB password is [REDACTED:labelled-secret]" keeps "We ship
    on Tuesdays only". A clause whose value is a redaction marker says nothing an agent can use (the value
    was the content, and memrepo never keeps it): kept, it is a memory line about a secret that is not there.
    The other clauses are still what the user asked to keep, in their words. A statement that is nothing but
    such clauses, or whose marker sits in no clause of its own, or whose rest is under 3 words, is dropped
    whole (""): a shorter line the user never said is worse than none. A clause whose marker sits inside a pasted
    command or URL with the clause's words after it ("psql postgresql://app:[REDACTED]@db-stage.internal:5432") is
    kept with its marker: the host, path and command are what the user pasted it for, the secret is not in it.

    Args:
        text: a statement to keep (the user's, or a distiller's operation text).

    Returns:
        str: the text unchanged when it holds no marker, the rest of it, or "".
    """
    if not _SECRET_MARK_RE.search(text):
        return text
    parts = _CLAUSE_CUT_RE.split(text)
    cuts = _CLAUSE_CUT_RE.findall(text)
    kept = [i for i, part in enumerate(parts) if not _SECRET_MARK_RE.search(part) or _around(part)]
    if not kept:
        return ""
    out = parts[kept[0]]
    for i in kept[1:]:
        out += (cuts[i - 1] if i - 1 == kept[kept.index(i) - 1] else ", ") + parts[i]
    out = out.strip().rstrip(",;").strip()
    cjk = bool(_CJK_RE.search(out)) and len(re.sub(r"\s", "", _SECRET_MARK_RE.sub("", out))) >= 8
    return out if len(_SECRET_MARK_RE.sub("", out).split()) >= 3 or cjk else ""


def _around(clause: str) -> bool:
    """Whether a clause with a marker says more than the secret: every marker in it has words of the clause after it
    (:data:`_AROUND_RE`), so the marker is inside a command or a URL the user pasted, not the clause's value ("the
    staging DB password is [REDACTED]")."""
    marks = _SECRET_MARK_RE.findall(clause)
    return len(_AROUND_RE.findall(clause)) == len(marks)


__all__ = ["without_secrets"]
