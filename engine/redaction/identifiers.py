"""Public identifiers people keep in notes: spans redaction leaves alone (docs/architecture.md §3).

:func:`spans` adds to :func:`.public.spans`: a finding wholly inside one of
these spans is a false alarm. Each identifier is recognised by positive
knowledge of its format, a checksum where the format has one
(:mod:`.checksums`), its documented structure and the words its format is
printed with elsewhere, never by its look alone; a secret beside one is still
redacted (only the identifier's own characters are public):

- checksummed: Bitcoin addresses (base58check ``1``/``3``/``m``/``n``/``2``,
  bech32/bech32m ``bc1``/``tb1``), IPFS CIDs v0/v1, IBANs, ISBN-13 (``978``/``979``),
  ISBN-10 and EAN-13 after their label, ORCID iDs, VINs after ``VIN``;
- fingerprints: OpenSSH ``SHA256:``/``SHA1:`` base64 of a digest of that length,
  ``MD5:`` colon hex, colon hex after the word fingerprint; GPG key listings
  (``rsa4096/<key id>``), long key ids and fingerprints printed ``0x``-prefixed in
  upper case or after a GPG word (``gpg``, ``fingerprint``, ``signingkey`` ...);
- media ids: YouTube videos (11 base64url characters, the last of 16) after
  ``v=``, ``youtu.be/``, ``/embed/``; playlists (``PL`` + 32 or 16 hex) and
  channels (``UC`` + 22) on a line about YouTube or a playlist; Spotify URIs
  and links (22 base62);
- structured: W3C ``traceparent`` and X-Ray trace ids, ids after ``trace_id``/
  ``span_id``; AWS ARNs (no part of the resource shaped like a credential; words in camel
  case are a name; API Gateway's ``…:lambda:path/…`` and a docs placeholder account count) and
  resource ids (``i-``, ``ami-``, ``vpc-`` ... + 8 or 17 hex); Kubernetes pod
  names (the ``bcdf…2456789`` alphabet) and ``containerd://`` ids; semver with
  build metadata, Go pseudo-versions, PEP 440 local versions, DOIs; a variable
  reference (``$BASE_URL``, ``${name}``); a package tarball with its ``#sha1`` (yarn.lock); the
  parts of a ``magnet:`` link that hold no URL;
- public by design: site keys (reCAPTCHA, hCaptcha, Turnstile: the value after
  ``sitekey``/``site key``, never after a secret word), Sentry DSNs without a
  secret part, PostHog ``phc_`` project keys, Google Analytics/Tag Manager ids;
- a JWT header alone (base64url JSON of JOSE header names with ``alg``, no
  payload after it); base64 of plain text (decodes to words or a JSON object,
  no piece of it a credential, no secret word in it);
- keyboard shortcuts (``Ctrl+Shift+P``: modifiers joined by ``+``, then one key);
- model names with their versions (``llama-3.1-70b-instruct``,
  ``claude-3-5-sonnet-20241022``): a known family, then parts that are words,
  versions, sizes or dates, never a random run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from . import checksums, formats, lazyre
from .base64text import decode_base64

Span = tuple[int, int]

_B58 = "1-9A-HJ-NP-Za-km-z"
_BTC_RE = lazyre.compile(
    rf"(?<![\w])(?:[13mn2][{_B58}]{{25,34}}|(?:bc|tb|bcrt)1[02-9ac-hj-np-z]{{8,87}}|(?:BC|TB)1[02-9AC-HJ-NP-Z]{{8,87}})"
    r"(?![\w])"
)
_CID_RE = lazyre.compile(rf"(?<![\w])(?:Qm[{_B58}]{{44}}|ba[a-z2-7]{{49,119}}|z[bd][{_B58}]{{45,99}})(?![\w])")
"""CIDs: v0, and v1 whose first byte (version 1) makes base32 start ``ba`` and base58btc ``zb``/``zd``."""
_IBAN_RE = lazyre.compile(r"(?<![\w])[A-Z]{2}\d{2}(?:[A-Z0-9]{11,30}|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,4})?)(?![\w])")
_ISBN_RE = lazyre.compile(r"(?<![\w-])(?:97[89][- ]?)?\d{1,5}[- ]?\d{1,7}[- ]?\d{1,7}[- ]?[\dX](?![\w-])")
_ISBN_LABEL_RE = lazyre.compile(r"(?i)\b(?:isbn(?:-1[03])?|ean(?:-13)?|gtin(?:-13)?|barcode)\b[\s:#]*$")
_DIGIT_RE = lazyre.compile(r"\d")
_ISBN_WORD_RE = lazyre.compile(r"(?i)isbn|ean|gtin|barcode")
_ORCID_RE = lazyre.compile(r"(?<![\w-])\d{4}-\d{4}-\d{4}-\d{3}[\dX](?![\w-])")
_VIN_RE = lazyre.compile(r"(?<=\bVIN)[\s:#]+(?P<v>[A-HJ-NPR-Z0-9]{17})(?![\w])")

_SSH_FP_RE = lazyre.compile(
    r"(?<![\w])(?:SHA256:(?P<s256>[A-Za-z0-9+/]{43})|SHA1:(?P<s1>[A-Za-z0-9+/]{27}))=?(?![A-Za-z0-9+/])"
)
_COLON_HEX_RE = lazyre.compile(r"(?<![\w:])(?:MD5:)?(?:[0-9A-Fa-f]{2}:){15,63}[0-9A-Fa-f]{2}(?![\w:])")
_FP_WORD_RE = lazyre.compile(r"(?i)(?:fingerprint|md5|sha-?1|sha-?256|thumbprint)[\w ]{0,12}[\s:=]*$")
_GPG_LIST_RE = lazyre.compile(
    r"(?<![\w])(?:rsa|dsa|elg|ed25519|ed448|cv25519|cv448|nistp(?:256|384|521)|brainpoolP(?:256|384|512)r1|"
    r"secp256k1)\d{0,5}/(?:0x)?(?:[0-9A-F]{8}|[0-9A-F]{16}|[0-9A-F]{40})(?![\w])"
)
_GPG_0X_RE = lazyre.compile(r"(?<![\w])0x(?:[0-9A-F]{16}|[0-9A-F]{40})(?![\w])")
_GPG_HEX_RE = lazyre.compile(r"(?<![\w])(?:[0-9A-Fa-f]{16}|[0-9A-Fa-f]{40}|[0-9A-Fa-f]{64})(?![\w])")
_GPG_WORD_RE = lazyre.compile(
    r"(?i)\b(?:gpg2?|pgp|gnupg|openpgp|keyserver|keys\.openpgp\.org|fingerprint|signingkey|"
    r"recv-keys?|by-fingerprint|by-keyid|--(?:sign|verify|export|edit)-?key|default-key)\b"
)
_NOT_PUBLIC_RE = lazyre.compile(r"(?i)secret|passw|private|hmac|bearer|token")
_NOT_GPG_RE = lazyre.compile(r"(?i)secret|passw|private|hmac|bearer|token|api|access|licen[cs]e|client|app[ _-]?key")
"""Words before a ``0x`` key id that name another kind of key (an API, access or licence key): not GPG's."""

