"""A secret found once is redacted wherever else the same value stands in the text.

A note often names a key twice: ``token = '<key>' | '<key>'``, "set TOKEN=<key> ... then curl -H 'X-Key: <key>'".
The rules find the first, where a name or a vendor stands before it; the second copy has no name before it and
was kept verbatim. :func:`memrepo.engine.redaction.find` adds every other whole-token occurrence of a value it
found (10+ characters, no space, not a redaction mark: a short password such as ``admin`` is a word elsewhere).
Measured on trufflehog's detector tests' tune half (issue 32 round 16): 9 of its 49 misses were such second
copies (docs/architecture.md §3, redaction).

A copy is never redacted where a format's keep stands (an image reference after ``image:``, a flake reference after
``url =``: :mod:`.configvalues`; a UUID's keep, which holds only where no secret word names it, does not stop a
copy of one found named), and a value that reads as a name is not spread (breaker25 B25-6): a URL or
host (``https://db.example.com:5432``, ``lic01.acme.local:27000``), a secret's or key file's name
(``db-creds-prod-v2``, ``id_ed25519_work2024``, ``Prod-DB-2024``: words joined by ``-``/``_``/``.``, one a number or a
version), unless a password word stands right before it (``password: build-2024-11-05``). Such a value found
once is an older false alarm of a label rule ("the secret named …"); spreading it took the fact from every copy. Where a shorter found value starts a longer one, the longer copy wins (B25-7).
"""

from __future__ import annotations

import re

_MIN = 10
_TOKEN_CHAR = re.compile(r"[A-Za-z0-9_]")
_PIECE_SPLIT = re.compile(r"[-_.:/@~]+")
_WORD_PIECE = re.compile(r"[A-Za-z]{1,16}\d{0,6}|\d{1,8}|[vV]\d{1,4}")
_NUMBERED = re.compile(r"[A-Za-z]{0,16}\d{1,8}|[vV]\d{1,4}")
_SAID_SECRET_RE = re.compile(
    r"(?i)(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[ _-]?key)[\"']?[ \t]*(?:[:=]|is)[ \t]*[\"']?$"
)
"""A password word right before the value (``password: build-2024-11-05``): a name-shaped value said to be the
secret is spread all the same."""
_HOST = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*:)?/*[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+(?::\d{1,5})?(?:/.*)?")


def _name_like(value: str) -> bool:
    """Whether ``value`` reads as a name, not a key: a URL or host, or words joined, one a number or version."""
    if "//" in value or ("." in value and _HOST.fullmatch(value) and not any(c.isupper() for c in value)):
        return True
    pieces = [p for p in _PIECE_SPLIT.split(value) if p]
    return (
        len(pieces) >= 2
        and all(_WORD_PIECE.fullmatch(p) for p in pieces)
        and any(_NUMBERED.fullmatch(p) for p in pieces)
    )


def spans(text: str, found: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """``found`` (merged, in order) with every other whole-token occurrence of each found value added, in order."""
    extra: list[tuple[int, int, str]] = []
    seen: set[str] = set()
    for start, end, slug in found:
        value = text[start:end]
        if len(value) < _MIN or value in seen or any(c.isspace() for c in value) or value.startswith("[REDACTED:"):
            continue
        seen.add(value)
        if _name_like(value) and not _SAID_SECRET_RE.search(text, max(0, start - 40), start):
            continue
        pos = text.find(value)
        while pos >= 0:
            after = pos + len(value)
            whole = (pos == 0 or not _TOKEN_CHAR.match(text[pos - 1])) and (
                after == len(text) or not _TOKEN_CHAR.match(text[after])
            )
            if whole and not any(s <= pos < e or s < after <= e for s, e, _ in found):
                extra.append((pos, after, slug))
            pos = text.find(value, pos + 1)
    if extra:
        from .configvalues import spans as config_spans

        kept = list(config_spans(text))  # a value in its format's place: an image ref, a flake ref, an action
        extra = [(a, b, slug) for a, b, slug in extra if not any(s <= a and b <= e for s, e in kept)]
    if not extra:
        return found
    out: list[tuple[int, int, str]] = []
    for span in sorted([*found, *extra], key=lambda s: (s[0], -s[1])):
        if out and span[0] < out[-1][1]:
            if span[1] > out[-1][1]:
                out[-1] = (out[-1][0], span[1], out[-1][2])  # overlapping copies: their union
            continue
        out.append(span)
    return out
