"""Vendor formats the maintained scanner misses, from the vendors' docs and maintained rule sets (docs/architecture.md §3).

Each pattern names where its shape comes from. gitleaks' rules are MIT
(github.com/gitleaks/gitleaks, ``config/gitleaks.toml``); the others are the
vendors' documented token shapes. Where a vendor documents a checksum (GitHub's
and npm's CRC32 in the last six base62 characters), a token whose checksum holds
is redacted whatever its entropy.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int, str]

_END = r"(?=$|[\s\\'\"`<>),;|&\]}])"
_PATTERNS: tuple[tuple[str, str], ...] = (
    # gitleaks azure-ad-client-secret: three characters, a digit, "Q~", then 31-34 more.
    ("azure-ad-client-secret", r"(?<![\w~.-])(?P<value>[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34})" + _END),
    # gitleaks sidekiq-secret
    (
        "sidekiq-secret",
        r"(?i)BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM[\"']?\s*(?::{1,3}=|=|:|,)\s*[\"']?(?P<value>[a-f0-9]{8}:[a-f0-9]{8})",
    ),
    # gitleaks nuget-config-password (NuGet.Config's packageSourceCredentials)
    ("nuget-password", r"(?i)<add\s+key=\"(?:ClearText)?Password\"\s+value=\"(?P<value>[^\"]{6,256})\"\s*/?>"),
    # gitleaks facebook-access-token: an app id, "|" (or its URL escape), the app secret.
    ("facebook-token", r"(?<![\w|])(?P<value>\d{15,16}(?:\||%7[Cc])[0-9A-Za-z_-]{27,40})" + _END),
    # gitleaks flyio-access-token
    (
        "flyio-token",
        r"(?<![\w-])(?P<value>fo1_[\w-]{43}|fm1[ar]_[A-Za-z0-9+/]{100,4096}={0,3}|fm2_[A-Za-z0-9+/]{100,4096}={0,3})",
    ),
    # Google OAuth refresh token (developers.google.com/identity: "1//" then the token)
    ("google-token", r"(?<![\w/])(?P<value>1//0[0-9A-Za-z_-]{30,512})"),
    # Braintree access token (braintree docs, as in trufflehog's detector)
    ("braintree-token", r"(?P<value>access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32})"),
    # Robinhood Crypto API key
    (
        "robinhood-key",
        r"(?<![\w-])(?P<value>rh-api-[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12})",
    ),
    # SpectralOps user token
    ("spectralops-token", r"(?<![\w-])(?P<value>spu-[A-Za-z0-9]{32})(?![\w-])"),
    # Mailchimp API key: 32 hex, "-us", the data center
    ("mailchimp-key", r"(?<![\w-])(?P<value>[0-9a-f]{32}-us\d{1,2})(?![\w-])"),
    # Airtable OAuth access token: id ".v1." payload "." hex signature
    (
        "airtable-token",
        r"(?<![\w.])(?P<value>[A-Za-z0-9]{14,20}\.v1\.[A-Za-z0-9_=-]{16,1024}\.[a-f0-9]{32,128})(?![\w.])",
    ),
    # Twitter/X app-only bearer token: 22 "A"s then URL-escaped base64
    ("twitter-bearer", r"(?<![\w%])(?P<value>A{20,24}[A-Za-z0-9%]{30,512})(?![\w%])"),
    # Asana personal access token: "1/" or "2/", numeric ids, ":" 32 hex
    ("asana-token", r"(?<![\w/])(?P<value>[12]/\d{6,20}(?:/\d{6,20})?:[0-9a-f]{32})(?![\w])"),
)
_COMPILED = [(slug, lazyre.compile(p)) for slug, p in _PATTERNS]
_KEYWORDS = (
    "Q~",
    "CONTRIBSYS",
    "ontribsys",
    "assword",
    "|",
    "%7",
    "fo1_",
    "fm1",
    "fm2_",
    "1//0",
    "access_token$",
    "rh-api-",
    "spu-",
    "-us",
    ".v1.",
    "AAAAAAAAAAAAAAAAAAAA",
    "/",
)

_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_CHECKSUMMED_RE = lazyre.compile(
    r"(?<![\w])(?P<value>(?:gh[pousr]|npm)_(?P<body>[A-Za-z0-9]{30})(?P<crc>[A-Za-z0-9]{6}))(?![\w])"
)


def _base62(n: int, width: int) -> str:
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = _B62[r] + out
    return out.rjust(width, "0")


def checksum_ok(token: str) -> bool:
    """Whether a GitHub (``ghp_``…) or npm (``npm_``) token's last six characters are the CRC32 of the 30 before them.

    GitHub documents the format ("Behind GitHub's new authentication token
    formats", 2021): prefix, 30 random base62 characters, a base62 CRC32 of them.
    """
    m = _CHECKSUMMED_RE.fullmatch(token)
    if m is None:
        return False
    return _base62(zlib.crc32(m.group("body").encode()), 6) == m.group("crc")


def _kubernetes_secret(text: str) -> Iterator[Span]:
    """The values under ``data:``/``stringData:`` of a YAML document whose ``kind`` is ``Secret``."""
    if not re.search(r"(?im)^\s*kind:\s*[\"']?secret[\"']?\s*$", text):
        return
    for block in re.finditer(
        r"(?m)^(?P<indent>[ \t]*)(?:data|stringData):[ \t]*\n(?P<body>(?:(?P=indent)[ \t]+[^\n]*\n?)+)", text
    ):
        base = block.start("body")
        for m in re.finditer(
            r"(?m)^[ \t]+[\w.-]+:[ \t]*[\"']?(?P<value>[^\s\"'#][^\n\"']{3,4096}?)[\"']?[ \t]*$", block.group("body")
        ):
            yield base + m.start("value"), base + m.end("value"), "kubernetes-secret"


def spans(text: str) -> Iterator[Span]:
    """Every span of ``text`` one of these vendor formats takes."""
    if any(k in text for k in _KEYWORDS):
        for slug, regex in _COMPILED:
            for m in regex.finditer(text):
                yield m.start("value"), m.end("value"), slug
    if "_" in text:
        for m in _CHECKSUMMED_RE.finditer(text):
            if checksum_ok(m.group("value")):
                yield (
                    m.start("value"),
                    m.end("value"),
                    "npm-token" if m.group("value").startswith("npm") else "github-token",
                )
    if "ecret" in text or "ECRET" in text:
        yield from _kubernetes_secret(text)