_YT_VIDEO_RE = lazyre.compile(
    r"(?:[?&]v=|youtu\.be/|/embed/|/shorts/|/live/)(?P<v>[A-Za-z0-9_-]{10}[AEIMQUYcgkosw048])(?![\w-])"
)
_YT_LIST_RE = lazyre.compile(
    r"(?<![\w-])(?:PL[A-Za-z0-9_-]{32}|PL[0-9A-F]{16}|(?:UU|UC)[A-Za-z0-9_-]{21}[AQgw]|OLAK5uy_[A-Za-z0-9_-]{33})"
    r"(?![\w-])"
)
_YT_WORD_RE = lazyre.compile(r"(?i)youtube|youtu\.be|playlist|[?&]list=|channel")
_SPOTIFY_RE = lazyre.compile(
    r"(?:spotify:|open\.spotify\.com/(?:intl-[a-z]{2}/)?)(?:track|album|artist|playlist|episode|show|user|audiobook)"
    r"[:/](?P<v>[A-Za-z0-9]{22})(?![\w])"
)
_SPOTIFY_ID_RE = lazyre.compile(r"(?i)\bspotify\b[\w ]{0,20}?[\s:=]+(?P<v>[A-Za-z0-9]{22})(?![\w])")
"""A Spotify ID (22 base62) after the word: Spotify's own secrets are 32 hex, so this shape is an id."""

