"""An entry's metadata: ``[key: value; key: value]``, read and written (docs/architecture.md §2).

Values cannot hold ``;``, ``[`` or ``]``: they are stored as ``%3B``,
``%5B``, ``%5D`` and decoded on read. :mod:`.entries` parses whole lines and
files with these.
"""

from __future__ import annotations

import re

_ENCODE = {";": "%3B", "[": "%5B", "]": "%5D"}
_DECODE_RE = re.compile(r"%(3B|5B|5D|25)", re.IGNORECASE)
_DECODE = {"3B": ";", "5B": "[", "5D": "]", "25": "%"}
_LITERAL_RE = re.compile(r"%(?=3B|5B|5D|25)", re.IGNORECASE)
"""A ``%`` that would read as an escape (a literal ``%3B``) is written ``%25``; any other ``%`` (``a%20b``)
stays as it is, so every value round-trips and URLs stay readable."""


def encode_value(value: str) -> str:
    """Escape a metadata value for writing.

    Args:
        value: the plain value.

    Returns:
        str: the value with ``;``, ``[`` and ``]`` written as ``%3B``, ``%5B``,
        ``%5D`` (a ``%`` that would read as one of those as ``%25``) and line
        breaks folded to spaces (docs/architecture.md §2).
    """
    value = _LITERAL_RE.sub("%25", value.replace("\r", " ").replace("\n", " "))
    return "".join(_ENCODE.get(ch, ch) for ch in value)


def decode_value(value: str) -> str:
    """Undo :func:`encode_value`: ``%3B``, ``%5B``, ``%5D``, ``%25`` (any case) become ``;[]%``."""
    return _DECODE_RE.sub(lambda m: _DECODE[m.group(1).upper()], value)


def parse_metadata(inner: str) -> dict[str, str] | None:
    """Read the inside of a trailing bracket group as metadata.

    Args:
        inner: the text between ``[`` and ``]``.

    Returns:
        dict[str, str] | None: keys (lower-cased) to decoded values, in order,
        or None when the group is not metadata (a ``[[link]]``, a citation).
    """
    if ":" not in inner:
        return None
    meta: dict[str, str] = {}
    for part in inner.split(";"):
        key, colon, value = part.partition(":")
        if not colon:
            if part.strip():
                return None
            continue
        key = key.strip()
        if not (key.isascii() and key.replace("-", "").replace("_", "").isalnum() and key[0].isalpha()):
            return None
        value = value.strip()
        meta[key.lower()] = decode_value(value) if "%" in value else value
    return meta or None


def render_metadata(meta: dict[str, str]) -> str:
    """Write metadata as ``[key: value; key: value]`` with escaped values."""
    return "[" + "; ".join(f"{k}: {encode_value(v)}" for k, v in meta.items()) + "]"
