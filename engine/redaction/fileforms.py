"""Values a file format defines as public: spans redaction leaves alone (issue 32, round 23; docs/architecture.md §3).

:func:`spans` adds to :func:`.public.spans`. Each value is known by decoding it or by the place its format gives it,
never by its look:

- an image in base64, as Jupyter notebooks keep their outputs (``"image/png": "iVBORw0KGgo…"``): the bytes open with
  the PNG, JPEG, GIF or WebP signature (a ``data:`` URL's is :mod:`.public`'s);
- OpenPGP fingerprints (RFC 4880 §12.2: 40 hex digits, a key id its last 16) after a name for them, as Dockerfiles
  list release keys (``ENV GPG_KEYS <fp> <fp>``, ``GPG_KEY=0x…``): a fingerprint is a digest of a public key;
- a Nix binary cache's public key, ``<host name>-<n>:<base64>`` (``trusted-public-keys``, the name a cache's host
  name with its dots): exactly 32 bytes, an Ed25519 public key; its secret key is 64 bytes and is not kept;
- a Rekor transparency log entry's body (``canonicalizedBody``): base64 of JSON naming its ``apiVersion``, a Rekor
  entry ``kind`` (``hashedrekord``, ``intoto``, ``dsse`` ...) and its ``spec``, which holds digests, signatures and
  the signer's certificate, all public.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from . import lazyre
from .base64text import decode_base64

Span = tuple[int, int]

_IMAGE_RE = lazyre.compile(
    r"(?<![A-Za-z0-9+/])(?<!base64,)(?:iVBORw0KGgo|/9j/|R0lGOD|UklGR)[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=])"
)
_IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"RIFF")
_GPG_LABELLED_RE = lazyre.compile(
    r"(?i:(?<![A-Za-z])(?:gpg|pgp)_?(?:keys?|fingerprints?|key_?ids?))[\"']?[ \t]*[=:]?[ \t]*[\"']?"
    r"(?P<list>(?:(?:0x)?(?:[0-9A-F]{40}|[0-9A-F]{16})(?:[ \t]+|(?=[\"'\s;]|$))){1,12})"
)
_FINGERPRINT_RE = lazyre.compile(r"(?:0x)?(?:[0-9A-F]{40}|[0-9A-F]{16})")
_NIX_KEY_RE = lazyre.compile(
    r"(?<![\w.-])[A-Za-z0-9][\w-]{0,62}\.[\w.-]{1,100}-\d{1,4}:(?P<b64>[A-Za-z0-9+/]{43}=)(?![A-Za-z0-9+/=])"
)
_REKOR_RE = lazyre.compile(r"(?<![A-Za-z0-9+/])eyJ[A-Za-z0-9+/]{40,65536}={0,2}(?![A-Za-z0-9+/=])")
_REKOR_KINDS = frozenset(
    {"hashedrekord", "rekord", "intoto", "dsse", "rpm", "jar", "alpine", "helm", "cose", "tuf", "rfc3161"}
)


def _rekor_body(value: str) -> bool:
    raw = decode_base64(value)
    if raw is None:
        return False
    try:
        data = json.loads(raw)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("kind") in _REKOR_KINDS and "apiVersion" in data and "spec" in data


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every value in ``text`` that its file format defines as public (the module's docstring)."""
    if "iVBOR" in text or "/9j/" in text or "R0lGOD" in text or "UklGR" in text:
        for m in _IMAGE_RE.finditer(text):
            raw = decode_base64(m.group(0)[:24])
            if raw is not None and raw.startswith(_IMAGE_MAGIC):
                yield m.span()
    if "gp" in text.lower():
        for m in _GPG_LABELLED_RE.finditer(text):
            base = m.start("list")
            for fp in _FINGERPRINT_RE.finditer(m.group("list")):
                yield base + fp.start(), base + fp.end()
    if ":" in text:
        for m in _NIX_KEY_RE.finditer(text):
            raw = decode_base64(m.group("b64"))
            if raw is not None and len(raw) == 32:
                yield m.span()
    if "eyJ" in text:
        for m in _REKOR_RE.finditer(text):
            if _rekor_body(m.group(0)):
                yield m.span()