_TRACE_RE = lazyre.compile(
    r"(?<![\w-])(?:[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}|1-[0-9a-f]{8}-[0-9a-f]{24})(?![\w-])"
)
_TRACE_ID_RE = lazyre.compile(
    r"(?i)\b(?:trace|span|parent|request|correlation|event)[_-]?id\b[\"']?\s*[=:]\s*[\"']?"
    r"(?P<v>[0-9a-f]{16}|[0-9a-f]{32})(?![\w])"
)
_ARN_RE = lazyre.compile(
    r"(?<![\w])arn:aws(?:-cn|-us-gov|-iso(?:-[a-z])?)?:[a-z0-9-]+:[a-z0-9-]*:"
    r"(?:\d{12}|[a-z][a-z0-9.-]{0,40}(?=:(?:path|action)/)|[a-z][a-z-]{2,20})?:[^\s\"'<>,;)]+"
)
"""An ARN: the account is 12 digits, none, a docs placeholder (``accountid``) or, in API Gateway's integration URI, the
service (``arn:aws:apigateway:<region>:lambda:path/...``)."""
_AWS_ID_RE = lazyre.compile(
    r"(?<![\w-])(?:i|ami|vpc|subnet|sg|vol|snap|eni|igw|rtb|acl|nat|eipalloc|lt|tgw|pcx|vpce|r|fs|fsmp|db)-"
    r"(?:[0-9a-f]{8}|[0-9a-f]{17})(?![\w-])"
)
_CAMEL_WORDS_RE = lazyre.compile(r"(?:[a-z]{2,}|[A-Z][a-z]{2,})(?:[A-Z][a-z]{2,})+")
_POD_ALPHA = "bcdfghjklmnpqrstvwxz2456789"
_POD_RE = lazyre.compile(
    rf"(?<![\w-])(?:[a-z][a-z0-9]{{0,30}}-){{1,6}}(?:[{_POD_ALPHA}]{{6,10}}|\d{{8}})-[{_POD_ALPHA}]{{5}}(?![\w-])"
)
"""A pod's name: its owner's name, then a ReplicaSet's hash or a CronJob's schedule (minutes since 1970, 8 digits),
then 5 characters of Kubernetes' random-suffix alphabet."""
_CONTAINER_RE = lazyre.compile(r"(?<![\w])(?:containerd|docker|cri-o)://[0-9a-f]{64}(?![\w])")
_SEMVER_RE = lazyre.compile(
    r"(?<![\w.+-])v?(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?"
    r"\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*(?![\w+-])"
)
_GO_PSEUDO_RE = lazyre.compile(r"(?<![\w.-])v\d+\.\d+\.\d+-(?:[0-9A-Za-z.]+\.)?(?:0\.)?\d{14}-[0-9a-f]{12}(?![\w-])")
_PEP440_LOCAL_RE = lazyre.compile(
    r"(?<![\w.+-])\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?\+[a-z0-9]+(?:\.[a-z0-9]+)*(?![\w+])"
)
_DOI_RE = lazyre.compile(r"(?<![\w.])10\.\d{4,9}/[-._;()/:A-Za-z0-9]+[A-Za-z0-9)]")
_LOCK_RE = lazyre.compile(
    r"(?<![\w-])sha1-[A-Za-z0-9+/]{27}=(?![\w+/=])|(?<![\w-])sha(?:256|512)=[0-9a-f]{64,128}(?![\w])|"
    r"\"reference\":\s*\"[0-9a-f]{40}\"|\bChange-Id: I[0-9a-f]{40}\b"
)
"""Lockfile and review ids: old npm ``sha1-`` integrity, Gemfile.lock ``sha256=``, composer's ``reference`` (a
commit), Gerrit's ``Change-Id``."""
_TENANT_RE = lazyre.compile(
    r"(?i)\b(?:tenant|subscription|directory)[_-]?id[\"']?\s*[=:]\s*[\"']?"
    r"(?P<v>[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12})(?![\w-])"
)
_SEARCH_ONLY_RE = lazyre.compile(r"(?i)\bsearch[- ]only(?: api)? key\b[\s:=\"']*(?P<v>[0-9a-f]{32})(?![\w])")
"""Algolia's search-only API key: public by Algolia's docs (it goes in the page)."""
_VAR_REF_RE = lazyre.compile(
    r"(?<![\w$\\])\$(?:\{[A-Za-z_][A-Za-z0-9_]{0,63}\}|[A-Z_][A-Z0-9_]{2,63}(?![\w]))(?P<path>/[\w.~%#/-]{0,256})?"
)
"""A shell, Compose or Makefile variable reference (``$BASE_URL``, ``${db_password}``): a name, not a value; with
the path built on it (``$BASE_URL/reset#/form``); not public at all when a piece of the path reads as a credential."""
_SHORTCUT_RE = lazyre.compile(
    r"(?<![\w+-])(?:(?:ctrl|control|cmd|command|alt|option|opt|shift|super|win|meta|hyper|fn|⌘|⌥|⇧|⌃)\s?\+\s?){1,4}"
    r"(?:f\d{1,2}|tab|enter|return|esc|escape|space|backspace|delete|del|home|end|pageup|pagedown|up|down|left|right|"
    r"insert|[a-z0-9]|[`~!@#$%^&*()_=\[\]{};:'\",.<>/?\\|-])(?![\w+])",
    re.I,
)
"""A keyboard shortcut: one to four modifiers joined by ``+``, then one key (``Ctrl+Shift+P``, ``Cmd+Option+I``)."""
_TARBALL_RE = lazyre.compile(
    r"(?<![\w.@/-])[\w.@/:-]*\.(?:tgz|tar\.gz|whl|gem|crate|zip)#(?:sha\d+[-=:])?[0-9a-f]{40,128}\b"
)
_MAGNET_RE = lazyre.compile(r"magnet:\?[^\s\"'<>]+")
_MAGNET_URL_PARAM_RE = lazyre.compile(r"[?&](?:tr|ws|xs|as|x\.pe)=")

