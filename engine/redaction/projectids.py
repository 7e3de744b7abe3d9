"""Public values in other projects' own files: spans redaction leaves alone (docs/architecture.md §3).

:func:`spans` adds to :func:`.public.spans` (issue 32, round 12). The values
are what ``build_idfiles.py``'s set (lockfiles, manifests, CI workflows,
changelogs and API docs of other projects) found redacted. Each is recognised
by a structure its maker documents, never by looking random or not, so a
secret written in the same place is still redacted:

- GitHub's own URL parts: a comment's or review's anchor (``#issuecomment-<digits>``,
  ``#discussion_r<digits>`` ...), a workflow's status badge
  (``github.com/<owner>/<repo>/[actions/]workflows/<name>/badge.svg``) and the
  no-reply address GitHub gives a user (``<id>+<login>@users.noreply.github.com``);
- names: media types in the vendor tree (RFC 6838), B3's header names, a URL's ``host:port``, Nix flake
  attribute paths through a system double (``devShells.x86_64-linux.default``);
- ULIDs (github.com/ulid/spec: 26 of Crockford's base32, the first 10 a time in
  ms) whose time decodes to 2016-2035, with no word naming a secret before them;
- an encoding's alphabet written out (Crockford's base32, base58, z-base-32,
  bech32, RFC 4648 base32 and base64, Nix's base32): a table, not a value;
- a digest in the OCI image spec's grammar with an encoding named in the
  algorithm (``sha256+b64u:`` and base64url of 32 bytes), a JWK thumbprint URI (RFC 9278), an encoding's name
  as a word (``base64url-encoded``);
- a public key in DER's SubjectPublicKeyInfo, base64 (``MCowBQYDK2VwAyEA`` for
  Ed25519, ``MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE`` for P-256 ...): the
  algorithm identifier of a public key opens it, never a private key's version;
- OpenSSH's key file names (``id_ed25519``, ``id_rsa.pub``, ``id_ecdsa_sk-cert.pub``): a path, not the key;
- a wheel's URL (a download link whose last piece is a file name in PEP 427's
  grammar), no user, query or fragment in it and no piece of its path shaped like a credential;
- libp2p peer ids of Ed25519 keys (``12D3KooW…``: base58 of an identity multihash of the public key), YouTube's
  ``si=`` share id, Nix's ``trusted-public-keys`` (``<cache>-<n>:<base64 of 32 bytes>``);
- a Nix base32 SHA-256 alone (52 of Nix's alphabet, the first ``0`` or ``1``:
  32 bytes leave the top four bits of 260 clear), as ``nix-prefetch-url`` prints it;
- the fields of Docker's official-images library files (``Tags:``,
  ``SharedTags:``, ``Directory:``, ``GitFetch:``, ``Architectures:``, ``File:``:
  github.com/docker-library/official-images, "Instruction format") and a git
  ref (``refs/heads/<name>``), each piece a word, number or version; setuptools-scm's scheme names
  (``version_scheme = "release-branch-semver"``); a gem's version with its platform (``4.35.1-x86_64-linux-gnu``).

None of them is kept where a credential's label stands right before it on its line (``token=``, ``password is``:
:func:`.notevalues.labelled`); an encoded value (a ULID, a key, a hash) not after a word naming a secret either
(``signing key <value>``; ``public key`` names none); an official-images field's value not where a secret word or a vendor's name stands
before it either (they are words, as a passphrase may be).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from . import lazyre
from .notevalues import labelled

Span = tuple[int, int]

_GH_ANCHOR_RE = lazyre.compile(
    r"#(?:issuecomment|discussioncomment|pullrequestreview|commitcomment|event|discussion_r|r)-?\d{1,12}(?![\w-])"
)
_GH_BADGE_RE = lazyre.compile(
    r"https://github\.com/[\w.-]{1,39}/[\w.-]{1,100}/(?:actions/)?workflows/[\w.%-]{1,100}/badge\.svg"
    r"(?:\?(?:branch|event)=[\w./%-]{1,100}(?:&(?:branch|event)=[\w./%-]{1,100})?)?(?![\w/?&=%-])"
)
_NOREPLY_RE = lazyre.compile(r"(?<![\w.+-])\d{1,12}\+[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})@users\.noreply\.github\.com\b")
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_ULID_RE = lazyre.compile(r"(?<![0-9A-Za-z])01[0-9A-HJKMNP-TV-Z]{24}(?![0-9A-Za-z])")
"""A ULID of 2016-2035: its time (48 bits of ms, 1.45e12 to 2.08e12) makes the first two characters ``01``."""
_ULID_TIME = (1_451_606_400_000, 2_082_758_400_000)
"""2016-01-01 to 2036-01-01 in ms: the time a ULID's first 10 characters must decode to."""
_ALPHABETS = frozenset(
    {
        _CROCKFORD,
        _CROCKFORD.lower(),
        "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
        "ybndrfg8ejkmcpqxot1uwisza345h769",
        "qpzry9x8gf2tvdw0s3jn54khce6mua7l",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
        "abcdefghijklmnopqrstuvwxyz234567",
        "0123456789ABCDEFGHIJKLMNOPQRSTUV",
        "0123456789abcdefghijklmnopqrstuv",
        "0123456789abcdfghijklmnpqrsvwxyz",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "0123456789abcdefghijklmnopqrstuvwxyz",
    }
)
"""Alphabets of documented encodings: Crockford's base32, base58 (Bitcoin's), z-base-32, bech32, RFC 4648 base32,
base32hex, Nix's base32, base64 and base64url, base62 both ways, base36."""
_ALPHABET_RUNS = ("0123456789", "ABCDEFGH", "abcdefgh", "qpzry9x8", "ybndrfg8")
"""A run every alphabet above holds one of: a text without any holds none of them."""
_ALPHABET_RE = lazyre.compile(r"(?<![\w+/-])[\w+/-]{32,64}(?![\w+/-])")
_OCI_DIGEST_RE = lazyre.compile(r"(?<![\w+.-])sha(?P<bits>256|512)\+b64u:(?P<v>[A-Za-z0-9_-]{43,86})(?![\w-])")
_SPKI_HEADS = (
    "MCowBQYDK2VwAyEA",  # Ed25519 (RFC 8410)
    "MCowBQYDK2VuAyEA",  # X25519
    "MEMwBQYDK2VxAzoA",  # Ed448
    "MEIwBQYDK2VvAzkA",  # X448
    "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE",  # EC P-256 (RFC 5480)
    "MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAE",  # EC P-384
    "MIGbMBAGByqGSM49AgEGBSuBBAAjA4GGAAQ",  # EC P-521
    "MFYwEAYHKoZIzj0CAQYFK4EEAAoDQgAE",  # EC secp256k1
    "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA",  # RSA 2048 (RFC 3279)
    "MIICIjANBgkqhkiG9w0BAQEFAAOCAg8AMIICCgKCAgEA",  # RSA 4096
    "MIIBojANBgkqhkiG9w0BAQEFAAOCAY8AMIIBigKCAYEA",  # RSA 3072
    "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ",  # RSA 1024
)
"""The base64 of a SubjectPublicKeyInfo's opening bytes (RFC 5280 §4.1.2.7): the SEQUENCE, the public key's
algorithm identifier and the BIT STRING's head. A private key (PKCS#8) opens with a version INTEGER instead."""
_SPKI_RUNS = ("BQYDK2V", "KoZIzj0", "ByqGSM49", "kqhkiG9w0BAQEF", "SqGSIb3DQEBAQ")
"""A run each head above holds (the algorithm's OID in base64): a text without any holds no head."""
_SPKI_RE = lazyre.compile(
    r"(?<![A-Za-z0-9+/])(?:" + "|".join(_SPKI_HEADS) + r")[A-Za-z0-9+/]{0,1400}={0,2}(?![A-Za-z0-9+/=])"
)
_SSH_FILE_RE = lazyre.compile(
    r"(?<![\w.-])(?:~?[\w.-]*/)*id_(?:rsa|dsa|ecdsa|ed25519|ecdsa_sk|ed25519_sk|xmss)(?:-cert)?(?:\.pub)?(?![\w-]|\.\w)"
)
_WHEEL_URL_RE = lazyre.compile(
    r"\bhttps?://[a-z0-9.-]{1,253}(?::\d{1,5})?/(?P<path>[\w./%~+-]{0,400}/)?"
    r"(?P<wheel>[A-Za-z0-9][\w.]*-\d[\w.+!]*(?:-\d[\w]*)?-[\w.]+-[\w.]+-[\w.]+\.whl)(?![\w./?#&=%@-])"
)
"""A URL whose last piece is a wheel: ``{name}-{version}(-{build})?-{python}-{abi}-{platform}.whl`` (PEP 427)."""
_NIX32_RE = lazyre.compile(r"(?<![\w.-])[01][0-9abcdfghijklmnpqrsvwxyz]{51}(?![\w-])")
_LIBRARY_RE = lazyre.compile(
    r"(?m)^\s*(?P<field>Tags|SharedTags|Directory|GitFetch|Architectures|File|Builder|Constraints):[ \t]*"
    r"(?P<v>[\w.,/ -]{1,400}?)\s*$"
)
_LIBRARY_FIELDS = ("Tags", "SharedTags", "Directory", "GitFetch", "Architectures", "File", "Builder", "Constraints")
_GIT_REF_RE = lazyre.compile(r"(?<![\w/.-])refs/(?:heads|tags|remotes|pull|notes)/[\w./-]{1,200}(?![\w/-])")
_THUMBPRINT_URI_RE = lazyre.compile(
    r"\burn:ietf:params:oauth:jwk-thumbprint:sha-(?P<bits>256|384|512):(?P<v>[A-Za-z0-9_-]{43,86})(?![\w-])"
)
"""A JWK thumbprint URI (RFC 9278): the hash of a public key's members, base64url of the digest's length."""
_ENCODED_WORD_RE = lazyre.compile(
    r"(?i)(?<![\w-])(?:base(?:16|32|36|58|62|64)(?:url|hex)?|hex|utf-?(?:8|16)|ascii|pem|der)-(?:encoded|encoding|decoded)"
    r"(?![\w-])"
)
"""An encoding's name as a word (``base64url-encoded``, ``hex-encoded``): prose about a value, not one."""
_GEM_PLATFORM_RE = lazyre.compile(
    r"(?<![\w.-])\d{1,4}(?:\.\d{1,6}){1,4}(?:\.[a-z]{1,8}\d{0,3})?-(?:x86_64|x86|i686|aarch64|arm64|arm|universal|java|x64)"
    r"(?:-(?:linux|darwin|mingw|mswin|musl|gnu|ucrt|eabihf|gnueabihf|mingw32|mswin64|\d{1,3})){1,3}(?![\w.-])"
)
"""A gem's version with its platform (RubyGems' ``Gem::Platform``: cpu-os[-version]), as Gemfile.lock lists it."""
_GEM_CPUS = ("x86", "i686", "aarch64", "arm", "universal", "java", "x64")
_SCM_SCHEME_RE = lazyre.compile(
    r"\b(?:version|local)_scheme[\"']?\s*[:=]\s*[\"'](?P<v>[a-z][a-z0-9]*(?:-[a-z0-9]+){0,6})[\"']"
)
"""setuptools-scm's ``version_scheme``/``local_scheme`` setting: the name of a scheme (``release-branch-semver``)."""
_MEDIA_TYPE_RE = lazyre.compile(
    r"(?<![\w./-])(?:application|image|text|audio|video|font|model|multipart)/(?:vnd|prs|x)[.-][\w.+-]{1,120}(?![\w/-])"
)
"""A media type in the vendor, personal or ``x-`` tree (RFC 6838 §3: ``application/vnd.oci.image.manifest.v1+json``)."""
_YT_SHARE_RE = lazyre.compile(r"(?:youtube\.com|youtu\.be)/[\w/?=&.-]{1,80}?[?&]si=(?P<v>[A-Za-z0-9_-]{16})(?![\w-])")
"""YouTube's ``si`` parameter on a shared link: which share a view came from (16 base64url), no credential."""
_PEER_ID_RE = lazyre.compile(r"(?<![\w])12D3KooW[1-9A-HJ-NP-Za-km-z]{44}(?![\w])")
"""A libp2p peer id of an Ed25519 key: base58 of the identity multihash (``00 24``) of its protobuf PublicKey
(``08 01 12 20`` and the 32-byte public key), which is why every one starts ``12D3KooW``."""
_B3_HEADER_RE = lazyre.compile(r"(?i)(?<![\w-])x-b3-(?:traceid|spanid|parentspanid|sampled|flags)(?![\w-])")
_HOST_PORT_RE = lazyre.compile(r"(?<=://)[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?:\d{1,5}(?=/)")
"""A URL's host and port (``localhost:8080``): where a service listens, never a credential (that is ``user:pw@``)."""
_NIX_CACHE_KEY_RE = lazyre.compile(
    r"\b(?:trusted-|binary-cache-|extra-trusted-)?public-keys\s*=\s*(?P<v>(?:[\w.-]{1,100}-\d{1,4}:"
    r"[A-Za-z0-9+/]{43}=\s*)+)"
)
"""Nix's ``trusted-public-keys`` (``binary-cache-public-keys`` before 2.0): ``<cache name>-<n>:<base64 of an Ed25519
public key>``, the keys a store trusts, printed in its config."""
_NIX_ATTR_RE = lazyre.compile(
    r"(?<![\w.-])(?:\.#)?[A-Za-z][\w-]{0,40}(?:\.[A-Za-z][\w-]{0,40})*\.(?:x86_64|aarch64|i686|armv7l|riscv64)-"
    r"(?:linux|darwin)(?:\.[A-Za-z][\w-]{0,40})*(?![\w.-])"
)
"""A Nix flake output's attribute path through a system double (``devShells.x86_64-linux.default``)."""
_PIECE_RE = re.compile(r"[A-Za-z]{1,24}\d{0,4}|\d{1,8}[a-z]{0,3}|v\d{1,4}")
"""A piece of a name: a word (a digit or few after it: ``ltsc2025``), a number (``2025``, ``95``, ``3b``), ``v2``."""


