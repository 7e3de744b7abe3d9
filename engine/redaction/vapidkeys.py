"""A Web Push (VAPID) private key, told by its size beside its public key (docs/architecture.md §3).

Issue 32 round 23 (a class read on a tuning part, Veles' tests). A VAPID key pair is an ECDSA P-256 pair written in
unpadded base64url (RFC 8292 §3.2): the public key is an uncompressed point, 65 bytes starting with ``0x04``, so 87
characters starting with ``B``; the private key is the 32-byte scalar, 43 characters. Both are random, so neither's
shape names it, and their labels are often swapped or missing: a ``private:public`` pair on one line, the arguments
of ``webpush.setVapidDetails(subject, public, private)``, a config whose ``PublicKey`` field holds the short one.
Sizes decide instead of labels:

- a text holds a VAPID public key (87 base64url characters decoding to a 65-byte point starting ``0x04``) or says
  ``vapid``/``webpush``/``web_push``/``web-push``;
- a 43-character base64url token in it, within :data:`NEAR` characters of that sign, that decodes to 32 bytes (its
  last character a multiple of 4 in base64url's alphabet, the two spare bits zero) and mixes letters of both cases
  and digits is the private key, redacted as ``vapid-private-key``. The public key is not this rule's: it is published (other rules may
  still take it for a random token).

A 43-character base64url string elsewhere (a SHA-256 digest, a PKCE challenge) is left to the other rules.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int, str]

NEAR = 600
"""How far from a public key or a Web Push word a private key may stand, in characters (a config block)."""

_PUBLIC_RE = lazyre.compile(r"(?<![A-Za-z0-9_-])B[A-Za-z0-9_-]{86}(?![A-Za-z0-9_=-])")
_WORD_RE = lazyre.compile(r"(?i)vapid|web[_-]?push")
_PRIVATE_RE = lazyre.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048](?![A-Za-z0-9_=-])")
"""43 base64url characters whose last one leaves the two spare bits zero: exactly 32 bytes."""


def _point(value: str) -> bool:
    """Whether 87 base64url characters decode to an uncompressed P-256 point (65 bytes, the first ``0x04``)."""
    try:
        raw = base64.urlsafe_b64decode(value + "=")
    except (binascii.Error, ValueError):
        return False
    return len(raw) == 65 and raw[0] == 4


def _random(value: str) -> bool:
    """Letters of both cases and a digit, each twice or more: a random key, not a name or a word run."""
    return (
        sum(c.isupper() for c in value) >= 2
        and sum(c.islower() for c in value) >= 2
        and sum(c.isdigit() for c in value) >= 2
    )


def spans(text: str) -> Iterator[Span]:
    """``(start, end, "vapid-private-key")`` of each VAPID private key near its public key or a Web Push word.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the 43-character key's span; nothing when no sign of Web Push stands in ``text``.
    """
    if len(text) < 43:
        return
    signs = [m.start() for m in _WORD_RE.finditer(text)]
    if len(text) >= 87 and "B" in text:
        signs += [m.start() for m in _PUBLIC_RE.finditer(text) if _point(m.group())]
    if not signs:
        return
    for m in _PRIVATE_RE.finditer(text):
        if _random(m.group()) and any(abs(m.start() - s) <= NEAR for s in signs):
            yield m.start(), m.end(), "vapid-private-key"