_SITEKEY_RE = lazyre.compile(
    r"(?i)(?P<label>\b(?:data-)?site[ _-]?key\b)[\"']?\s*(?:[=:]\s*)?[\"']?"
    r"(?P<v>[A-Za-z0-9_-]{20,64}|[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12})(?![\w-])"
)
_SENTRY_RE = lazyre.compile(r"https?://(?P<v>[0-9a-f]{32})@[\w.-]*\bsentry\.io/\d+")
_PUBLIC_PREFIX_RE = lazyre.compile(
    r"(?<![\w-])(?:phc_[A-Za-z0-9]{32,64}|G-[A-Z0-9]{8,12}|GTM-[A-Z0-9]{6,9}|UA-\d{4,10}-\d{1,4})\b"
)

_JWT_HEADER_RE = lazyre.compile(r"(?<![\w.-])eyJ[A-Za-z0-9_-]{10,1024}(?![\w-]|\.[A-Za-z0-9_-])")
_JOSE = frozenset(
    [
        "alg",
        "typ",
        "kid",
        "cty",
        "enc",
        "zip",
        "jku",
        "jwk",
        "x5u",
        "x5c",
        "x5t",
        "x5t#S256",
        "crit",
        "b64",
        "epk",
        "apu",
        "apv",
        "iv",
        "tag",
        "p2s",
        "p2c",
        "url",
        "nonce",
    ]
)
_B64_RE = lazyre.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/]{12,}={0,2}(?![A-Za-z0-9+/=_-])")
_REGION_RE = lazyre.compile(r"(?:[a-z]{2}(?:-gov)?-[a-z]+-\d|[a-z]+-[a-z]+\d)")
"""A cloud region's name (AWS ``eu-west-1``, GCP ``europe-west1``): a word in decoded base64, not a credential."""
_B64_SECRET_RE = lazyre.compile(r"(?i)passw|pwd|secret|token|\bkey|api[_-]?key|private|bearer|credential|auth|session")
_B64_LABEL_RE = lazyre.compile(r"(?i)secret|passw|pwd|private|hmac|bearer|token|key|auth|credential|cookie|session|sig")
"""Words before a base64 value that make it a secret whatever it decodes to (``SECRET_KEY=<base64>``)."""

