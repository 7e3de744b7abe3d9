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