def _named_ok(value: str) -> bool:
    """Whether every piece of ``value`` between ``/ . - _ , +`` and spaces is a word, a number or a version."""
    pieces = [p for p in re.split(r"[/._,+ -]+", value) if p]
    return bool(pieces) and all(_PIECE_RE.fullmatch(p) for p in pieces)


def _ulid_ok(value: str) -> bool:
    low, high = _ULID_TIME
    ms = 0
    for c in value[:10]:
        ms = ms * 32 + _CROCKFORD.index(c)
    return low <= ms < high


def _oci_ok(bits: str, value: str) -> bool:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return False
    return len(raw) == int(bits) // 8


def _spki_ok(value: str) -> bool:
    """Whether ``value`` is a whole SubjectPublicKeyInfo (its DER length is the bytes it holds), or the first line
    of one wrapped at PEM's 64 or MIME's 76 characters (shorter than its DER length)."""
    body = value.rstrip("=")
    try:
        raw = base64.b64decode(body[: len(body) - len(body) % 4])
    except (binascii.Error, ValueError):
        return False
    if len(raw) < 4 or raw[0] != 0x30:
        return False
    n = raw[1]
    size, head = (n, 2) if n < 0x80 else (int.from_bytes(raw[2 : 2 + (n & 0x7F)], "big"), 2 + (n & 0x7F))
    whole = len(base64.b64decode(body + "=" * (-len(body) % 4))) if len(body) % 4 != 1 else -1
    return whole == head + size or (len(value) in (64, 76) and len(raw) < head + size)


