"""Values their label says are public or no secret, in the shape that label promises (docs/architecture.md §3).

breaker21's B21-8 (issue 32, round 12): a key stored on purpose was redacted
because the word "key" sat before it. :func:`spans` gives :mod:`.public` the
values kept verbatim, each only in the shape its label's format documents, so a
secret written after such a label is still redacted:

- after "public key" (``PublicKey``, ``publicKey``, ``public_key``, ``PUBLIC_KEY``, ``pubkey``),
  within a few words and no "private" or "secret" between: a 32-byte key in base64
  (WireGuard's, X25519, Ed25519), a P-256 point in base64url (a Web Push VAPID public key:
  65 bytes opening ``04``, or 33 opening ``02``/``03``), or an OpenPGP public-key packet's
  start (``mQINB…``: tag 6, version 4 or 5), or an EC point in hex (66 digits opening ``02``/``03``, 130 opening
  ``04``: dotenvx's ``DOTENV_PUBLIC_KEY``; a private key is 64);
- after "key comment": ``user@host``, what ``ssh-keygen -C`` writes by default;
- a cache key of three parts or more joined by ``:``, lower-case words and at least one
  number or ``*``/``{id}`` (``user:42:profile``, the Redis naming convention), with no
  password word just before it;
- a JOSE key id or certificate thumbprint, the value of ``kid``, ``x5t`` or ``x5t#S256`` (RFC 7515 §4.1.4-4.1.8:
  a hint naming which public key verifies a JWT, printed in every token's header), each only in its own shape
  (:func:`_kid_ok`): a thumbprint as base64url of its digest's length; a kid as a name where the text speaks of
  JOSE (``JWT``, ``JWKS``, ``alg``, ``kty`` ...) and of no HMAC key (breaker25 B25-4).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int]

_PUBLIC_RE = lazyre.compile(
    r"(?i)(?<![a-z])(?:public[ _-]?key|pub[ _-]?key)s?(?![a-z])(?P<between>[^\n=:]{0,40}?)"
    r"(?:[\"']?[ \t]*[:=][ \t]*|[ \t]+(?:is|was|starts[ \t]+with|begins[ \t]+with)[ \t]+)[\"']?"
    r"(?P<value>[A-Za-z0-9+/_-]{16,130}={0,2})(?![A-Za-z0-9+/=_-])"
)
_NOT_PUBLIC_RE = lazyre.compile(r"(?i)private|secret|\band\b")
_SECRET_WORD_RE = lazyre.compile(r"(?i)pass|pwd|\bpw\b|secret|token|credential|auth")
"""A password word just before a cache-key-shaped value: then it is the password, not a name."""
_COMMENT_RE = lazyre.compile(
    r"(?i)\bkey[ \t]+comment[ \t]*(?:is|was|:|=)[ \t]*[\"']?(?P<value>[\w.+-]{1,64}@[\w.-]{1,253})(?![\w@.-])"
)
_CACHE_KEY_RE = lazyre.compile(
    r"(?<![\w:/@.-])(?P<value>[a-z][a-z0-9_-]{0,30}(?::(?:[a-z][a-z0-9_-]{0,30}|\d{1,19}|\*|\{[a-z_]{1,20}\})){2,8})"
    r"(?![\w:/@-])"
)

_KID_RE = lazyre.compile(
    r"(?<![\w-])[\"']?(?P<label>kid|x5t(?:#S256)?)[\"']?(?:[ \t]*[:=][ \t]*|[ \t]+(?:is[ \t]+)?)[\"']?"
    r"(?P<value>[A-Za-z0-9._~+/:-]{4,256}?={0,2})(?![A-Za-z0-9._~+/=:-])"
)
_JOSE_RE = lazyre.compile(r"(?i)\b(?:jwt|jws|jwe|jwks?|jose|alg|kty)\b")
"""The text speaks of JOSE (not "header": any HTTP header is one, breaker25 B25-4)."""
_KID_SHAPE_RE = lazyre.compile(r"[A-Za-z0-9_-]{1,128}(?:\.[A-Za-z0-9_-]{1,128})?")
"""A key id as one is written: a name, a UUID, a base64url thumbprint, one dot at most (``key.v2``); never ``:``
pairs (``user:password``, ``AKIA…:secret``), ``/`` or ``+`` (standard base64), two dots (a signed JWT)."""
_HEX_RE = re.compile(rb"[0-9a-fA-F]+")
_HEX_VALUE_RE = re.compile(r"[0-9a-fA-F]+")
_SYMMETRIC_RE = lazyre.compile(r"(?i)\bHS(?:256|384|512)\b|secret|passw")
"""An HMAC key (``HS256``) or a secret word in the text: a value after ``kid`` there may be the key itself."""


def _kid_ok(text: str, label: str, value: str) -> bool:
    """Whether ``value`` after ``label`` (``kid``, ``x5t``, ``x5t#S256``) reads as a key id or thumbprint.

    An ``x5t`` is a certificate's SHA-1 (``x5t#S256``: SHA-256) digest in base64url (RFC 7515 §4.1.7-8; or, as
    Auth0 writes it, the digest's hex in base64url): it is kept in that shape only, with or without JOSE words around. A ``kid`` is kept in a kid's shape (:data:`_KID_SHAPE_RE`),
    no vendor key's prefix, where the text speaks of JOSE and of no HMAC key or secret.
    """
    if label.lower().startswith("x5t"):
        if "+" in value or "/" in value or "." in value or ":" in value:
            return False
        raw = _decoded(value)
        size = 32 if "#" in label else 20  # SHA-256 or SHA-1
        return raw is not None and (len(raw) == size or (len(raw) == 2 * size and _HEX_RE.fullmatch(raw) is not None))
    from .vendorprefix import _PREFIXES

    return (
        _KID_SHAPE_RE.fullmatch(value) is not None
        and not value.startswith(_PREFIXES)
        and _JOSE_RE.search(text) is not None
        and not _SYMMETRIC_RE.search(text)
    )


def _decoded(value: str) -> bytes | None:
    """``value`` decoded as base64 or base64url, or None when it is neither."""
    text = value.rstrip("=").replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def _public_shape(value: str) -> bool:
    """Whether ``value`` is a public key in one of the module's shapes (decoded, not guessed from its look)."""
    if _HEX_VALUE_RE.fullmatch(value):  # an EC point in hex (SEC 1 §2.3.3): dotenvx's DOTENV_PUBLIC_KEY, secp256k1
        return (len(value) == 66 and value[:2] in ("02", "03")) or (len(value) == 130 and value[:2] == "04")
    raw = _decoded(value)
    if raw is None:
        return False
    if len(raw) == 32 and ((value.endswith("=") and len(value) == 44) or (len(value) == 43 and "+" not in value)):
        return True  # base64, or base64url unpadded (a JWK's ``x`` of an OKP key, RFC 8037)
    if (len(raw) == 65 and raw[0] == 4) or (len(raw) == 33 and raw[0] in (2, 3)):
        return "+" not in value and "/" not in value and "=" not in value  # base64url, as Web Push writes it
    return len(raw) >= 4 and raw[0] in (0x98, 0x99) and raw[3 if raw[0] == 0x99 else 2] in (4, 5)


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of each value ``text`` labels public, in its label's shape (the module's list).

    Args:
        text: any text.

    Returns:
        Iterator[Span]: the values' spans.
    """
    low = text.lower()
    if "pub" in low:
        for m in _PUBLIC_RE.finditer(text):
            if not _NOT_PUBLIC_RE.search(m.group("between")) and _public_shape(m.group("value")):
                yield m.start("value"), m.end("value")
    if "comment" in low:
        for m in _COMMENT_RE.finditer(text):
            yield m.start("value"), m.end("value")
    if "kid" in text or "x5t" in text:
        for m in _KID_RE.finditer(text):
            if _kid_ok(text, m.group("label"), m.group("value")):
                yield m.start("value"), m.end("value")
    if text.count(":") >= 2:
        for m in _CACHE_KEY_RE.finditer(text):
            parts = m.group("value").split(":")
            before = text[max(0, m.start() - 40) : m.start()]
            if any(p.isdigit() or p == "*" or p.startswith("{") for p in parts) and not _SECRET_WORD_RE.search(before):
                yield m.start("value"), m.end("value")
