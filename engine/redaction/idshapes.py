"""Public ids of tracing, cloud, key and package tools: spans redaction leaves alone (docs/architecture.md §3).

:func:`spans` adds to :func:`.formats.spans` (issue 32, round 8). As there,
each format is recognised by positive knowledge of it (its checksum, its
documented structure, or the header or label it is printed under), never by
its look alone; a secret beside one is still redacted:

- trace contexts: B3's single header (``{trace}-{span}-{sampled}-{parent}``) and
  ``sentry-trace`` (``{trace}-{span}-{sampled}``), Google's
  ``X-Cloud-Trace-Context`` (``{trace}/{span};o=1``) and Cloud Logging's
  ``projects/<id>/traces/<32 hex>``, the members of a W3C ``tracestate`` header;
- decoded structure: BIP 32 extended public keys (``xpub``/``ypub``/``zpub``/
  ``tpub``..., base58check, 78 bytes; never ``xprv``), minisign public keys
  (``RW`` + base64 of ``Ed``, an 8-byte key id and a 32-byte key), JSON Web
  Keys holding no private member (RFC 7517/7518: no ``d``, ``p``, ``q``,
  ``dp``, ``dq``, ``qi``, ``oth``, ``k``), KSUIDs after the word (20 bytes, a
  timestamp since 2014) and ULIDs (Crockford's base32, a time first) after
  their word (a KSUID also after its command's options: ``ksuid -f inspect``);
- documented shapes: ``git describe`` output (``v1.2.3-14-g<hex>``), OpenAI
  fine-tuned model names (``ft:<model>:<org>:<suffix>:<id>``), Google OAuth
  client ids (``<project number>-<32>.apps.googleusercontent.com``, public by
  Google's docs), OpenPGP Web Key Directory paths (``openpgpkey/hu/`` + 32
  z-base-32), HPKP ``pin-sha256`` (base64 of 32 bytes), SSH key type names
  (``ssh-ed25519``, before a fingerprint, not a key's body), AWS resource ids in
  their long form (a lower-case prefix and 17 hex: ``import-ami-…``, ``ipam-pool-…``;
  round 9, from ``public2``'s harvest of the AWS CLI's examples);
- identifiers as prose and tool output quote them, named by the word before
  them (:mod:`.idwords`, round 10);
- by label: an Application Insights ``InstrumentationKey`` (a GUID; not a
  secret by Microsoft's docs), an Ethereum log topic (``topic0 0x`` + 64 hex).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Iterator

from . import checksums, lazyre

Span = tuple[int, int]

_B3_RE = lazyre.compile(
    r"(?<![\w-])(?:[0-9a-f]{32}|[0-9a-f]{16})-[0-9a-f]{16}(?P<flag>-[01d](?:-[0-9a-f]{16})?)?(?![\w-])"
)
"""B3's single header and ``sentry-trace``: trace id (16 or 32 hex), span id (16 hex), the sampling flag, the parent."""
_B3_WORD_RE = lazyre.compile(r"(?i)\bb3\b|sentry-trace|\btrace")
_CLOUD_TRACE_RE = lazyre.compile(r"(?<![\w-])[0-9a-f]{32}/\d{1,20}(?:;o=[01])?(?![\w/])")
_CLOUD_TRACE_WORD_RE = lazyre.compile(r"(?i)x-cloud-trace-context|cloud[ -]?trace|;o=[01]")
_GCP_TRACE_RE = lazyre.compile(r"(?<![\w/-])projects/[a-z][a-z0-9-]{4,28}[a-z0-9]/traces/[0-9a-f]{32}(?![\w])")
_TRACESTATE_RE = lazyre.compile(r"(?im)\btracestate[\"']?\s*[:=]\s*(?P<v>[^\s\"'(]+)")
_TRACESTATE_MEMBER_RE = lazyre.compile(r"(?P<k>[a-z0-9][a-z0-9_*/@-]{0,255})=[\x21-\x2b\x2d-\x3c\x3e-\x7e]{1,32}")
"""A ``tracestate`` list member (W3C Trace Context §3.3.1.3): a lower-case key, ``=``, a printable value; kept when
the value is short (vendors' are: ``rojo=00f067aa0ba902b7``) and the key is no secret word, so no token hides there."""
_XPUB_RE = lazyre.compile(r"(?<![\w])[xyzYZtuvUV]pub[1-9A-HJ-NP-Za-km-z]{100,108}(?![\w])")
_XPUB_VERSIONS = frozenset(
    bytes.fromhex(v)
    for v in (
        "0488b21e",
        "049d7cb2",
        "04b24746",
        "0295b43f",
        "02aa7ed3",
        "043587cf",
        "044a5262",
        "045f1cf6",
        "024289ef",
        "02575483",
    )
)
"""SLIP-0132 version bytes of extended public keys (xpub, ypub, zpub, Ypub, Zpub and their testnet tpub, upub,
vpub, Upub, Vpub); the private ones (``xprv`` ...) are not here."""
_MINISIGN_RE = lazyre.compile(r"(?<![A-Za-z0-9+/])RW[A-Za-z0-9+/]{54}(?![A-Za-z0-9+/=])")
_JWK_RE = lazyre.compile(r"\{[^{}]{0,4000}\"kty\"[^{}]{0,4000}\}")
_JWK_PRIVATE = frozenset({"d", "p", "q", "dp", "dq", "qi", "oth", "k"})
"""JWK members that hold a private or symmetric key (RFC 7518 §6.2.2, §6.3.2, §6.4.1)."""
_ULID_RE = lazyre.compile(r"(?i:\bulid\b)[\w ]{0,16}?[\s:=\"']+(?P<v>[0-7][0-9A-HJKMNP-TV-Z]{25})(?![\w])")
"""A ULID after the word: 26 of Crockford's base32, the first 10 a time in milliseconds (so the first is 0-7)."""
_KSUID_RE = lazyre.compile(r"(?i:\bksuid\b)(?:[\w ]|\s-\w)*?[\s:=\"']+(?P<v>[0-9A-Za-z]{27})(?![\w])")
"""A KSUID after the word, options of its command between them (``ksuid -f inspect <ksuid>``)."""
_EC2_ID_RE = lazyre.compile(r"(?<![\w-])(?P<p>[a-z]{1,12}(?:-[a-z]{1,12}){0,3})-[0-9a-f]{17}(?![\w-])")
"""An AWS resource id in its long form: a lower-case prefix naming the resource (``import-ami``, ``ipam-pool``,
``tgw-attach``, ``cvpn-endpoint``) and 17 hex digits; never under a secret word or with one in the prefix."""
_KEY_WORDS = frozenset({"key", "keys", "apikey", "sk", "pk", "pat", "auth", "pass", "pw", "cred", "creds", "session"})
_DESCRIBE_RE = lazyre.compile(
    r"(?<![\w.-])v?\d{1,4}(?:\.\d{1,6}){0,3}(?:-[0-9A-Za-z.]+)?-\d{1,6}-g[0-9a-f]{7,40}(?:-dirty)?(?![\w-])"
)
"""``git describe`` output: the tag, the number of commits since it, ``g`` and the abbreviated commit."""
_FT_MODEL_RE = lazyre.compile(
    r"(?<![\w:])ft:(?P<base>[a-z0-9][a-z0-9.-]{1,63}):[a-z0-9_-]{1,64}:[A-Za-z0-9_.-]{0,64}:[A-Za-z0-9]{6,12}"
    r"(?::ckpt-step-\d+)?(?![\w:])"
)
_FT_BASE_RE = lazyre.compile(r"(?:gpt|davinci|babbage|o\d)[a-z0-9.-]*")
_GOOGLE_CLIENT_RE = lazyre.compile(r"(?<![\w-])\d{6,14}-[a-z0-9]{32}\.apps\.googleusercontent\.com(?![\w-])")
_WKD_RE = lazyre.compile(
    r"(?<![\w])(?:[\w.-]+/)*\.well-known/openpgpkey/(?:[a-z0-9.-]+/)?hu/[ybndrfg8ejkmcpqxot1uwisza345h769]{32}"
    r"(?:\?l=[\w.%+-]+)?(?![\w])"
)
_PIN_RE = lazyre.compile(r"(?<![\w-])pin-sha256=\"(?P<v>[A-Za-z0-9+/]{43}=)\"")
_SSH_TYPE_RE = lazyre.compile(
    r"(?<![\w-])(?:ssh-(?:ed25519|ed448|rsa|dss)|rsa-sha2-(?:256|512)|ecdsa-sha2-nistp(?:256|384|521)|"
    r"sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)(?:-cert-v01@openssh\.com)?(?![\w-])(?![ \t]+AAAA)"
)
"""SSH key and signature algorithm names (RFC 4253, 5656, 8332, 8709; OpenSSH's PROTOCOL.u2f): names, not keys.
A name before a key's body (``AAAA…``) is left to :mod:`.public`, which keeps the key only if its body names it."""
_INSTRUMENTATION_RE = lazyre.compile(
    r"(?i)\binstrumentation[ _-]?key[\"']?\s*(?:[=:]\s*)?[\"']?(?P<v>[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12})(?![\w-])"
)
_TOPIC_RE = lazyre.compile(
    r"(?i)\b(?:topic[0-3]?|topics|event signature)\b[\]\[\"':=\s0-3,]{0,8}(?P<v>0x[0-9a-f]{64})(?![\w])"
)
_SECRET_WORD_RE = lazyre.compile(r"(?i)secret|passw|private|priv[ _-]?key|hmac|bearer|token|seed|mnemonic|api[ _-]?key")