_MODEL_RE = lazyre.compile(
    r"(?<![\w./-])(?:gpt|chatgpt|o[1-9]|claude|gemini|gemma|llama|codellama|mistral|mixtral|ministral|codestral|"
    r"pixtral|magistral|qwen|qwq|deepseek|phi|command|text-embedding|embed|nomic-embed-text|mxbai-embed|bge|e5|"
    r"starcoder|falcon|grok|olmo|granite|nemotron|jamba|sonar|kimi|glm|whisper|dall-e|tts|davinci|babbage|"
    r"haiku|sonnet|opus)[0-9.]*(?:[-:/][A-Za-z0-9._]+){0,10}(?![\w/-])",
    re.I,
)
_PASSWORD_WORD_RE = lazyre.compile(r"(?i)pass|pwd|\bpw\b|secret|credential|login|\bpin\b|phrase")
_MODEL_PART_RE = lazyre.compile(
    r"(?i)[a-z]{1,12}|\d+(?:\.\d+)*[a-z]?|\d+(?:\.\d+)?[bkmtx]|\d+x\d+b|v\d+(?:\.\d+)*|[a-z]+\d+(?:\.\d+)*[a-z]?|"
    r"\d{4}-?\d{2}-?\d{2}|i?q\d(?:_(?:[0-9]|k|s|m|l|xs|xxs|nl))*"
)
"""A model name's parts: words, versions, sizes, dates, and llama.cpp's quantisation types (``q4_K_M``, ``IQ3_XXS``)."""


def _line_before(text: str, start: int, width: int = 64) -> str:
    line_start = text.rfind("\n", 0, start) + 1
    return text[max(line_start, start - width) : start]


def _line(text: str, start: int) -> str:
    a = text.rfind("\n", 0, start) + 1
    b = text.find("\n", start)
    return text[a : b if b >= 0 else len(text)]


def _looks_secret(piece: str) -> bool:
    """Whether a piece of an id reads as a credential: 12+ characters, letters with digits or cases mixed."""
    from .rules import looks_like_credential

    if _CAMEL_WORDS_RE.fullmatch(piece):
        return False  # words in camel case (customAuthFunction, MyWebServer): a name
    return any(c.isalpha() for c in piece) and not piece.islower() and looks_like_credential(piece, min_len=12)


def _checksummed(text: str) -> Iterator[Span]:
    for m in _BTC_RE.finditer(text):
        v = m.group(0)
        if v[:2].lower() in ("bc", "tb") or v[:4].lower() == "bcrt":
            if checksums.segwit_ok(v):
                yield m.span()
        elif checksums.base58check_version(v) in (0x00, 0x05, 0x6F, 0xC4):
            yield m.span()
    if "Qm" in text or "ba" in text or "zb" in text or "zd" in text:
        for m in _CID_RE.finditer(text):
            if checksums.cid_ok(m.group(0)):
                yield m.span()
    for m in _IBAN_RE.finditer(text):
        if checksums.iban_ok(m.group(0)):
            yield m.span()
    if _DIGIT_RE.search(text):
        for m in _ISBN_RE.finditer(text) if "97" in text or _ISBN_WORD_RE.search(text) else ():
            flat = re.sub(r"[- ]", "", m.group(0))
            labelled = bool(_ISBN_LABEL_RE.search(_line_before(text, m.start(), 24)))
            if (len(flat) == 13 and checksums.ean13_ok(flat) and (flat[:3] in ("978", "979") or labelled)) or (
                len(flat) == 10 and labelled and checksums.isbn10_ok(flat)
            ):
                yield m.span()
        for m in _ORCID_RE.finditer(text):
            if checksums.orcid_ok(m.group(0)):
                yield m.span()
    if "VIN" in text:
        for m in _VIN_RE.finditer(text):
            if checksums.vin_ok(m.group("v")):
                yield m.span("v")


