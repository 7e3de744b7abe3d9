"""Public ids and keys vendors document as public, each in its documented shape (docs/architecture.md §3).

Issue 32 round 25, classes read on the tune halves of the blind sources (``vendorkeys-benign-tune``,
``public3-tune``) and on ``vendordocs2-benign``; their held halves were not read. Each is kept verbatim only
in its exact shape, so a secret of the same vendor is still redacted:

- Mailgun's public validation key ``pubkey-<32 hex>``, Square's application id ``sq0idp-<22>`` (its access token
  ``sq0atp-`` and secret ``sq0csp-`` are not kept), SendGrid's dynamic template id ``d-<32 hex>`` and Braintree's
  tokenization key ``production_<8>_<16>`` (client-side by design, Braintree's docs), each where its line says
  so ("public", "application id", "template", "tokenization"/"client");
- an AWS ARN (``arn:aws:kms:us-east-1:<account>:key/<uuid>``): a resource's name, holding no secret;
- a value after "key id" or "issuer (id)" (``KMS key id: <uuid>``, ``--apiIssuer <uuid>``, ``key id: <base64url>``)
  in a key id's shape, where the text names no secret or password;
- a Solana address (base58 of 32 bytes, decoded) after "program id", "pubkey", "address" or "wallet"; a keypair
  (64 bytes) is not one;
- a public key named just after its value: ``<base64 of 32 bytes> (webhook public key)``;
- round 26 (notes6-tune): a SOPS-encrypted value, ``ENC[AES256_GCM,data:…]`` (SOPS' docs: the file is committed), and
  Algolia's search-only API key (32 hex) on a line saying "search-only" and naming no admin, write or indexing key
  (Algolia's docs: the search-only key is meant for front-end code).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre
from .spanends import line_at

Span = tuple[int, int]

_VENDOR_PUBLIC_RE = lazyre.compile(
    r"(?<![\w-])(?:(?P<mailgun>pubkey-[0-9a-f]{32})|(?P<square>sq0idp-[A-Za-z0-9_-]{22})|(?P<sendgrid>d-[0-9a-f]{32})|"
    r"(?P<braintree>(?:production|sandbox)_[a-z0-9]{8}_[a-z0-9]{16}))(?![\w-])"
)
_NAMED_PUBLIC = {
    "mailgun": lazyre.compile(r"(?i)public"),
    "square": lazyre.compile(r"(?i)public|app(?:lication)?[ _-]?id"),
    "sendgrid": lazyre.compile(r"(?i)template"),
    "braintree": lazyre.compile(r"(?i)tokeni[sz]ation|dropin|drop-in|client"),
}
"""What the line must say for each vendor's public shape to be kept: gitleaks' rule takes a Mailgun ``pubkey-``
under ``mailgun_TOKEN =`` for a secret, and a value of a public shape under a token's name is redacted."""
_ARN_RE = lazyre.compile(
    r"(?<![\w-])arn:aws(?:-cn|-us-gov)?:[a-z0-9-]{2,40}:[a-z0-9-]{0,30}:\d{0,12}:[\w/.:*@+-]{1,512}"
)
_ARN_PART_RE = lazyre.compile(r"[^/:]+")
_UUID_RE = lazyre.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_SECRET_BEFORE_RE = lazyre.compile(r"(?i)passw|secret|seed|private|mnemonic|phrase|recovery|\bpin\b|\bpw\b")
_NOT_ITS_NAME_RE = lazyre.compile(r"(?i)\b(?:not|no|instead|of|with|pairs?|paired|matching|for|server|peer|other)\b")
_KEY_ID_RE = lazyre.compile(
    r"(?i)(?<![a-z])(?:key[ _-]?id|(?:api)?[ _-]?issuer(?:[ _-]?id)?)[\"']?(?:[ \t]*[:=][ \t]*|[ \t]+)[\"']?"
    r"(?P<value>[A-Za-z0-9_-]{8,128})(?![\w+/=.-])"
)
_SECRET_NAMED_RE = lazyre.compile(r"(?i)secret|passw|\bpwd\b|private|token")
_SOLANA_RE = lazyre.compile(
    r"(?i:program[ _-]?id|pubkey|public[ _-]?key|address|wallet|mint)[^\n:=]{0,20}?[:=]?[ \t]+"
    r"(?P<value>[1-9A-HJ-NP-Za-km-z]{32,44})(?![\w])"
)
_NAMED_AFTER_RE = lazyre.compile(
    r"(?P<value>[A-Za-z0-9+/_-]{42,44}={0,2})[`\"']?[ \t]*\((?P<name>(?:[\w -]{0,30}[ \t])?)public[ \t]+key\)", re.I
)
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _base58_len(value: str) -> int:
    """How many bytes ``value`` decodes to as base58 (Bitcoin's alphabet), leading ``1``s counted as zero bytes."""
    n = 0
    for c in value:
        n = n * 58 + _B58.index(c)
    body = (n.bit_length() + 7) // 8
    return body + len(value) - len(value.lstrip("1"))


