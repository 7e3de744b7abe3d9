"""A private key pasted as one line of base64 DER is found by its structure (docs/architecture.md §3).

Issue 32, breaker18's B18-7: ``openssl pkey -outform DER | base64 -w0`` gives one run of 1,200 to 3,200 base64
characters with no PEM header. The length-capped rules took at most its first 512 characters (the rest stayed in
clear) and, with no label, nothing. The start of the decoded bytes says what it is, as in a PEM file's body:

- PKCS #1 RSA (``MIIEpAIBAAKC...``): SEQUENCE { INTEGER 0, INTEGER (the modulus) ...;
- SEC 1 EC (``MHcCAQEEI...``): SEQUENCE { INTEGER 1, OCTET STRING ...;
- PKCS #8 (``MIIEvgIBADAN...``, ``MC4CAQAwBQYDK2Vw...``): SEQUENCE { INTEGER 0 or 1, SEQUENCE { OID ...;
- encrypted PKCS #8: SEQUENCE { SEQUENCE { OID 1.2.840.113549.1.5.13 (PBES2) or a PKCS #12 PBE OID ....

The whole run is the span. A public key (SubjectPublicKeyInfo: SEQUENCE { SEQUENCE { OID) and a certificate
(SEQUENCE { SEQUENCE { [0] or INTEGER) do not match and stay verbatim.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int, str]

_RUN_RE = lazyre.compile(r"(?<![A-Za-z0-9+/=_-])M[A-Za-z0-9+/]{60,}={0,2}(?![A-Za-z0-9+/=_-])")
"""A base64 run that starts as DER's SEQUENCE does (``M``: 0x30) and is long enough to be a key (60+)."""
_PBES2 = bytes.fromhex("2a864886f70d01050d")
_PKCS12_PBE = bytes.fromhex("2a864886f70d010c01")


def _length(raw: bytes, at: int) -> int | None:
    """The offset of the content after the DER length at ``raw[at]``, or None."""
    if at >= len(raw):
        return None
    first = raw[at]
    if first < 0x80:
        return at + 1
    n = first & 0x7F
    return at + 1 + n if 0 < n <= 3 and at + 1 + n <= len(raw) else None


def private_key(b64: str) -> bool:
    """Whether the base64 run ``b64`` decodes to the start of a private key (the forms in the module).

    Args:
        b64: a run of base64 characters.

    Returns:
        bool: True for PKCS #1, SEC 1, PKCS #8 and encrypted PKCS #8 starts.
    """
    head = b64[:96]
    try:
        raw = base64.b64decode(head[: len(head) // 4 * 4], validate=True)
    except (binascii.Error, ValueError):
        return False
    at = _length(raw, 1) if raw[:1] == b"\x30" else None
    if at is None or at + 3 > len(raw):
        return False
    if raw[at] == 0x02 and raw[at + 1] == 0x01 and raw[at + 2] in (0, 1):  # version INTEGER 0 or 1
        nxt = at + 3
        if nxt >= len(raw):
            return False
        if raw[nxt] == 0x02 and raw[at + 2] == 0:  # PKCS #1 RSA: the modulus
            return True
        if raw[nxt] == 0x04 and raw[at + 2] == 1:  # SEC 1 EC: the private key octets
            return True
        inner = _length(raw, nxt + 1) if raw[nxt] == 0x30 else None  # PKCS #8: AlgorithmIdentifier
        return inner is not None and inner < len(raw) and raw[inner] == 0x06
    if raw[at] == 0x30:  # encrypted PKCS #8: SEQUENCE { SEQUENCE { OID PBES2 / PKCS #12 PBE
        inner = _length(raw, at + 1)
        if inner is None or inner + 2 >= len(raw) or raw[inner] != 0x06:
            return False
        oid = raw[inner + 2 : inner + 2 + raw[inner + 1]]
        return oid == _PBES2 or oid[:9] == _PKCS12_PBE
    return False


def spans(text: str) -> Iterator[Span]:
    """Every run of ``text`` that is a private key in base64 DER (:func:`private_key`).

    Args:
        text: any text.

    Returns:
        Iterator[Span]: ``(start, end, "private-key")`` spans.
    """
    if "M" not in text:
        return
    for m in _RUN_RE.finditer(text):
        if private_key(m.group(0)):
            yield m.start(), m.end(), "private-key"