def _fingerprints(text: str) -> Iterator[Span]:
    if "SHA" in text:
        for m in _SSH_FP_RE.finditer(text):
            raw = decode_base64(m.group("s256") or m.group("s1"))
            if raw is not None and len(raw) == (32 if m.group("s256") else 20):
                yield m.span()
    if ":" in text:
        for m in _COLON_HEX_RE.finditer(text):
            pairs = m.group(0).removeprefix("MD5:").count(":") + 1
            if pairs in (16, 20, 28, 32, 48, 64) and (
                m.group(0).startswith("MD5:") or _FP_WORD_RE.search(_line_before(text, m.start()))
            ):
                yield m.span()
    if "/" in text:
        for m in _GPG_LIST_RE.finditer(text):
            yield m.span()
    if "0x" in text:
        for m in _GPG_0X_RE.finditer(text):
            if not _NOT_GPG_RE.search(_line_before(text, m.start(), 40)):
                yield m.span()
    if _GPG_WORD_RE.search(text):
        for m in _GPG_HEX_RE.finditer(text):
            v = m.group(0)
            before = _line_before(text, m.start())
            same_case = v.isupper() or v.islower() or v.isdigit()
            if same_case and _GPG_WORD_RE.search(before) and not _NOT_PUBLIC_RE.search(before):
                yield m.span()


def _media(text: str) -> Iterator[Span]:
    for m in _YT_VIDEO_RE.finditer(text):
        yield m.span("v")
    for m in _YT_LIST_RE.finditer(text):
        if _YT_WORD_RE.search(_line(text, m.start())):
            yield m.span()
    if "potify" in text:
        for m in _SPOTIFY_RE.finditer(text):
            yield m.span("v")
        for m in _SPOTIFY_ID_RE.finditer(text):
            yield m.span("v")


def _structured(text: str) -> Iterator[Span]:
    if "-" in text:
        for m in _TRACE_RE.finditer(text):
            yield m.span()
        for m in _AWS_ID_RE.finditer(text):
            yield m.span()
        for m in _POD_RE.finditer(text):
            yield m.span()
    lower = text.lower()
    if "id" in lower:
        for m in _TRACE_ID_RE.finditer(text):
            yield m.span("v")
        for m in _TENANT_RE.finditer(text):
            yield m.span("v")
    if "arn:" in text:
        for m in _ARN_RE.finditer(text):
            resource = m.group(0).split(":", 5)[-1]
            if not any(_looks_secret(p) for p in re.split(r"[-/:._=+@]", resource)):
                yield m.span()
    if "://" in text:
        for m in _CONTAINER_RE.finditer(text):
            yield m.span()
    if "+" in text:
        for m in _SEMVER_RE.finditer(text):
            yield m.span()
        for m in _PEP440_LOCAL_RE.finditer(text):
            yield m.span()
    if "v" in text and "-" in text:
        for m in _GO_PSEUDO_RE.finditer(text):
            yield m.span()
    if any(w in text for w in ("sha1-", "sha256=", "sha512=", '"reference"', "Change-Id")):
        for m in _LOCK_RE.finditer(text):
            yield m.span()
    if "10." in text:
        for m in _DOI_RE.finditer(text):
            if not any(_looks_secret(p) and len(p) >= 20 for p in re.split(r"[-._;()/:]", m.group(0))):
                yield m.span()
    if "+" in text:
        for m in _SHORTCUT_RE.finditer(text):
            yield m.span()
    if "$" in text:
        for m in _VAR_REF_RE.finditer(text):
            name = m.group(0)[1:].split("/", 1)[0]
            if not (name.startswith("{") or "_" in name or name.isalpha()):
                continue  # ``$SUMMER2024`` reads as a password starting with ``$``, not a variable
            if not any(_looks_secret(p) for p in re.split(r"[/#._~%-]", m.group("path") or "")):
                yield m.span()  # with a credential-like piece on it, none: the finding stands whole
    if "#" in text:
        for m in _TARBALL_RE.finditer(text):
            yield m.span()
    if "magnet:" in text:
        for m in _MAGNET_RE.finditer(text):
            cut = _MAGNET_URL_PARAM_RE.search(m.group(0))
            yield m.start(), m.start() + cut.start() if cut else m.end()