_SOPS_RE = lazyre.compile(
    r"ENC\[(?:AES256_GCM|PGP|age),data:[A-Za-z0-9+/=]{0,8192},(?:[a-z]{1,8}:[A-Za-z0-9+/=_]{0,512},?){1,6}\]"
)
"""A SOPS-encrypted value (``ENC[AES256_GCM,data:…,iv:…,tag:…,type:str]``): ciphertext made to be committed."""
_HEX32_RE = lazyre.compile(r"(?<![0-9A-Za-z])[0-9a-f]{32}(?![0-9A-Za-z])")
_SEARCH_ONLY_RE = lazyre.compile(r"(?i)\bsearch[- ]only\b")
_ADMIN_RE = lazyre.compile(r"(?i)\b(?:admin|write|indexing|secret|private|full|master)\b")


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of each public id or key in ``text`` (the module's list).

    Args:
        text: any text.

    Returns:
        Iterator[Span]: the values' spans.
    """
    from .publiclabelled import _public_shape

    if "ENC[" in text:
        for m in _SOPS_RE.finditer(text):
            yield m.span()
    if "search" in text.lower():
        for m in _HEX32_RE.finditer(text):
            line = line_at(text, m.start())
            if _SEARCH_ONLY_RE.search(line) and not _ADMIN_RE.search(line):
                yield m.span()

    for m in _VENDOR_PUBLIC_RE.finditer(text):
        if _NAMED_PUBLIC[m.lastgroup or ""].search(line_at(text, m.start())):
            yield m.span()
    if "arn:" in text:
        for m in _ARN_RE.finditer(text):
            if not any(_glued_secret(p.group(0)) for p in _ARN_PART_RE.finditer(m.group(0))):
                yield m.span()  # an ARN with a key glued on (``role/x:<key>``) is no ARN alone (breaker B25R-1)
    low = text.lower()
    if ("id" in low or "issuer" in low) and not _SECRET_NAMED_RE.search(text):
        from .vendorprefix import _PREFIXES

        for m in _KEY_ID_RE.finditer(text):
            if not m.group("value").startswith(_PREFIXES):  # an AWS ``AKIA…`` key id stays a vendor's finding
                yield m.start("value"), m.end("value")
    for m in _SOLANA_RE.finditer(text):
        if _base58_len(m.group("value")) == 32 and not _SECRET_BEFORE_RE.search(_before(text, m.start("value"))):
            yield m.start("value"), m.end("value")  # "wallet password: <base58>" is a password (B25R-3)
    if "public" in low:
        for m in _NAMED_AFTER_RE.finditer(text):
            if _NOT_ITS_NAME_RE.search(m.group("name")) or _SECRET_BEFORE_RE.search(_before(text, m.start())):
                continue  # "(not the public key)", "PrivateKey = <key> (pairs with the server public key)" (B25R-4)
            if _public_shape(m.group("value")):
                yield m.start("value"), m.end("value")


def _before(text: str, pos: int) -> str:
    """Up to 60 characters of ``text`` before ``pos`` on its line."""
    return text[max(text.rfind("\n", 0, pos) + 1, pos - 60) : pos]


def _glued_secret(part: str) -> bool:
    """Whether an ARN's part is a key glued on: 20+ characters mixing cases and digits (a UUID is no key)."""
    if len(part) < 20 or _UUID_RE.fullmatch(part):
        return False
    return any(c.isdigit() for c in part) and any(c.isupper() for c in part) and any(c.islower() for c in part)