def _line_before(text: str, start: int, width: int = 64) -> str:
    return text[max(text.rfind("\n", 0, start) + 1, start - width) : start]


def _line(text: str, start: int) -> str:
    a = text.rfind("\n", 0, start) + 1
    b = text.find("\n", start)
    return text[a : b if b >= 0 else len(text)]


def _xpub_ok(value: str) -> bool:
    """Whether ``value`` is base58check of 78 bytes opening with an extended public key's version."""
    raw = checksums.b58decode(value)
    if raw is None or len(raw) != 82:
        return False
    body, check = raw[:78], raw[78:]
    return hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4] == check and body[:4] in _XPUB_VERSIONS


def _minisign_ok(value: str) -> bool:
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return False
    return len(raw) == 42 and raw[:2] == b"Ed"


def _public_jwk(obj: str) -> bool:
    """Whether ``obj`` is one JSON Web Key (``kty`` named) with no member that holds a private key."""
    try:
        data = json.loads(obj)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("kty") in ("EC", "RSA", "OKP") and not (set(data) & _JWK_PRIVATE)


def _ksuid_ok(value: str) -> bool:
    """Whether base62 ``value`` is 20 bytes whose first 4 are a time from 2014 to 2045 (KSUID's epoch, 1.4e9)."""
    n = 0
    for c in value:
        n = n * 62 + "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".index(c)
    return n < 1 << 160 and (n >> 128) < 1_000_000_000