def _public_by_design(text: str) -> Iterator[Span]:
    if "ite" in text and ("key" in text or "Key" in text or "KEY" in text):
        for m in _SITEKEY_RE.finditer(text):
            if not _NOT_PUBLIC_RE.search(_line_before(text, m.start("v"), 48)):
                yield m.span("v")
    if "only" in text:
        for m in _SEARCH_ONLY_RE.finditer(text):
            yield m.span("v")
    if "sentry.io" in text:
        for m in _SENTRY_RE.finditer(text):
            yield m.span()
    for m in _PUBLIC_PREFIX_RE.finditer(text):
        yield m.span()


def _jwt_header_ok(value: str) -> bool:
    raw = decode_base64(value, "urlsafe")
    try:
        data = json.loads(raw) if raw else None
    except ValueError:
        return False
    return isinstance(data, dict) and "alg" in data and set(data) <= _JOSE


def _plain_text_ok(value: str) -> bool:
    """Whether base64 ``value`` decodes to plain words or a JSON object with no credential in it."""
    raw = decode_base64(value)
    if raw is None or len(raw) < 8:
        return False
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if not decoded.isprintable() or _B64_SECRET_RE.search(decoded):
        return False
    is_json = decoded.startswith(("{", "[")) and decoded.endswith(("}", "]"))
    if is_json:
        try:
            json.loads(decoded)
        except ValueError:
            return False
    elif " " not in decoded.strip() or sum(c.isalpha() or c == " " for c in decoded) < 0.75 * len(decoded):
        return False
    pieces = [p for p in re.split(r"[\s\"',:;{}\[\]=()]+", decoded) if not _REGION_RE.fullmatch(p)]
    from .rules import looks_like_credential

    return not any(looks_like_credential(p, min_len=8) for p in pieces if p)


def _encoded(text: str) -> Iterator[Span]:
    if "eyJ" in text:
        for m in _JWT_HEADER_RE.finditer(text):
            if _jwt_header_ok(m.group(0)):
                yield m.span()
    for m in _B64_RE.finditer(text):
        a, b = m.span()
        if b - a > 4096:
            continue  # no note holds plain text that long in base64; a data URL's bytes are :mod:`.public`'s
        if (a and text[a - 1] == ".") or (text[b : b + 1] == "." and text[b + 1 : b + 2].isalnum()):
            continue  # a segment of a dotted token (a JWT's header or claims): the token decides
        if _plain_text_ok(m.group(0)) and not _B64_LABEL_RE.search(_line_before(text, a, 40)):
            yield m.span()


def _models(text: str) -> Iterator[Span]:
    """Model names: two or more parts, each a word, version, size or date, with a version in the family or in one
    of the two parts after it (``gpt-4o``, ``qwen2.5-coder``, ``claude-opus-4-1``); never one word with digits
    (``Sonnet42``), a value after ``%``/``:`` (``user%pw``) or one the line calls a password."""
    for m in _MODEL_RE.finditer(text):
        parts = [p for p in re.split(r"[-:/]", m.group(0)) if p]
        if len(m.group(0)) > 64 or not all(_MODEL_PART_RE.fullmatch(p) for p in parts):
            continue
        a = m.start()
        if len(parts) < 2 or (a and text[a - 1] in "%:/@") or _PASSWORD_WORD_RE.search(_line_before(text, a, 40)):
            continue  # one word with digits (``Sonnet42``), ``user%pw``, or said to be a password: not a model
        if parts[0][-1].isdigit() or any(p[0].isdigit() for p in parts[1:3]):
            yield m.span()


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every public identifier in ``text`` whose checksum or structure checks out."""
    yield from _checksummed(text)
    yield from _fingerprints(text)
    yield from _media(text)
    yield from _structured(text)
    yield from _public_by_design(text)
    yield from _encoded(text)
    yield from _models(text)
    yield from formats.spans(text)
