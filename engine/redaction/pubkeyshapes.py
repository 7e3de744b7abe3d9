"""Public keys and digests known by their structure or by the one tool syntax that prints them (docs/architecture.md §3).

Issue 32 round 24: classes read on the tune half of a new look-alike source written blind (``public3-tune``, public
formats in memory notes; its held half was run once, at the end). :func:`spans` adds to :func:`.public.spans`; each
value is kept only in the shape its format documents, so a secret written in the same place is still redacted:

- an uncompressed elliptic-curve point (65 bytes opening ``04``) in base64 or base64url: a Web Push VAPID
  ``applicationServerKey``, a P-256 public key; a private key is 32 bytes;
- a WireGuard public key (32 bytes in base64, 44 characters ending in ``=``) after ``peer`` in ``wg set … peer`` or
  after ``pubkey``/``public key`` with no link word (``peer 'phone' pubkey <key>``), no "private" between;
- a DKIM record's tags and ``p=`` key, in a text holding ``v=DKIM1`` (a DNS TXT record anyone can read);
- a Yarn Berry lockfile checksum: a cache key (``10c0``), ``/`` and 128 hex digits (a SHA-512);
- an S3 multipart ETag: 32 hex digits, ``-`` and the part count, in a text naming an ETag.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre
from .base64text import decode_base64

Span = tuple[int, int]

_POINT_RE = lazyre.compile(r"(?<![A-Za-z0-9+/_=-])(?P<b64>B[A-Za-z0-9+/_-]{85,86}={0,2})(?![A-Za-z0-9+/_=-])")
"""A 65-byte value in base64(url) opens with ``B`` (its first byte 0x04 gives the first six bits ``000001``)."""
_WG_RE = lazyre.compile(
    r"(?i)(?:\bwg\s+set\s+\S+\s+peer|\bpub(?:lic)?[\s_-]?key)\b[ \t]+(?P<b64>[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=)"
    r"(?![A-Za-z0-9+/=])"
)
_DKIM_RE = lazyre.compile(r"(?<![\w-])(?:v=DKIM1|[khnstg]=[\w:*.-]{1,32}|p=[A-Za-z0-9+/]{40,1024}={0,2})(?=[;\s\"]|$)")
"""A DKIM record's own tags, each alone (``v=DKIM1``, ``k=ed25519``, ``p=<key>``, RFC 6376 §3.6.1): a secret written
among them (``smtp_password=…``) is no tag and stays redacted (breaker24 L18)."""
_YARN_RE = lazyre.compile(r"(?<![\w/])\d{1,2}c\d/[0-9a-f]{128}(?![0-9a-zA-Z])")
_ETAG_RE = lazyre.compile(r"(?i)\betag[\"']?[ \t]*(?:[:=][ \t]*)?[\"']?(?P<etag>[0-9a-f]{32}-\d{1,5})(?![\w-])")
"""An S3 multipart ETag right after the word (breaker24 L19: not any such value in a text naming one)."""


def _decoded_len(b64: str) -> int:
    """How many bytes ``b64`` (base64 or base64url) holds; -1 when it is neither."""
    raw = decode_base64(b64, "either")
    return -1 if raw is None else len(raw)


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every value of the module's formats in ``text``."""
    if "B" in text:
        for m in _POINT_RE.finditer(text):
            raw = decode_base64(m.group("b64"), "either")
            if raw is not None and len(raw) == 65 and raw[0] == 4:
                yield m.span("b64")
    low = text.lower()
    if "peer" in low or "pub" in low:
        for m in _WG_RE.finditer(text):
            if "private" not in m.group(0).lower() and _decoded_len(m.group("b64")) == 32:
                yield m.span("b64")
    if "v=DKIM1" in text:
        for m in _DKIM_RE.finditer(text):
            yield m.span()
    if "c0/" in text or "c1/" in text or "c2/" in text:
        for m in _YARN_RE.finditer(text):
            yield m.span()
    if "etag" in low:
        for m in _ETAG_RE.finditer(text):
            yield m.span("etag")