def _traces(text: str) -> Iterator[Span]:
    if "-" in text:
        for m in _B3_RE.finditer(text):
            if m.group("flag") or _B3_WORD_RE.search(_line_before(text, m.start())):
                yield m.span()
    if "/" in text:
        for m in _CLOUD_TRACE_RE.finditer(text):
            if _CLOUD_TRACE_WORD_RE.search(_line(text, m.start())):
                yield m.span()
        for m in _GCP_TRACE_RE.finditer(text):
            yield m.span()
    if "tracestate" in text.lower():
        for header in _TRACESTATE_RE.finditer(text):
            value, at = header.group("v"), header.start("v")
            pos = 0
            for member in value.split(","):
                stripped = member.strip()
                member_m = _TRACESTATE_MEMBER_RE.fullmatch(stripped)
                if member_m and not _SECRET_WORD_RE.search(member_m.group("k")):
                    a = at + pos + member.find(stripped)
                    yield a, a + len(stripped)
                pos += len(member) + 1


def _decoded(text: str) -> Iterator[Span]:
    if "pub" in text:
        for m in _XPUB_RE.finditer(text):
            if _xpub_ok(m.group(0)):
                yield m.span()
    if "RW" in text:
        for m in _MINISIGN_RE.finditer(text):
            if _minisign_ok(m.group(0)):
                yield m.span()
    if '"kty"' in text:
        for m in _JWK_RE.finditer(text):
            if _public_jwk(m.group(0)):
                yield m.span()
    if "ulid" in text.lower():
        for m in _ULID_RE.finditer(text):
            yield m.span("v")
    if "ksuid" in text.lower():
        for m in _KSUID_RE.finditer(text):
            if _ksuid_ok(m.group("v")):
                yield m.span("v")


def _shapes(text: str) -> Iterator[Span]:
    if "-g" in text:
        for m in _DESCRIBE_RE.finditer(text):
            yield m.span()
    if "ft:" in text:
        for m in _FT_MODEL_RE.finditer(text):
            if _FT_BASE_RE.fullmatch(m.group("base")):
                yield m.span()
    if ".apps.googleusercontent.com" in text:
        for m in _GOOGLE_CLIENT_RE.finditer(text):
            yield m.span()
    if "openpgpkey" in text:
        for m in _WKD_RE.finditer(text):
            yield m.span()
    if "pin-sha256" in text:
        for m in _PIN_RE.finditer(text):
            raw = base64.b64decode(m.group("v"))
            if len(raw) == 32:
                yield m.span()
    if "-" in text:
        for m in _EC2_ID_RE.finditer(text):
            words = set(m.group("p").split("-"))
            if words & _KEY_WORDS or _SECRET_WORD_RE.search(m.group("p") + " " + _line_before(text, m.start(), 32)):
                continue
            yield m.span()
    if "ssh-" in text or "sha2-" in text:
        for m in _SSH_TYPE_RE.finditer(text):
            yield m.span()


def _labelled(text: str) -> Iterator[Span]:
    lower = text.lower()
    if "instrumentation" in lower:
        for m in _INSTRUMENTATION_RE.finditer(text):
            yield m.span("v")
    if "topic" in lower or "event signature" in lower:
        for m in _TOPIC_RE.finditer(text):
            if not _SECRET_WORD_RE.search(_line(text, m.start())):
                yield m.span("v")


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every public value in ``text`` that :mod:`.idshapes` knows, in no particular order."""
    yield from _traces(text)
    yield from _decoded(text)
    yield from _shapes(text)
    yield from _labelled(text)
    from .idwords import spans as idword_spans

    yield from idword_spans(text)