def _wheel_ok(path: str) -> bool:
    from .identifiers import _looks_secret

    return not any(_looks_secret(p) for p in re.split(r"[/._%~+-]", path) if p)


def _peer_id_ok(value: str) -> bool:
    from .checksums import b58decode

    raw = b58decode(value)
    return raw is not None and len(raw) == 38 and raw[:6] == b"\x00\x24\x08\x01\x12\x20"


def _names(text: str) -> Iterator[Span]:
    """Media types, B3 header names, a URL's host and port, Nix attribute paths."""
    if "/" in text:
        for m in _MEDIA_TYPE_RE.finditer(text):
            yield m.span()
    if "-b3-" in text.lower():
        for m in _B3_HEADER_RE.finditer(text):
            yield m.span()
    if "://" in text:
        for m in _HOST_PORT_RE.finditer(text):
            yield m.span()
    if "-linux" in text or "-darwin" in text:
        for m in _NIX_ATTR_RE.finditer(text):
            if _named_ok(m.group(0).removeprefix(".#").replace("x86_64", "x86")):
                yield m.span()


def _github(text: str) -> Iterator[Span]:
    if "#" in text:
        for m in _GH_ANCHOR_RE.finditer(text):
            yield m.span()
    if "badge.svg" in text:
        for m in _GH_BADGE_RE.finditer(text):
            yield m.span()
    if "noreply" in text:
        for m in _NOREPLY_RE.finditer(text):
            yield m.span()


