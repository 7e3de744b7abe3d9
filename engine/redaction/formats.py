"""More public formats people keep in notes: spans redaction leaves alone (docs/architecture.md §3).

:func:`spans` adds to :func:`.identifiers.spans` (issue 32, round 7), and
:func:`.idshapes.spans` (round 8) to it. As
there, each format is recognised by positive knowledge: a checksum where the
format has one (:mod:`.checksums`), its documented structure, or the header
or label it is printed under, never by its look alone; a secret beside one is
still redacted (only the identifier's own characters are public).

- checksummed: Tor v3 onion addresses (SHA3-256 checksum, version 3), UPS
  ``1Z`` tracking numbers, LEIs (ISO 17442; after ``LEI`` or "legal entity
  identifier"), Salesforce 18-character record
  ids (case suffix), Nostr ``npub``/``note`` (bech32, 32 bytes);
- decoded structure: GitHub's node ids, legacy (base64 of ``04:User1``) and
  current (``PR_`` and base64url of a MessagePack array of ids), Exchange
  item ids (``00 03 24 00`` and the mailbox GUID in ASCII), ``did:key`` of a
  public-key multicodec, ``did:plc`` (24 base32);
- documented shapes: advisory ids (CVE, GHSA, RUSTSEC ...), arXiv's old
  identifiers (``astro-ph/9612101``), Apple device UDIDs (``00008110-00…``),
  Notion page links (the page id last), Twilio SIDs (two letters naming the
  resource, 32 lower-case hex; never ``SK``, an API key's SID that scanners
  treat as a credential), Nix hashes (``sha256:`` and 52 characters of Nix's
  base32), file names with a bundler's content hash (``index-Pf9mBk7D.js``,
  ``main.3f2a9c1b.css``);
- by the label or header they are printed under: X.509 subject and authority
  key identifiers (and OpenSSL's ``keyid:``), DNS site-verification tokens
  (published in public DNS), e-mail ``Message-ID``/``In-Reply-To``/``References``,
  ``cf-ray`` and ``x-amz-id-2``/``x-amz-cf-id`` request ids, a ``uid`` (a user
  id, never a password), a Figma file key, a Matrix event id (``$`` + 43) on a
  line naming Matrix or a room, a Solana address (32 bytes) on a line about
  Solana or beside ``SOL``.

A value labelled by a secret word (``secret``, ``password``, ``private``,
``token`` ...) just before it is never kept by the label rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import checksums, idshapes, lazyre
from .base64text import decode_base64

Span = tuple[int, int]

_ONION_RE = lazyre.compile(r"(?<![\w.-])(?P<l>[a-z2-7]{56})\.onion(?![\w-])")
_UPS_RE = lazyre.compile(r"(?<![\w-])1Z[A-Z0-9]{6}\d{10}(?![\w-])")
"""``1Z``, the shipper (6), the service (2 digits), the package (7 digits) and the check digit."""
_LEI_RE = lazyre.compile(r"(?<![\w-])[A-Z0-9]{18}\d{2}(?![\w-])")
_LEI_WORD_RE = lazyre.compile(r"\bLEI\b|(?i:\blegal entity identifier)")
_SFDC_RE = lazyre.compile(r"(?<![\w-])[A-Za-z0-9]{15}[A-Z0-5]{3}(?![\w-])")
_NOSTR_RE = lazyre.compile(r"(?<![\w])(?P<hrp>npub|note)1[02-9ac-hj-np-z]{58}(?![\w])")
_GH_LEGACY_RE = lazyre.compile(r"(?<![\w+/])MD[A-Za-z0-9+/]{6,120}={0,2}(?![\w+/=])")
_GH_LEGACY_BODY_RE = lazyre.compile(r"0(?P<n>\d{1,2}):(?P<type>[A-Z][A-Za-z]+)\d+(?::[0-9a-f]{40})?")
"""A legacy node id's body: ``04:User1``, a commit's ``06:Commit<repository id>:<sha>`` (round 17, pubformats)."""
_GH_NODE_RE = lazyre.compile(r"(?<![\w-])[A-Z]{1,5}_(?P<v>k[g-z]D[N-P][A-Za-z0-9_-]{2,40})(?![\w-])")
"""GitHub's node ids since 2021: a type prefix (``R_``, ``PR_``, ``I_`` ...) and base64url of a MessagePack array of ids."""
_EWS_RE = lazyre.compile(r"(?<![\w+/=-])AA[MQ]k[A-Za-z0-9+/_-]{40,400}={0,2}(?![\w+/=-])")
_GUID_ASCII_RE = re.compile(rb"[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}")
_DID_PLC_RE = lazyre.compile(r"(?<![\w])did:plc:[a-z2-7]{24}(?![\w])")
_DID_KEY_RE = lazyre.compile(r"(?<![\w])did:key:z(?P<v>[1-9A-HJ-NP-Za-km-z]{40,400})(?![\w])")
_PUBLIC_MULTICODECS = {
    b"\xed\x01": (32,),  # ed25519-pub
    b"\xec\x01": (32,),  # x25519-pub
    b"\xe7\x01": (33,),  # secp256k1-pub (compressed)
    b"\x80\x24": (33,),  # p256-pub (compressed)
    b"\x81\x24": (49,),  # p384-pub (compressed)
    b"\xeb\x01": (96,),  # bls12_381-g2-pub
}
"""Multicodec varint prefixes of public keys and their key lengths (the multicodec table); no ``-priv`` code."""
_TWILIO_RE = lazyre.compile(
    r"(?<![\w-])(?:AC|SM|MM|CA|MG|PN|RE|CF|QU|AP|VA|IS|CH|WS|WW|WK|WT|FW|ZS|ZH)[0-9a-f]{32}(?![\w-])"
)
_NIX_RE = lazyre.compile(
    r"(?<![\w-])(?P<algo>md5|sha1|sha256|sha512)(?::|\s*=\s*\"|\s+\")(?P<v>[0-9a-df-np-sv-z]{26,103})(?![\w])"
)
_NIX_LEN = {"md5": 26, "sha1": 32, "sha256": 52, "sha512": 103}
_ARXIV_RE = lazyre.compile(
    r"(?<![\w./-])(?:astro-ph|cond-mat|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math-ph|nlin|nucl-ex|nucl-th|physics|"
    r"quant-ph|math|cs|q-bio|q-fin|stat|econ|eess|chao-dyn|solv-int|patt-sol|adap-org|cmp-lg|comp-gas|alg-geom|"
    r"dg-ga|funct-an|q-alg|chem-ph|supr-con|atom-ph|acc-phys|ao-sci|bayes-an|plasm-ph|mtrl-th)"
    r"(?:\.[A-Z]{2})?/\d\d(?:0[1-9]|1[0-2])\d{3}(?:v\d+)?(?![\w/-])"
)
"""An arXiv identifier of before 2007: its archive (arXiv's list), an optional subject class, YYMMNNN."""
_ADVISORY_RE = lazyre.compile(
    r"(?<![\w-])(?:(?:CVE|RUSTSEC|PYSEC|GO|OSV|GSD|MAL|DLA|DSA|USN)-\d{4}-\d{1,7}|GHSA(?:-[23456789cfghjmpqrvwx]{4}){3})"
    r"(?![\w-])"
)
"""A security advisory's id: CVE, the OSV databases' prefixes (RUSTSEC, PYSEC, GO ...) and GHSA's alphabet."""
_UDID_RE = lazyre.compile(r"(?<![\w-])0000[0-9]{4}-00[0-9A-F]{14}(?![\w-])")
"""An Apple device UDID since the A12 chip: ``0000`` and the chip id (``8030``), ``-``, the 16-hex ECID."""
_NOTION_RE = lazyre.compile(
    r"(?<![\w.-])(?:https?://)?(?:www\.)?(?:[\w-]+\.)?notion\.(?:so|site)/(?:[\w.-]+/)*(?:[\w-]*-)?[0-9a-f]{32}"
    r"(?![\w-])"
)
"""A Notion page link: the page's id (32 hex) at the end of its path (Notion's access is by account, not link)."""
_ASSET_RE = lazyre.compile(
    r"(?<![\w/.~-])(?:[\w.~-]+/)*(?P<name>[\w.-]+?)[.-](?P<h>[A-Za-z0-9_-]{8}|[0-9a-f]{8,32})"
    r"\.(?:m?js|cjs|css|map|woff2?|ttf|eot|svg|png|jpe?g|gif|webp|avif|wasm|ico)(?:\.map)?(?![\w.])"
)
_ASSET_EXT_RE = lazyre.compile(r"\.(?:m?js|cjs|css|map|woff2?|ttf|eot|svg|png|jpe?g|gif|webp|avif|wasm|ico)(?![\w])")
_SKI_RE = lazyre.compile(
    r"(?i)(?:\b(?:subject|authority) key identifier\b:?[ \t]*\n?[ \t]*(?P<v>(?:keyid:)?(?:[0-9A-F]{2}:){7,63}[0-9A-F]{2})"
    r"|(?<![\w-])(?P<k>keyid:(?:[0-9A-F]{2}:){7,63}[0-9A-F]{2}))(?![\w:])"
)
"""X.509 key identifiers: after their extension's name, or after ``keyid:`` (how OpenSSL prints the authority's)."""
_VERIFY_RE = lazyre.compile(
    r"(?i)(?<![\w-])(?:[a-z0-9]+-)*(?:site|domain)-verification[=:]\s*[\"']?(?P<v>[A-Za-z0-9_+/=-]{8,128})"
)
_MSGID_HEADER_RE = lazyre.compile(r"(?im)^[ \t]*(?:message-id|in-reply-to|references|x-message-id)[ \t]*:(?P<rest>.*)$")
_MSGID_RE = lazyre.compile(r"<[\w=+.$%!#&*~-]{1,250}@[A-Za-z0-9.-]{1,250}>")
"""A Message-ID (RFC 5322 ``msg-id``): no ``:`` or ``/`` in its left part, so never a URL's ``user:pass@``."""
_GMAIL_MSGID_RE = lazyre.compile(r"<[\w=+.$%!#&*~-]{1,250}@mail\.gmail\.com>")
_HEADER_ID_RE = lazyre.compile(
    r"(?i)\b(?:cf-ray[\"']?\s*[:=]\s*[\"']?(?P<ray>[0-9a-f]{16}(?:-[A-Z]{3})?)"
    r"|x-amz-(?:id-2|cf-id)[\"']?\s*[:=]\s*[\"']?(?P<amz>[A-Za-z0-9+/_=-]{20,200}))(?![\w+/=-])"
)
_UID_RE = lazyre.compile(
    r"(?i)(?<![\w-])(?:user[ _-]?)?uid\b[\"']?[ \t]*(?:[:=][ \t]*)?[\"']?(?P<v>[A-Za-z0-9]{20,40})(?![\w-])"
)
"""A user id after ``uid``: letters and digits alone (a vendor token's ``_``/``-`` prefix is never one)."""
_FIGMA_KEY_RE = lazyre.compile(r"(?i)\bfile[ _-]?key\b[\"']?\s*(?:[:=]\s*)?[\"']?(?P<v>[A-Za-z0-9]{22,128})(?![\w])")
_MATRIX_EVENT_RE = lazyre.compile(r"(?<![\w$])\$(?P<v>[A-Za-z0-9+/_-]{43})(?![\w+/-])")
_MATRIX_WORD_RE = lazyre.compile(r"(?i)matrix|synapse|![A-Za-z]{10,}:[\w.-]+")
_SOLANA_RE = lazyre.compile(r"(?<![\w])[1-9A-HJ-NP-Za-km-z]{32,44}(?![\w])")
_SOLANA_WORD_RE = lazyre.compile(r"(?i:solana|solscan|phantom|\bspl\b)|\bSOL\b")
_SECRET_WORD_RE = lazyre.compile(r"(?i)secret|passw|private|hmac|bearer|token|seed|mnemonic|api[ _-]?key")


