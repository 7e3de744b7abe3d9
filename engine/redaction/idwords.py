"""Identifiers as people quote them in prose and tool output: spans redaction leaves alone (docs/architecture.md §3).

:func:`spans` adds to :func:`.idshapes.spans` (issue 32, round 10). The
sets before it held identifiers in the shapes their docs give; ``prose-ids``
holds them as issue threads quote them, inside a sentence or a tool's
message ("expected <sha256> but computed <sha256>", ``NO_PUBKEY <key id>``).
Each value is kept by positive knowledge of what names it, never by its look:

- a checksum: a hex run of a digest's length (MD5 32, SHA-1 40, SHA-256 64,
  SHA-512 128; one case) right after a word naming a checksum (``checksum``,
  ``sha256``, ``digest``, ``oid`` ...), or after ``expected``/``got``/``actual``/
  ``computed``/``downloaded`` when the line compares two such runs of one length
  or names a checksum;
- an id named by its word: a UUID, 16-32 hex or 5-20 digits right after
  ``request id``, ``trace id``, ``correlation id``, ``lock id``, ``run id`` ...
  or ``terraform force-unlock`` (Terraform's docs: the command takes the lock id), and after ``Idempotency-Key``
  (Stripe's and the IETF draft's header: a unique value the client makes up per request, no credential);
- a pagination cursor after ``nextPageToken``, ``page_token``, ``continuation_token`` or ``next_cursor``;
- OpenPGP (RFC 4880 §12.2: a v4 fingerprint is 40 hex, a key id its last 16):
  a key id or fingerprint after what GnuPG and apt print before one
  (``NO_PUBKEY``, ``using RSA key``, ``EDDSA key``, ``public key for``, ``subkey``,
  ``primary key``, ``gpg: key``), a fingerprint whose last 16 hex stand beside it
  on its line as the key id, and the user id of ``gpg: key <id>: public key "<uid>" imported``;
- a release artifact's file name (a package format's extension: ``.exe``, ``.whl``, ``.tar.gz`` ...), and an
  object key laid out as ``<collection>/<uuid>/<collection>/<name>`` outside a URL (an S3 key), its
  collections no secret word;
- OpenSSH's ``Offending <type> key in <file>:<line>`` and ``Add correct host key in <file>``: a path;
- documented structures: an AWS STS ``assumed-role/<role>/<session>`` (IAM
  identifiers: a role name and a session name of ``[\\w+=,.@-]``), Vercel's deployment and project ids
  (``dpl_``, ``prj_``: ids in its REST API, never its tokens), a Microsoft
  Entra error code (``AADSTS`` and digits), git-lfs's ``downloading <path>
  (<oid>)`` (a SHA-256 object id or its 7-hex abbreviation), and ``kubectl
  describe``'s ``Node: <node name>/<IPv4>`` and ``Controlled By: <Kind>/<name>``
  (DNS-1123 names).

A value with a word naming a secret (``key``, ``token``, ``password`` ...)
between the naming word and the value is not matched: the naming word must
stand right before it (separators only). A checksum or a file name with a word
naming a secret before it on its line (``the password hash <hex>``, ``the webhook
secret expected <hex>``) is not kept either; a file's extension (``x.pat``) names none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre
from .context import SECRET_WORDS, WINDOW, named_by_secret_word

Span = tuple[int, int]

_DIGEST = r"(?:[0-9a-f]{128}|[0-9a-f]{64}|[0-9a-f]{40}|[0-9a-f]{32}|[0-9A-F]{64}|[0-9A-F]{40}|[0-9A-F]{32})"
_END = r"(?![0-9A-Za-z_+/=-])"
_CHECKSUM_WORD_RE = lazyre.compile(
    r"(?i)(?<![\w-])(?:checksum|sha-?(?:1|224|256|384|512)(?:sum)?|md5(?:sum)?|digest|hash|oid|integrity)"
    r"[\s:=('\"]{1,4}(?:sha-?(?:1|256|512)[:=])?(?P<v>" + _DIGEST + ")" + _END
)
"""A digest right after a word naming one (``sha256sum=<hex>``, ``checksum: <hex>``, ``"oid":"<hex>"``)."""
_COMPARED_RE = lazyre.compile(
    r"(?i)(?<![\w-])(?P<w>expected|got|actual|computed|downloaded|wanted|found)[\s:=('\"]{1,4}(?P<v>"
    + _DIGEST
    + ")"
    + _END
)
_EXTENSION_RE = lazyre.compile(r"(?<=\w)\.[A-Za-z0-9]{1,5}\b")
_CHECKSUM_WORDS = ("checksum", "sha", "md5", "digest", "hash", "oid", "integrity")
_COMPARED_WORDS = ("expected", "got", "actual", "computed", "downloaded", "wanted", "found")
_EXPECT_SIDE = frozenset({"expected", "wanted"})
_LINE_CHECKSUM_RE = lazyre.compile(r"(?i)checksum|\bhash|\bsha-?\d|\bmd5|digest|integrity|mismatch|\bsum\b")

_UUID = r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}"
_NAMED_ID_RE = lazyre.compile(
    r"(?i)(?<![\w-])(?:(?:request|trace|span|correlation|tracking|activity|operation|lock|run|job|build|event|"
    r"incident|distinct|transaction|execution|deployment)[ _-]?ids?|force-unlock|idempotency[ _-]?keys?)"
    r"[\s:=#('\"]{1,4}(?P<v>" + _UUID + r"|[0-9a-fA-F]{16,32}|\d{5,20})(?![0-9A-Za-z_+/=-])"
)

_PAGE_TOKEN_RE = lazyre.compile(
    r"(?i)(?<![\w-])(?:(?:next|prev(?:ious)?)?[_-]?page[_-]?token|continuation[_-]?token|(?:next|page)[_-]?cursor)"
    r"[\"']?[ \t]*[:=][ \t]*[\"']?(?![A-Za-z]{2,12}_)(?P<v>[A-Za-z0-9_+/=-]{8,512})(?![\w+/=-])"
)
"""A pagination cursor (``nextPageToken``, Google APIs' page tokens; ``continuation_token``): an opaque position in a
list, no credential (round 26, breaker26); a vendor's ``prefix_`` token there is still one."""

_PGP_NAMED_RE = lazyre.compile(
    r"(?i)(?<![\w-])(?:NO_PUBKEY|(?:RSA|DSA|EDDSA|ECDSA|ECC|ELG|ed25519|cv25519)\s+key|public\s+key(?:\s+for)?|"
    r"subkey|primary\s+key|gpg:\s+key|key\s+ID)\s+(?:0x)?(?P<v>[0-9A-F]{40}|[0-9A-F]{16}|[0-9a-f]{40}|"
    r"[0-9a-f]{16})(?![0-9A-Za-z])"
)
_FPR_RE = lazyre.compile(r"(?<![0-9A-Za-z])(?P<v>[0-9A-F]{40}|[0-9a-f]{40})(?![0-9A-Za-z])")
_GPG_IMPORT_RE = lazyre.compile(
    r"gpg: key (?P<id>[0-9A-F]{16}): (?:public key )?\"(?P<uid>[^\"\n]{1,200})\" (?:imported|not changed)"
)

_SSH_FILE_RE = lazyre.compile(
    r"(?:Offending\s+[A-Z0-9-]+\s+key|Add\s+correct\s+host\s+key)\s+in\s+(?P<v>[^\s:]*[/\\][^\s:]+(?::\d+)?)"
)
_ASSUMED_ROLE_RE = lazyre.compile(r"(?<![\w-])assumed-role/[\w+=,.@-]{1,64}/[\w+=,.@-]{2,64}(?![\w+=,.@/-])")
_VERCEL_ID_RE = lazyre.compile(r"(?<![\w-])(?:dpl|prj)_[A-Za-z0-9]{20,40}(?![\w-])")
"""Vercel's deployment and project ids (its REST API: ``dpl_`` and ``prj_`` and base62), not its tokens."""
_AADSTS_RE = lazyre.compile(r"(?<![\w-])AADSTS\d{4,6}(?![\w-])")
_LFS_RE = lazyre.compile(r"(?i)\bdownloading\s+(?:object:\s+)?\S+\s+\((?P<v>[0-9a-f]{64}|[0-9a-f]{7})\)(?=[:\s]|$)")
_ARTIFACT_RE = lazyre.compile(
    r"(?<![\w./+-])[A-Za-z0-9][\w.+-]{0,120}\.(?:exe|msi|dmg|pkg|deb|rpm|apk|whl|jar|war|iso|nupkg|AppImage|"
    r"tar\.(?:gz|xz|bz2|zst)|tgz|zip)(?![\w.-])"
)
"""A release artifact's file name: a name and a package format's extension."""
_ARTIFACT_EXTS = tuple(
    f".{e}"
    for e in [
        "exe",
        "msi",
        "dmg",
        "pkg",
        "deb",
        "rpm",
        "apk",
        "whl",
        "jar",
        "war",
        "iso",
        "nupkg",
        "appimage",
        "tar",
        "tgz",
        "zip",
    ]
)
_OBJECT_PATH_RE = lazyre.compile(
    r"(?<![\w./:@-])(?P<v>[a-z][a-z0-9_-]{2,40}/" + _UUID + r"/[a-z][a-z0-9_-]{2,40}/[^\s\"'/]{1,200})"
)
"""An object key laid out as ``<collection>/<uuid>/<collection>/<name>`` (an S3 key, a REST path), not in a URL."""
_PATH_SECRET_WORDS = SECRET_WORDS | {"webhook", "webhooks", "hooks", "credential", "apikeys", "oauth"}
_NAME_PART_RE = lazyre.compile(r"[_.-][A-Za-z]{4,}|\.[A-Za-z0-9]{2,5}$")
_VENDOR_PREFIX_RE = lazyre.compile(r"[A-Za-z]{2,10}[_-]")
_DNS1123 = r"[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?"
_KUBECTL_RE = lazyre.compile(
    r"(?m)^\s*(?:Node:\s+(?P<node>" + _DNS1123 + r"/\d{1,3}(?:\.\d{1,3}){3})|Controlled By:\s+"
    r"(?P<owner>[A-Z][A-Za-z]{2,40}/[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?))(?![\w./-])"
)


def _secret_before(text: str, start: int) -> bool:
    """Whether a word naming a secret stands before ``start`` on its line (a file's extension, ``x.pat``, is none)."""
    line_start = text.rfind("\n", 0, start) + 1
    return named_by_secret_word(_EXTENSION_RE.sub(" ", text[max(line_start, start - WINDOW) : start]))


def _line(text: str, start: int) -> str:
    a = text.rfind("\n", 0, start) + 1
    b = text.find("\n", start)
    return text[a : b if b >= 0 else len(text)]


def _checksums(text: str, low: str) -> Iterator[Span]:
    if any(w in low for w in _CHECKSUM_WORDS):
        for m in _CHECKSUM_WORD_RE.finditer(text):
            if not _secret_before(text, m.start()):
                yield m.span("v")  # not "the password hash <hex>"
    if not any(w in low for w in _COMPARED_WORDS):
        return
    compared = list(_COMPARED_RE.finditer(text))
    for m in compared:
        line_at = text.rfind("\n", 0, m.start()) + 1
        side = m.group("w").lower() in _EXPECT_SIDE
        peers = [
            p
            for p in compared
            if p is not m
            and text.rfind("\n", 0, p.start()) + 1 == line_at
            and (p.group("w").lower() in _EXPECT_SIDE) != side
            and len(p.group("v")) == len(m.group("v"))
        ]
        if _secret_before(text, m.start()):
            continue  # "the webhook secret expected <hex>": the words name a secret, not a file
        if peers or _LINE_CHECKSUM_RE.search(_line(text, m.start())):
            yield m.span("v")  # "expected <digest> ... got <digest>" of one length, or a line about checksums


def _openpgp(text: str, low: str) -> Iterator[Span]:
    if "key" in low:
        for m in _PGP_NAMED_RE.finditer(text):
            yield m.span("v")
    for m in _FPR_RE.finditer(text):
        key_id = m.group("v")[-16:]
        line = _line(text, m.start())
        if re.search(r"(?<![0-9A-Za-z])" + key_id + r"(?![0-9A-Za-z])", line.replace(m.group("v"), "")):
            yield m.span("v")
    if "gpg: key" in text:
        for m in _GPG_IMPORT_RE.finditer(text):
            yield m.span("id")
            yield m.span("uid")


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every identifier in ``text`` that a word or a tool's message before it names."""
    low = text.lower()
    yield from _checksums(text, low)
    if "id" in low or "force-unlock" in low:
        for m in _NAMED_ID_RE.finditer(text):
            yield m.span("v")
    yield from _openpgp(text, low)
    if "token" in low or "cursor" in low:
        for m in _PAGE_TOKEN_RE.finditer(text):
            yield m.span("v")
    if " key in " in text:
        for m in _SSH_FILE_RE.finditer(text):
            yield m.span("v")
    if "assumed-role/" in text:
        for m in _ASSUMED_ROLE_RE.finditer(text):
            yield m.span()
    if "dpl_" in text or "prj_" in text:
        for m in _VERCEL_ID_RE.finditer(text):
            yield m.span()
    if "AADSTS" in text:
        for m in _AADSTS_RE.finditer(text):
            yield m.span()
    if "downloading" in low:
        for m in _LFS_RE.finditer(text):
            yield m.span("v")
    if any(e in low for e in _ARTIFACT_EXTS):
        for m in _ARTIFACT_RE.finditer(text):
            if not _secret_before(text, m.start()):
                yield m.span()
    if "/" in text and "-" in text:
        for m in _OBJECT_PATH_RE.finditer(text):
            parts = m.group("v").split("/")
            words = set(re.split(r"[_-]", parts[0] + "_" + parts[2]))
            name = parts[3]
            if words & _PATH_SECRET_WORDS or _VENDOR_PREFIX_RE.match(name) or not _NAME_PART_RE.search(name):
                continue  # a secret word names a collection, or the last part reads as a vendor's key, not a name
            yield m.span("v")
    if "Node:" in text or "Controlled By:" in text:
        for m in _KUBECTL_RE.finditer(text):
            yield m.span("node") if m.group("node") else m.span("owner")