def _encodings(text: str) -> Iterator[Span]:
    if "01" in text:
        for m in _ULID_RE.finditer(text):
            if _ulid_ok(m.group(0)):
                yield m.span()
    if any(run in text for run in _ALPHABET_RUNS):
        for m in _ALPHABET_RE.finditer(text):
            if m.group(0) in _ALPHABETS:
                yield m.span()
    if "+b64u:" in text:
        for m in _OCI_DIGEST_RE.finditer(text):
            if _oci_ok(m.group("bits"), m.group("v")):
                yield m.span()
    if any(run in text for run in _SPKI_RUNS):
        for m in _SPKI_RE.finditer(text):
            if _spki_ok(m.group(0)):
                yield m.span()
    for m in _NIX32_RE.finditer(text):
        yield m.span()
    if "12D3KooW" in text:
        for m in _PEER_ID_RE.finditer(text):
            if _peer_id_ok(m.group(0)):
                yield m.span()
    if "si=" in text:
        for m in _YT_SHARE_RE.finditer(text):
            yield m.span("v")
    if "public-keys" in text:
        for m in _NIX_CACHE_KEY_RE.finditer(text):
            yield m.span("v")
    if "jwk-thumbprint" in text:
        for m in _THUMBPRINT_URI_RE.finditer(text):
            if _oci_ok(m.group("bits"), m.group("v")):
                yield m.span()
    if "code" in text:
        for m in _ENCODED_WORD_RE.finditer(text):
            yield m.span()
    if any(cpu in text for cpu in _GEM_CPUS):
        for m in _GEM_PLATFORM_RE.finditer(text):
            yield m.span()