def _line_before(text: str, start: int, width: int = 48) -> str:
    """The text before ``start`` on its line, at most ``width`` characters."""
    return text[max(text.rfind("\n", 0, start) + 1, start - width) : start]


def _line(text: str, start: int) -> str:
    """The whole line holding ``start``."""
    a = text.rfind("\n", 0, start) + 1
    b = text.find("\n", start)
    return text[a : b if b >= 0 else len(text)]


_UINT_LENGTHS = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8}


def _msgpack_ids(raw: bytes | None) -> bool:
    """Whether ``raw`` is exactly a MessagePack fixarray of 2 to 15 unsigned integers (a GitHub node id's body)."""
    if not raw or not 0x92 <= raw[0] <= 0x9F:
        return False
    at = 1
    for _ in range(raw[0] & 0x0F):
        if at >= len(raw):
            return False
        head = raw[at]
        at += 1 + (0 if head <= 0x7F else _UINT_LENGTHS.get(head, len(raw)))
    return at == len(raw)


def _checksummed(text: str) -> Iterator[Span]:
    if ".onion" in text:
        for m in _ONION_RE.finditer(text):
            if checksums.onion_v3_ok(m.group("l")):
                yield m.span()
    if "1Z" in text:
        for m in _UPS_RE.finditer(text):
            if checksums.ups_ok(m.group(0)):
                yield m.span()
    for m in _LEI_RE.finditer(text):
        v = m.group(0)
        if checksums.lei_ok(v) and (v[4:6] == "00" or _LEI_WORD_RE.search(_line(text, m.start()))):
            yield m.span()
    for m in _SFDC_RE.finditer(text):
        if checksums.salesforce_ok(m.group(0)) and not _SECRET_WORD_RE.search(_line_before(text, m.start())):
            yield m.span()
    if "npub1" in text or "note1" in text:
        for m in _NOSTR_RE.finditer(text):
            raw = checksums.bech32_data(m.group(0), m.group("hrp"))
            if raw is not None and len(raw) == 32:
                yield m.span()


