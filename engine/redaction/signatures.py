"""Signatures and key ids: public by what signing formats define (issue 32, round 22; docs/architecture.md §3).

:func:`spans` adds to :func:`.public.spans`. Signed metadata (sigstore bundles, TUF and in-toto metadata, Rekor
entries, SBOM attestations) carries values no one keeps secret, each checkable by its structure:

- an ECDSA or DSA signature, DER-encoded (``SEQUENCE { INTEGER r, INTEGER s }``, RFC 3279 §2.2.3), in base64
  (``MEUCIQ…``) or hex (``3045022100…``): exactly two minimal positive integers of 1 to 66 bytes filling the
  sequence. A private key's DER (PKCS #1, PKCS #8, SEC 1) never parses so: its second element is not an integer,
  or it holds more than two;
- a key id after its name (``keyid``, ``key_id``, ``keyId``): a digest of a public key, in hex of 32, 40, 64 or
  128 digits or base64 of 20 or 32 bytes (TUF, sigstore, Rekor); after ``publicKeyId``/``public_key_id`` any id of
  letters, digits, ``-`` and ``_`` that opens with no vendor key's prefix (the name says the key is public). ``private_key_id``,
  ``access_key_id`` and ``secret_key_id`` are other names and are not read here.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre
from .base64text import decode_base64

Span = tuple[int, int]

_B64_RE = lazyre.compile(r"(?<![A-Za-z0-9+/])M[A-Za-z0-9+/]{10,250}={0,2}(?![A-Za-z0-9+/=])")
_HEX_RE = lazyre.compile(r"(?<![0-9A-Fa-f])30[0-9A-Fa-f]{2}02[0-9A-Fa-f]{10,520}(?![0-9A-Za-z])")
_KEYID_RE = lazyre.compile(
    r"(?<![\w])[\"']?(?P<label>(?i:key_?id|public_?key_?id))[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?P<value>[A-Za-z0-9+/_-]{8,128}={0,2})(?![\w+/=-])"
)
_HEX_LENGTHS = frozenset({32, 40, 64, 128})
_B64_LENGTHS = frozenset({20, 32})


def _integer(raw: bytes, at: int) -> int | None:
    """The offset after a minimal positive DER INTEGER of 1 to 66 bytes at ``raw[at]``, or None."""
    if at + 2 > len(raw) or raw[at] != 0x02:
        return None
    size = raw[at + 1]
    body = raw[at + 2 : at + 2 + size]
    if not 1 <= size <= 66 or len(body) != size or body[0] & 0x80:
        return None
    if size > 1 and body[0] == 0 and not body[1] & 0x80:
        return None  # not minimal
    return at + 2 + size


def der_signature(raw: bytes) -> bool:
    """Whether ``raw`` is exactly a DER ``SEQUENCE`` of two minimal positive INTEGERs (an ECDSA/DSA signature)."""
    if len(raw) < 8 or raw[0] != 0x30:
        return False
    at, size = 2, raw[1]
    if size == 0x81:
        at, size = 3, raw[2]
    elif size & 0x80:
        return False
    if at + size != len(raw):
        return False
    mid = _integer(raw, at)
    return mid is not None and _integer(raw, mid) == len(raw)


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every DER signature and every named key id in ``text``."""
    if "M" in text:
        for m in _B64_RE.finditer(text):
            raw = decode_base64(m.group(0))
            if raw is not None and der_signature(raw):
                yield m.span()
    if "30" in text:
        for m in _HEX_RE.finditer(text):
            if len(m.group(0)) % 2 == 0 and der_signature(bytes.fromhex(m.group(0))):
                yield m.span()
    if "ey" in text.lower() and ("id" in text.lower()):
        for m in _KEYID_RE.finditer(text):
            if _key_id(m.group("label"), m.group("value")):
                yield m.span("value")


def _key_id(label: str, value: str) -> bool:
    """Whether ``value`` after ``label`` is a key id: a digest's length of hex or base64, or after a name saying the
    key is public (``publicKeyId``) an id of letters, digits, ``-`` and ``_`` (no vendor key's prefix)."""
    if label.lower().startswith("public"):
        from .vendorprefix import _PREFIXES

        return all(c.isalnum() or c in "-_" for c in value) and not value.startswith(_PREFIXES)
    if all(c in "0123456789abcdefABCDEF" for c in value):
        return len(value) in _HEX_LENGTHS
    raw = decode_base64(value)
    return raw is not None and len(raw) in _B64_LENGTHS
