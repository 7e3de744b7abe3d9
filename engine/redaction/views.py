"""The views of a text :func:`memrepo.engine.redaction.find` reads besides the text itself (docs/architecture.md §3).

Each view is the text with some characters removed, and each kept character's index in the text, so a span found
in a view maps back onto the original: a diff's line markers removed, invisible characters removed (a zero-width split), a line break a token was
cut at removed (:mod:`.wrapjoin`), a value on the line after its name joined to it (YAML block scalars, XML
elements, here-documents, Terraform defaults). Each view is made from the one before, so they compose.
"""

from __future__ import annotations

from re import Pattern

from memrepo.engine.format.cleantext import IGNORABLE

from .lazyre import LazyPattern, lazy
from .wrapjoin import prose_after

_DIFF_RE = lazy(r"(?m)^[+-](?![+-])(?=[^\s+-]|[ \t]{2,}\S|\t)")
"""A unified diff's line marker (``+`` added, ``-`` removed) before the line as the file holds it, flush or indented
(``+DB_PASSWORD=…``, ``+  "password": …``): the line is read without it, so a line-anchored rule (a JSON key, an
``.env`` line, a YAML key) reads a patch's lines as the file's (issue 32 round 22). A marker and one space is a list's
bullet (``+ item``, ``- item``), not a diff's."""
_HUNK_RE = lazy(r"(?m)^(?:\+(?=[^\s+-]|[ \t]{2,}\S|\t)|@@ )")
"""A text read as a patch: a hunk header or an added line. Removed lines count only under a hunk header: ``-`` lines
alone are a list as often."""
_INVISIBLE_RE = lazy(f"[{IGNORABLE}\u200d]")
"""Every default-ignorable character (:data:`.cleantext.IGNORABLE`): a token split by one is found whole."""
_WRAP_RE = lazy(r"(?<=[A-Za-z0-9_+/=-]{8})[ \t]*\r?\n[ \t>#*]*(?=[A-Za-z0-9_+/-]{8,4096}={0,2}(?:[\s.,;)]|$))")
_BLOCK_RE = lazy(
    r"(?<=:[ \t])[|>][-+]?[1-9]?[ \t]*\r?\n[ \t]+(?=\S)"
    r"|(?<=>)[ \t]*\r?\n[ \t]*(?=[^<\s][^<\n]*\r?\n[ \t]*</)"
    r"|(?<=[^>\s])[ \t]*\r?\n[ \t]*(?=</[A-Za-z][\w.:-]*>)"
    r"|(?<=:[ \t]\[)[ \t]*\r?\n[ \t]*(?=\"[^\"\n]+\"[ \t]*\r?\n[ \t]*\])|(?<=\")[ \t]*\r?\n[ \t]*(?=\])"
    r"|\$\(cat[ \t]+<<-?['\"]?\w+['\"]?[ \t]*\r?\n"
    r"|\bvariable[ \t]+\"(?=[\w-]+\"[ \t]*\{[ \t]*\r?\n[ \t]*default[ \t]*=)"
    r"|(?<=[\w-])\"[ \t]*\{[ \t]*\r?\n[ \t]*default(?=[ \t]*=)"
)
"""Values on the line after their name, joined to it for the one-line rules: a YAML block scalar (``password: |``,
``>-``, then the indented value), an XML element around one line (``<password>`` / value / ``</password>``), a JSON
list of one string (``"password": [`` / ``"…"`` / ``]``), a here-document (``X=$(cat <<EOF`` / value), a Terraform variable's ``default`` (``variable "db_password"
{`` / ``default = "…"``)."""


def _view(text: str, pattern: LazyPattern | Pattern[str]) -> tuple[str, list[int]] | None:
    """``text`` with ``pattern``'s matches removed, and each kept character's index in ``text``."""
    if not pattern.search(text):
        return None
    out: list[str] = []
    index: list[int] = []
    pos = 0
    for m in pattern.finditer(text):
        if pattern.pattern == _WRAP_RE.pattern and prose_after(text, m.end()):
            continue  # a line of prose after a token, not its tail (:mod:`.wrapjoin`)
        out.append(text[pos : m.start()])
        index.extend(range(pos, m.start()))
        pos = m.end()
    if pos == 0:
        return None
    out.append(text[pos:])
    index.extend(range(pos, len(text)))
    return "".join(out), index


def views(text: str) -> list[tuple[str, list[int] | None]]:
    """``text`` itself (index ``None``), then each view of it that differs, with each kept character's index in ``text``."""
    out: list[tuple[str, list[int] | None]] = [(text, None)]
    for pattern in (_DIFF_RE, _INVISIBLE_RE, _WRAP_RE, _BLOCK_RE):
        if pattern is _DIFF_RE and not _HUNK_RE.search(text):
            continue
        view = _view(out[-1][0], pattern)
        if view is not None:
            prev_index = out[-1][1]
            joined = view[1] if prev_index is None else [prev_index[i] for i in view[1]]
            out.append((view[0], joined))
    return out