def _decoded(text: str) -> Iterator[Span]:
    if "_k" in text:
        for m in _GH_NODE_RE.finditer(text):
            if _msgpack_ids(decode_base64(m.group("v"), "either")):
                yield m.span()
    if "MD" in text:
        for m in _GH_LEGACY_RE.finditer(text):
            raw = decode_base64(m.group(0), "either")
            body = _GH_LEGACY_BODY_RE.fullmatch(raw.decode("ascii", "replace")) if raw else None
            if body and int(body.group("n")) == len(body.group("type")):
                yield m.span()
    if "AAMk" in text or "AAQk" in text:
        for m in _EWS_RE.finditer(text):
            raw = decode_base64(m.group(0), "either")
            if raw is not None and raw[2:4] == b"\x24\x00" and _GUID_ASCII_RE.fullmatch(raw[4:40]):
                yield m.span()
    if "did:" in text:
        for m in _DID_PLC_RE.finditer(text):
            yield m.span()
        for m in _DID_KEY_RE.finditer(text):
            raw = checksums.b58decode(m.group("v"))
            if raw is not None and len(raw) - 2 in _PUBLIC_MULTICODECS.get(raw[:2], ()):
                yield m.span()


def _shapes(text: str) -> Iterator[Span]:
    for m in _TWILIO_RE.finditer(text):
        yield m.span()
    if "md5" in text or "sha" in text:
        for m in _NIX_RE.finditer(text):
            if _NIX_LEN[m.group("algo")] == len(m.group("v")):
                yield m.start("v"), m.end("v")
    if "/" in text:
        for regex in (_ARXIV_RE, _NOTION_RE):
            for m in regex.finditer(text):
                yield m.span()
    if "-" in text:
        for m in _ADVISORY_RE.finditer(text):
            yield m.span()
    if "0000" in text:
        for m in _UDID_RE.finditer(text):
            yield m.span()
    if "." in text and _ASSET_EXT_RE.search(text):
        for m in _ASSET_RE.finditer(text):
            if not _SECRET_WORD_RE.search(m.group("name")):
                yield m.span()


