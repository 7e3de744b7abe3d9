"""A secret found once is redacted wherever else the same value stands in the text.

A note often names a key twice: ``token = '<key>' | '<key>'``, "set TOKEN=<key> ... then curl -H 'X-Key: <key>'".
The rules find the first, where a name or a vendor stands before it; the second copy has no name before it and
was kept verbatim. :func:`memrepo.engine.redaction.find` adds every other whole-token occurrence of a value it
found (10+ characters, no space, not a redaction mark: a short password such as ``admin`` is a word elsewhere).
Measured on trufflehog's detector tests' tune half (issue 32 round 16): 9 of its 49 misses were such second
copies (docs/architecture.md §3, redaction).
"""

from __future__ import annotations

import re

_MIN = 10
_TOKEN_CHAR = re.compile(r"[A-Za-z0-9_]")


def spans(text: str, found: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """``found`` (merged, in order) with every other whole-token occurrence of each found value added, in order."""
    extra: list[tuple[int, int, str]] = []
    seen: set[str] = set()
    for start, end, slug in found:
        value = text[start:end]
        if len(value) < _MIN or value in seen or any(c.isspace() for c in value) or value.startswith("[REDACTED:"):
            continue
        seen.add(value)
        pos = text.find(value)
        while pos >= 0:
            after = pos + len(value)
            whole = (pos == 0 or not _TOKEN_CHAR.match(text[pos - 1])) and (
                after == len(text) or not _TOKEN_CHAR.match(text[after])
            )
            if whole and not any(s <= pos < e or s < after <= e for s, e, _ in found):
                extra.append((pos, after, slug))
            pos = text.find(value, pos + 1)
    if not extra:
        return found
    out: list[tuple[int, int, str]] = []
    for span in sorted([*found, *extra]):
        if out and span[0] < out[-1][1]:
            continue
        out.append(span)
    return out
