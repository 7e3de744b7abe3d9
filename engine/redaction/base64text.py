"""Base64 text decoded for the detectors that read what a value holds (docs/architecture.md §4).

Public keys, certificates, signatures, attestations and file formats are told from secrets by their bytes; every
detector decodes a value by the one rule here, so padding and alphabets are read alike everywhere.
"""

from __future__ import annotations

import base64
import binascii
from typing import Literal

Alphabet = Literal["standard", "urlsafe", "either"]


def decode_base64(value: str, alphabet: Alphabet = "standard") -> bytes | None:
    """``value``'s bytes, its padding optional (any ``=`` at its end is dropped and the right padding put back).

    Args:
        value: the base64 text.
        alphabet: ``standard`` (``+/``; any other character is an error), ``urlsafe`` (``-_``; as
            :func:`base64.urlsafe_b64decode` reads it, characters outside the alphabet skipped), or ``either``
            (``-_`` read as ``+/``; any other character is an error).

    Returns:
        bytes | None: the decoded bytes, or None when ``value`` is not base64 of that alphabet.
    """
    raw = value.rstrip("=")
    if alphabet == "either":
        raw = raw.replace("-", "+").replace("_", "/")
    raw += "=" * (-len(raw) % 4)
    try:
        if alphabet == "urlsafe":
            return base64.urlsafe_b64decode(raw)
        return base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        return None
