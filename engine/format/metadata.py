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


REDACTION_MARK_RE = re.compile(r"REDACTED:[a-z0-9-]+")
"""The inside of a redaction marker, ``[REDACTED:<type>]``, as :mod:`memrepo.engine.redaction` writes it in
place of a secret. It is text, never metadata: a hand edit that ends a line with one keeps it
(docs/architecture.md §2)."""

_URL_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S*\Z")
"""A value that is one URL (a scheme, ``://``, no spaces): already percent-encoded by its author."""
_AUTHORITY_RE = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://)(?P<authority>[^/?#]*)")


def _is_url(value: str) -> bool:
    return _URL_RE.match(value) is not None


def encode_value(value: str) -> str:
    """Escape a metadata value for writing.

    Args:
        value: the plain value.

    Returns:
        str: the value with ``;``, ``[`` and ``]`` written as ``%3B``, ``%5B``,
        ``%5D`` (a ``%`` that would read as one of those as ``%25``) and line
        breaks folded to spaces (docs/architecture.md §2). A URL is already
        percent-encoded: its ``%`` is kept as written, so a ``source:`` URL holding
        ``%3B`` is stored byte for byte (it was stored as ``%253B``), and the three
        characters a value cannot hold become the URL's own escapes.
    """
    value = value.replace("\r", " ").replace("\n", " ")
    if not _is_url(value):
        value = _LITERAL_RE.sub("%25", value)
    return "".join(_ENCODE.get(ch, ch) for ch in value)


def decode_value(value: str) -> str:
    """Undo :func:`encode_value`: ``%3B``, ``%5B``, ``%5D``, ``%25`` (any case) become ``;[]%``.

    A URL is left as written (its escapes are its own), except an IPv6 host's brackets
    (``http://%5B::1%5D/``), which a URL can only spell as ``[`` and ``]``.
    """
    if _is_url(value):
        match = _AUTHORITY_RE.match(value)
        if match is None or "%5" not in match["authority"].upper():
            return value
        authority = re.sub("%5B", "[", match["authority"], flags=re.IGNORECASE)
        authority = re.sub("%5D", "]", authority, flags=re.IGNORECASE)
        return match["head"] + authority + value[match.end() :]
    return _DECODE_RE.sub(lambda m: _DECODE[m.group(1).upper()], value)


def parse_metadata(inner: str) -> dict[str, str] | None:
    """Read the inside of a trailing bracket group as metadata.

    Args:
        inner: the text between ``[`` and ``]``.

    Returns:
        dict[str, str] | None: keys (lower-cased) to decoded values, in order,
        or None when the group is not metadata (a ``[[link]]``, a citation, a
        redaction marker ``[REDACTED:<type>]``: :data:`REDACTION_MARK_RE`).
    """
    if ":" not in inner or REDACTION_MARK_RE.fullmatch(inner):
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