def _labelled(text: str) -> Iterator[Span]:
    lower = text.lower()
    if "key identifier" in lower or "keyid:" in lower:
        for m in _SKI_RE.finditer(text):
            group = "v" if m.group("v") else "k"
            yield m.start(group), m.end(group)
    if "-verification" in lower:
        for m in _VERIFY_RE.finditer(text):
            yield m.start("v"), m.end("v")
    if "@" in text:
        for header in _MSGID_HEADER_RE.finditer(text):
            for m in _MSGID_RE.finditer(header.group("rest")):
                yield header.start("rest") + m.start(), header.start("rest") + m.end()
        for m in _GMAIL_MSGID_RE.finditer(text):
            yield m.span()
    if "cf-ray" in lower or "x-amz-" in lower:
        for m in _HEADER_ID_RE.finditer(text):
            group = "ray" if m.group("ray") else "amz"
            yield m.start(group), m.end(group)
    if "uid" in lower:
        for m in _UID_RE.finditer(text):
            if not _SECRET_WORD_RE.search(_line_before(text, m.start())):
                yield m.start("v"), m.end("v")
    if "figma" in lower:
        for m in _FIGMA_KEY_RE.finditer(text):
            if "figma" in _line(text, m.start()).lower():
                yield m.start("v"), m.end("v")
    if "$" in text and _MATRIX_WORD_RE.search(text):
        for m in _MATRIX_EVENT_RE.finditer(text):
            line = _line(text, m.start())
            if _MATRIX_WORD_RE.search(line) and not _SECRET_WORD_RE.search(line):
                yield m.span()
    if _SOLANA_WORD_RE.search(text):
        for m in _SOLANA_RE.finditer(text):
            line = _line(text, m.start())
            raw = checksums.b58decode(m.group(0))
            if raw is not None and len(raw) == 32 and _SOLANA_WORD_RE.search(line) and not _SECRET_WORD_RE.search(line):
                yield m.span()


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every public value in ``text`` that :mod:`.formats` knows, in no particular order."""
    yield from _checksummed(text)
    yield from _decoded(text)
    yield from _shapes(text)
    yield from _labelled(text)
    yield from idshapes.spans(text)
