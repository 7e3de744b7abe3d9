"""WebAuthn's public values and DNS record names: spans redaction leaves alone (issue 32, round 23; docs/architecture.md §3).

:func:`spans` adds to :func:`.public.spans`. A WebAuthn ceremony (W3C Web Authentication, level 2) sends its values
in the clear between browser and server; each is recognised by decoding it, never by its look:

- an ECDSA signature in base64url (``MEUCIB…_…``): DER ``SEQUENCE { INTEGER r, INTEGER s }``, as
  :func:`.signatures.der_signature` reads it in base64 and hex;
- ``clientDataJSON`` in base64url (``eyJ…``): JSON whose ``type`` is ``webauthn.create`` or ``webauthn.get``
  and which holds a ``challenge`` (§5.8.1). A JWT's header or payload has no such ``type``;
- a COSE public key (RFC 9053 §7, §2 of RFC 8230) in hex (``a501020326…``): a CBOR map of integer labels holding
  ``kty`` (1) = OKP, EC2 or RSA, and no private member: not ``d`` (-4) of an OKP or EC2 key, not ``d`` (-3) or
  later of an RSA key; a symmetric key (``kty`` 4) is never kept;
- a challenge in base64url after ``challenge``: 16 to 64 random bytes the server sends to be signed (§13.4.3), a
  nonce, not a credential.

DNS names whose labels the record types define: a DKIM selector's name ``<selector>._domainkey.<domain>``
(RFC 6376 §3.6.2.1) and ``_dmarc.<domain>`` (RFC 7489 §6.1); and the name a hosting platform gives a custom
domain's CNAME record to point at (``<words>-<id>.herokudns.com``, ``<id>.cloudfront.net``, ``<app>.azurewebsites.net``
...): a host's address, which the platform's DNS publishes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from . import lazyre
from .base64text import decode_base64

Span = tuple[int, int]

_SIG_RE = lazyre.compile(r"(?<![\w+/-])M[A-Za-z0-9_-]{10,250}(?![\w+/=-])")
_CLIENT_DATA_RE = lazyre.compile(r"(?<![\w+/-])eyJ[A-Za-z0-9_-]{20,4096}={0,2}(?![\w+/=-])")
_COSE_HEX_RE = lazyre.compile(r"(?<![0-9A-Za-z])[aA][1-9a-fA-F]01[0-9A-Fa-f]{16,2048}(?![0-9A-Za-z])")
_CHALLENGE_RE = lazyre.compile(r"(?i:challenge)[\"']?[ \t]*[:=][ \t]*[\"']?(?P<value>[A-Za-z0-9_-]{22,86})(?![\w+/=-])")
_PLATFORM_HOST_RE = lazyre.compile(
    r"(?<![\w.-])[A-Za-z0-9](?:[A-Za-z0-9.-]{0,200}[A-Za-z0-9])?\.(?:herokudns\.com|cloudfront\.net|azurewebsites\.net"
    r"|azureedge\.net|azurefd\.net|trafficmanager\.net|vercel-dns\.com|netlify\.app|pages\.dev|edgekey\.net"
    r"|akamaiedge\.net|fastly\.net|elb\.amazonaws\.com|awsglobalaccelerator\.com|ghs\.googlehosted\.com)(?![\w.-])"
)
_DNS_NAME_RE = lazyre.compile(
    r"(?<![\w.-])(?:[A-Za-z0-9][A-Za-z0-9-]{0,62}\._domainkey|_dmarc)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*"
)


def _cbor_head(raw: bytes, at: int) -> tuple[int, int, int] | None:
    """(major type, argument, offset after the head) of the CBOR item at ``raw[at]`` (RFC 8949 §3), or None."""
    if at >= len(raw):
        return None
    major, info = raw[at] >> 5, raw[at] & 0x1F
    if info < 24:
        return major, info, at + 1
    size = {24: 1, 25: 2, 26: 4}.get(info)
    if size is None or at + 1 + size > len(raw):
        return None
    return major, int.from_bytes(raw[at + 1 : at + 1 + size], "big"), at + 1 + size


def cose_public_key(raw: bytes) -> bool:
    """Whether ``raw`` is exactly a CBOR map of a COSE public key (see the module's docstring)."""
    head = _cbor_head(raw, 0)
    if head is None or head[0] != 5 or not 2 <= head[1] <= 12:
        return False
    at, labels = head[2], {}
    for _ in range(head[1]):
        key = _cbor_head(raw, at)
        if key is None or key[0] not in (0, 1):
            return False
        label = key[1] if key[0] == 0 else -1 - key[1]
        value = _cbor_head(raw, key[2])
        if value is None:
            return False
        major, arg, at = value
        if major in (2, 3):  # a byte or text string
            at += arg
        elif major not in (0, 1):
            return False
        if at > len(raw):
            return False
        labels[label] = arg if major in (0, 1) else None
    kty = labels.get(1)
    if at != len(raw) or kty not in (1, 2, 3):
        return False
    return min(labels) > -3 if kty == 3 else -4 not in labels


def _client_data(value: str) -> bool:
    raw = decode_base64(value, "urlsafe")
    if raw is None:
        return False
    try:
        data = json.loads(raw)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("type") in ("webauthn.create", "webauthn.get") and "challenge" in data


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every WebAuthn value and DNS record name in ``text`` that decodes as its format says."""
    if "M" in text and ("_" in text or "-" in text):
        from .signatures import der_signature

        for m in _SIG_RE.finditer(text):
            value = m.group(0)
            if (
                ("_" in value or "-" in value)
                and (raw := decode_base64(value, "urlsafe")) is not None
                and der_signature(raw)
            ):
                yield m.span()
    if "eyJ" in text:
        for m in _CLIENT_DATA_RE.finditer(text):
            if _client_data(m.group(0)):
                yield m.span()
    if "01" in text:
        for m in _COSE_HEX_RE.finditer(text):
            if len(m.group(0)) % 2 == 0 and cose_public_key(bytes.fromhex(m.group(0))):
                yield m.span()
    if "hallenge" in text or "HALLENGE" in text:
        for m in _CHALLENGE_RE.finditer(text):
            raw = decode_base64(m.group("value"), "urlsafe")
            if raw is not None and 16 <= len(raw) <= 64:
                yield m.span("value")
    if "." in text:
        for m in _PLATFORM_HOST_RE.finditer(text):
            yield m.span()
    if "_domainkey" in text or "_dmarc" in text:
        for m in _DNS_NAME_RE.finditer(text):
            yield m.span()