def _files(text: str) -> Iterator[Span]:
    if "id_" in text:
        for m in _SSH_FILE_RE.finditer(text):
            yield m.span()
    if ".whl" in text:
        for m in _WHEEL_URL_RE.finditer(text):
            if _wheel_ok(m.group("path") or ""):
                yield m.span()
    if "scheme" in text:
        for m in _SCM_SCHEME_RE.finditer(text):
            if _named_ok(m.group("v")):
                yield m.span("v")
    if "refs/" in text:
        for m in _GIT_REF_RE.finditer(text):
            if _named_ok(m.group(0)):
                yield m.span()


def _secret_word_before(text: str, start: int) -> bool:
    """Whether a word naming a secret (``key``, ``token`` ...; not ``public key``) stands before ``start`` on its line."""
    from .context import WINDOW, named_by_secret_word

    return named_by_secret_word(text[max(text.rfind("\n", 0, start) + 1, start - WINDOW) : start])


def _library(text: str) -> Iterator[Span]:
    if not any(f"{field}:" in text for field in _LIBRARY_FIELDS):
        return
    for m in _LIBRARY_RE.finditer(text):
        if _named_ok(m.group("v")):
            yield m.span("v")


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every value of the kinds above in ``text``, in no particular order; none under a
    credential's label."""
    for start, end in (*_github(text), *_files(text), *_names(text)):
        if not labelled(text, start, tail_only=True):
            yield start, end
    for start, end in _encodings(text):
        if not labelled(text, start, tail_only=True) and not _secret_word_before(text, start):
            yield start, end
    if ":" in text:
        for start, end in _library(text):
            if not labelled(text, start):
                yield start, end
