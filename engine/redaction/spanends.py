"""Where a finding's span ends: a query string cut at its next parameter, a long value run to its token's end.

Applied by :func:`memrepo.engine.redaction.find` to every span a detector reports, before spans merge
(docs/architecture.md §3, redaction).
"""

from __future__ import annotations

from .lazyre import lazy

_NEXT_PARAM_RE = lazy(r"[&;][A-Za-z_][\w.-]*(?: [\w.-]+)?=")


def cut_query(text: str, start: int, end: int, slug: str) -> tuple[int, int, str]:
    """A span cut where the next query parameter or connection-string field begins: ``?token=…&limit=10`` keeps
    ``&limit=10``, ``Password=…;Database=app`` keeps ``;Database=app``."""
    m = _NEXT_PARAM_RE.search(text, start, end)
    return (start, m.start(), slug) if m and m.start() > start else (start, end, slug)


_RUN_TAIL_RE = lazy(r"[A-Za-z0-9+/=_-]+")


def run_end(text: str, start: int, end: int, slug: str) -> tuple[int, int, str]:
    """A long span (480+, where the rules' 512 caps bite) runs on to its token's end: a key's tail is never left."""
    if end - start >= 480 and end < len(text) and (m := _RUN_TAIL_RE.match(text, end)):
        return start, m.end(), slug
    return start, end, slug


_FULL_STOP_RE = lazy(r"[.,;:]+$")


def sentence_end(text: str, start: int, end: int, slug: str) -> tuple[int, int, str]:
    """A span that ends on the sentence's own punctuation (``.``, ``,``, ``;``, ``:`` before a space or the text's
    end; a final ``!`` or ``?`` stays a password's, docs/architecture.md §3) ends before it: "token: ghp_….  Also remember that X." keeps its full stop, so the sentence after
    the secret is still a sentence of its own (breaker29 B29-1: a label rule took the "." and the request to remember
    after it was read as part of the secret's sentence and lost). A span of punctuation alone is left as it is."""
    if end < len(text) and not text[end].isspace():
        return start, end, slug  # "…!'": the quote after it closes the value, the "!" is the value's
    m = _FULL_STOP_RE.search(text, max(start + 1, end - 8), end)  # endpos: "$" is the span's end
    if m is not None and m.start() > start:
        return start, m.start(), slug
    return start, end, slug


def line_at(text: str, pos: int) -> str:
    """The line of ``text`` holding ``pos``, without its line break."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start : len(text) if end < 0 else end]
