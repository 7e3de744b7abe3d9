"""The JSON object in a model's answer (docs/architecture.md §6): models wrap it in fences and prose.

:func:`extract` returns the answer's JSON text when the answer is only JSON,
the body of a code fence in any case (```` ```json ````, ```` ```JSON ````,
a bare fence), or else the first complete JSON object found in the prose
around it. The schema checks that follow stay strict.
"""

from __future__ import annotations

import json
import re

_FENCE_RE = re.compile(r"```[ \t]*(?:json5?|javascript|js)?[ \t]*\r?\n(?P<body>.*?)\r?\n[ \t]*```", re.DOTALL | re.I)


def extract(raw: str) -> str:
    """The JSON text inside ``raw`` (``raw`` itself, stripped, when none is found: the parser then says why)."""
    text = raw.strip()
    try:
        json.loads(text)
        return text
    except ValueError:
        pass
    for m in _FENCE_RE.finditer(text):
        body = m.group("body").strip()
        try:
            json.loads(body)
            return body
        except ValueError:
            continue
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start >= 0:
        try:
            _obj, end = decoder.raw_decode(text, start)
            return text[start:end]
        except ValueError:
            start = text.find("{", start + 1)
    return text
