"""Public formats that look like secrets: spans redaction leaves alone (docs/architecture.md §3).

A finding that lies wholly inside one of these spans is a false alarm. Each
format is recognised by its documented structure, not by its look, so a secret
dressed as one of them is still redacted:

- an image reference pinned by digest: ``name[:tag]@sha256:<64 hex>`` (the name
  is kept too), or a bare ``sha256:<64 hex>`` digest;
- an SSH public key: ``ssh-ed25519|ssh-rsa|ecdsa-sha2-*|sk-* <base64>`` whose
  base64 decodes to the SSH wire format naming the same algorithm (RFC 4253 §6.6);
- a PEM ``PUBLIC KEY``/``RSA PUBLIC KEY``/``CERTIFICATE`` block whose body decodes
  to DER (a ``SEQUENCE``);
- Subresource Integrity and npm ``integrity``: ``sha256|384|512-<base64>`` decoding
  to exactly 32, 48 or 64 bytes; pip's ``--hash=sha256:<64 hex>``; go.sum's
  ``h1:<base64 of 32 bytes>``;
- publishable keys meant for browsers: Stripe ``pk_live_``/``pk_test_`` (a base62 body with a lower-case
  letter: Courier's secret ``pk_test_`` keys are 28 upper-case letters and digits), Mapbox
  ``pk.<base64url JSON with "u">.<id>``;
- a base64 ``data:`` URL of an image or font whose bytes start with that
  format's magic number;
- a git object id (40 or 64 hex, or 7+ hex abbreviated) after a word that names
  one (``commit``, ``revert``, ``tree``, ``parent``, ``cherry-pick``, ``@`` of an
  action pin, ``..`` of a range), not the first group of a UUID (``…@f784fbed-7fc7-…``
  in a Teams webhook is its tenant id, not a commit);
- a UUID, unless the words before it name a secret or a vendor (Heroku API keys
  are UUIDs: :mod:`.context`) or it sits in a URL (a webhook's id is its secret) or a password's place (:func:`.slots.credential_slot`);
- a GPG fingerprint (40 hex, grouped by four or after ``--recv-keys``), an age
  recipient (``age1`` bech32), a WireGuard ``PublicKey =``, an Ethereum address;
- an object id by a prefix its vendor documents as an id: Stripe ``price_``,
  ``prod_``, ``cus_``, ``pi_`` ..., OpenAI ``asst_``, ``thread_``, ``file-`` ...,
  Anthropic ``msg_``, ``toolu_``;
- the public identifiers of :mod:`.identifiers` (Bitcoin addresses, IPFS CIDs,
  IBANs and other checksummed ids, fingerprints, media ids, model names ...);
- keys their vendors document as public (:mod:`.publishable`: PostHog ``phc_``,
  Supabase ``sb_publishable_``, Flutterwave ``FLWPUBK-`` ...);
- values in a project's own notes (:mod:`.notevalues`: file names, CUIDs, ``package.TypeName``, image references ...);
- values in config files (:mod:`.configvalues`: a Dockerfile's base image, cipher suites, target triples, flag names ...);
- placeholders by class (:mod:`.placeholders`: ``YOUR_TOKEN_HERE``, AWS's ``…EXAMPLE`` ids) and
  signatures and key ids of signed metadata (:mod:`.signatures`: DER ECDSA signatures, ``keyid`` digests);
- an app's words about passwords under a password key (:mod:`.uitext`: ``"repeat_password": "Repeat password"``);
- names in code's own places (:mod:`.codeforms`: a call ``parseX509Certificate(``, a member ``x509.KeyUsageCRLSign``)
  and WebAuthn's public values and DNS record names (:mod:`.attestations`: ``clientDataJSON``, COSE public keys,
  ``<selector>._domainkey.<domain>``), values file formats define as public (:mod:`.fileforms`: notebook images,
  fingerprints under ``GPG_KEYS``, Nix binary caches' public keys, Rekor entry bodies);
- memrepo's own values: the session ids its MCP server makes (``mcp-`` and 16 lower-case hex) after the labels
  memrepo writes them with (``task: mcp-…``, ``source: checkpoint mcp-…``), and its own placeholders
  ``[REDACTED:<type>]`` (also percent-encoded, as a metadata value holds one), so redacting twice changes nothing.
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
from collections.abc import Iterator

from . import lazyre, slots
from .base64text import decode_base64

Span = tuple[int, int]
Span3 = tuple[int, int, str]

_HEX64 = r"[0-9a-f]{64}"
_IMAGE_RE = lazyre.compile(
    r"(?<![\w./-])(?:[a-z0-9][a-z0-9._-]*(?::\d+)?/)*[a-z0-9][a-z0-9._-]*(?::[\w][\w.-]{0,127})?@sha256:"
    + _HEX64
    + r"(?![0-9a-f])"
)
_DIGEST_RE = lazyre.compile(r"(?<![\w-])sha(?:256|512):[0-9a-f]{64,128}(?![0-9a-zA-Z])")
_SSH_RE = lazyre.compile(
    r"(?<![\w-])(?P<algo>ssh-ed25519|ssh-rsa|ssh-dss|ecdsa-sha2-nistp(?:256|384|521)|sk-ssh-ed25519@openssh\.com|"
    r"sk-ecdsa-sha2-nistp256@openssh\.com)[ \t]+(?P<body>AAAA[A-Za-z0-9+/]{8,8192}={0,2})(?![A-Za-z0-9+/=])"
)
_PEM_RE = lazyre.compile(
    r"-----BEGIN (?P<kind>PUBLIC KEY|RSA PUBLIC KEY|CERTIFICATE|X509 CRL|CERTIFICATE REQUEST|PGP PUBLIC KEY BLOCK)-----"
    r"(?P<body>[A-Za-z0-9+/=\s:,-]{16,65536}?)-----END (?P=kind)-----"
)
_SRI_RE = lazyre.compile(r"(?<![\w-])sha(?P<bits>256|384|512)-(?P<b64>[A-Za-z0-9+/]{40,90}={0,2})(?![A-Za-z0-9+/=])")
_GOSUM_RE = lazyre.compile(r"(?<![\w-])h1:(?P<b64>[A-Za-z0-9+/]{43}=)(?![A-Za-z0-9+/=])")
_STRIPE_PK_RE = lazyre.compile(r"(?<![\w-])pk_(?:live|test)_(?=[A-Z0-9]*[a-z])[A-Za-z0-9]{20,247}(?![\w-])")
_MAPBOX_PK_RE = lazyre.compile(r"(?<![\w.-])pk\.(?P<payload>eyJ[A-Za-z0-9_-]{8,512})\.[A-Za-z0-9_-]{16,64}(?![\w.-])")
_DATA_URL_RE = lazyre.compile(
    r"data:(?P<mime>(?:image|font|application)/[\w.+-]{1,40});base64,(?P<b64>[A-Za-z0-9+/]{4,1048576}={0,2})"
)
_MAGIC = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/jpg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
    "image/webp": (b"RIFF",),
    "image/x-icon": (b"\x00\x00\x01\x00",),
    "image/vnd.microsoft.icon": (b"\x00\x00\x01\x00",),
    "image/avif": (b"\x00\x00\x00",),
    "font/woff2": (b"wOF2",),
    "font/woff": (b"wOFF",),
    "application/font-woff": (b"wOFF",),
    "application/font-woff2": (b"wOF2",),
    "font/ttf": (b"\x00\x01\x00\x00", b"true"),
    "font/otf": (b"OTTO",),
}
_GIT_OID_RE = lazyre.compile(
    r"(?:\b(?:commit|commits|revert|reverted|reverts|cherry-pick|cherry-picked|tree|parent|object|merge|rebase|"
    r"checkout|sha|rev|HEAD\s+(?:is\s+)?(?:at|now\s+at)|fixed\s+in|introduced\s+in|points\s+at)\s+|@|\.\.\.?)"
    r"(?P<oid>[0-9a-f]{7,64})(?![0-9a-zA-Z]|-[0-9a-fA-F]{4}-)(?:\.\.\.?(?P<oid2>[0-9a-f]{7,64})(?![0-9a-zA-Z]))?",
    re.I,
)
_UUID_RE = lazyre.compile(
    r"(?<![0-9a-fA-F-])\{?[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\}?(?![0-9a-fA-F-])"
)
_UUID_SECRET_WORDS_RE = slots.SECRET_WORDS_BEFORE_RE
"""Words naming a secret just before a UUID: then it is not kept (:data:`.slots.SECRET_WORDS_BEFORE_RE`)."""
_GPG_RE = lazyre.compile(
    r"(?<![0-9A-Fa-f])(?:[0-9A-F]{4} ){9}[0-9A-F]{4}(?![0-9A-Fa-f])|(?<=--recv-keys )[0-9A-Fa-f]{16,40}\b"
)
_AGE_RE = lazyre.compile(r"(?<![\w-])age1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58}(?![\w-])")
_WG_RE = lazyre.compile(r"(?im)^\s*PublicKey\s*=\s*(?P<b64>[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=)\s*$")
_ETH_RE = lazyre.compile(r"(?<![\w])0x[0-9a-fA-F]{40}(?![0-9a-zA-Z])")
_STRIPE_OBJECTS = (
    "apwc|bpc|bps|cbtxn|ccsbtxn|climorder|clock|cnli|credrev|debrev|fca|fcaowns?|fcsess|fctxn|fctxnref|fee|iauth|ibt|"
    "ich|ics|idp|ipcd|ipi|ise|issfr|link|mandate|obp|obt|person|plink|pmc|pmd|prodft|prv|rate|rsli?|setatt|shr|sqr|"
    "srcmn|srctxn|taxcalc|taxreg|tmc|tml|tmr|trr|trxne?|txi|txr"
)
"""The other prefixes of ids in Stripe's OpenAPI fixtures (issue 32 round 9), 3+ letters, none of a secret's."""
_OWN_ID_RE = lazyre.compile(r"(?i:\b(?:task:\s*|task\s+|checkpoint\s+|session\s+))(?P<id>mcp-[0-9a-f]{16})(?![\w-])")
"""A session id memrepo's MCP server makes (mcpserver/server.py: ``mcp-`` + ``secrets.token_hex(8)``) after a label
memrepo writes it with: the ``task:`` metadata key, ``source: checkpoint <id>``, ``clear task <id>``."""
_OWN_MARK_RE = lazyre.compile(r"\[REDACTED:[a-z0-9-]+\]|%5BREDACTED:[a-z0-9-]+%5D")
"""memrepo's own placeholder for a redacted value (plain, or percent-encoded in a metadata value)."""
_OBJECT_ID_RE = lazyre.compile(
    r"(?<![\w-])(?:(?:acct|price|prod|cus|sub|si|pi|ch|pm|seti|evt|txn|po|tr|plan|promo|card|src|ii|in|il|py|ba|cn|"
    r"dp|du|qt|sku|cs_test|cs_live|asst|thread|run|step|vs|batch|proj|call|resp|msgbatch|msg|toolu|tooluse|req|file|"
    + _STRIPE_OBJECTS
    + r")_|(?:file|chatcmpl|org|ftjob)-)[A-Za-z0-9]{8,64}(?![\w-])"
)
"""An object id whose prefix its vendor documents as an id, not a credential: Stripe (``price_``, ``cus_``, ``pi_`` ...,
:data:`_STRIPE_OBJECTS`;
a client secret ``pi_…_secret_…`` runs on and is not one), OpenAI (``asst_``, ``thread_``, ``file-`` ...) and Anthropic
(``msg_``, ``toolu_``), Amazon Bedrock's tool calls (``tooluse_``)."""


def _ssh_ok(algo: str, body: str) -> bool:
    """Whether ``body`` is SSH wire format whose first string names ``algo`` (RFC 4253 §6.6)."""
    raw = decode_base64(body)
    if raw is None or len(raw) < 4:
        return False
    n = int.from_bytes(raw[:4], "big")
    return raw[4 : 4 + n] == algo.encode() and len(raw) > 4 + n + 4


def _der_ok(body: str) -> bool:
    lines = [ln.strip() for ln in body.strip().splitlines() if ln.strip() and ":" not in ln]
    raw = decode_base64("".join(lines))
    return raw is not None and len(raw) >= 32 and raw[0] == 0x30


def _mapbox_ok(payload: str) -> bool:
    raw = decode_base64(payload, "urlsafe")
    if raw is None:
        return False
    try:
        data = json.loads(raw)
    except ValueError:
        return False
    return isinstance(data, dict) and "u" in data


def _data_url_ok(mime: str, body: str) -> bool:
    raw = decode_base64(body[:64])
    if raw is None:
        return False
    if mime == "image/svg+xml":
        return raw.lstrip().startswith((b"<svg", b"<?xml"))
    return raw.startswith(_MAGIC.get(mime.lower(), (b"\x00" * 64,)))


def spans(text: str, *, names: bool = True) -> Iterator[Span]:
    """``(start, end)`` of every public value in ``text`` whose structure checks out (``names``: with
    :mod:`.codenames`' values; :func:`drop_public` lets those read by a name's shape cancel only
    :data:`NAME_CANCELS` findings)."""
    if "sha" in text or "@" in text:
        for m in _IMAGE_RE.finditer(text):
            yield m.span()
        for m in _DIGEST_RE.finditer(text):
            yield m.span()
        for m in _SRI_RE.finditer(text):
            raw = decode_base64(m.group("b64"))
            if raw is not None and len(raw) == int(m.group("bits")) // 8:
                yield m.span()
    if "AAAA" in text:
        for m in _SSH_RE.finditer(text):
            if _ssh_ok(m.group("algo"), m.group("body")):
                yield m.span()
    if "-----BEGIN" in text:
        for m in _PEM_RE.finditer(text):
            if m.group("kind") == "PGP PUBLIC KEY BLOCK" or _der_ok(m.group("body")):
                yield m.span()
    if "h1:" in text:
        for m in _GOSUM_RE.finditer(text):
            raw = decode_base64(m.group("b64"))
            if raw is not None and len(raw) == 32:
                yield m.span()
    if "pk" in text:
        for m in _STRIPE_PK_RE.finditer(text):
            yield m.span()
        for m in _MAPBOX_PK_RE.finditer(text):
            if _mapbox_ok(m.group("payload")):
                yield m.span()
    if "data:" in text:
        for m in _DATA_URL_RE.finditer(text):
            if _data_url_ok(m.group("mime"), m.group("b64")):
                yield m.span()
    for m in _GIT_OID_RE.finditer(text):
        yield m.start("oid"), m.end("oid")
        if m.group("oid2"):
            yield m.start("oid2"), m.end("oid2")
    for m in _UUID_RE.finditer(text):
        if m.start() and text[m.start() - 1] in "/@=":
            continue  # in a URL's path or query: a webhook's id may be its secret (the rules decide)
        if text.endswith("amzn.mws.", 0, m.start()) or text.startswith(":fx", m.end()):
            continue  # an Amazon MWS auth token's body (:mod:`.iacsecrets`), a DeepL key's (:mod:`.keyformats`)
        if slots.credential_slot(text, m.start(), m.end()):
            continue  # a password's place: a URL's user:<uuid>@, -p <uuid>, -u user:<uuid> (B16-1)
        before = text[max(0, m.start() - 40) : m.start()]
        if not _UUID_SECRET_WORDS_RE.search(before):
            from .context import named_before  # loaded only for a UUID no secret word names

            if not named_before(text, m.start()):
                yield m.span()
    for regex in (_GPG_RE, _AGE_RE, _ETH_RE, _OBJECT_ID_RE):
        for m in regex.finditer(text):
            yield m.span()
    if "PublicKey" in text or "publickey" in text.lower():
        for m in _WG_RE.finditer(text):
            raw = decode_base64(m.group("b64"))
            if raw is not None and len(raw) == 32:
                yield m.start("b64"), m.end("b64")
    if "pub" in text.lower() or "comment" in text or text.count(":") >= 2 or "kid" in text or "x5t" in text:
        from .publiclabelled import spans as labelled_spans  # public keys and names labelled so (B21-8)

        yield from labelled_spans(text)
    if "mcp-" in text:
        for m in _OWN_ID_RE.finditer(text):
            yield m.start("id"), m.end("id")
    if "REDACTED:" in text:
        for m in _OWN_MARK_RE.finditer(text):
            yield m.span()
    from .configvalues import spans as config_spans
    from .iacvalues import spans as iac_spans
    from .identifiers import spans as identifier_spans
    from .notevalues import spans as note_spans
    from .publicids import spans as public_id_spans
    from .publicnumbers import spans as public_number_spans
    from .publishable import spans as publishable_spans

    yield from public_id_spans(text)
    yield from public_number_spans(text)
    yield from identifier_spans(text)
    yield from publishable_spans(text)
    yield from note_spans(text)
    yield from config_spans(text)
    yield from iac_spans(text)
    from .attestations import spans as attestation_spans
    from .codeforms import spans as codeform_spans
    from .fileforms import spans as fileform_spans
    from .placeholders import spans as placeholder_spans
    from .pubformats import spans as format_spans
    from .pubkeyshapes import spans as pubkey_spans
    from .signatures import spans as signature_spans
    from .uitext import spans as ui_spans

    yield from format_spans(text)
    yield from pubkey_spans(text)
    yield from placeholder_spans(text)
    yield from signature_spans(text)
    yield from ui_spans(text)
    yield from codeform_spans(text)
    yield from attestation_spans(text)
    yield from fileform_spans(text)
    if names:
        from . import codenames

        yield from codenames.spans(text)


spans_of = spans
"""The module's :func:`spans`, for :func:`drop_public`, whose argument of that name hides it."""


def public_spans(text: str, *, names: bool = True) -> list[Span]:
    """The spans of :func:`spans`, sorted; none holding a vendor key in its fixed shape (:func:`.placed.holds_key`)."""
    from .placed import holds_key

    return sorted(span for span in spans(text, names=names) if not holds_key(text, *span))


NAME_CANCELS = frozenset(
    {"high-entropy", "assigned-token", "named-token", "url-token", "capability-host", "encryption-key", "vendor-key"}
)
"""The only findings a name from code (:mod:`.codenames`) may cancel: a token's look (and what :mod:`.rules` reads
after a name and types apart: a URL path's token, a capability host, a key after ``k8s:enc:``). Measured on the
tuned parts (breaker18), the names it rightly keeps were only ever these; a finding a label, a password slot or a
sentence made (``password``, ``labelled-secret`` ...) says what the value is, and a name's shape does not undo that
(B18-2b, B18-3)."""


_EDGE = " \t\r\n\"'`,;:()[]{}<>"


def drop_public(text: str, spans: list[Span3], found: list[Span3]) -> list[Span3]:
    """``spans`` (merged from ``found``) less what lies inside a public format: a digest, a public key ...

    A finding wholly inside a public span goes; of one that runs past it, only
    the part outside that still reads as a credential stays (a token glued to a
    public key is still redacted, a word a line break joined to it is not), and
    every finding of ``found`` merged into it that meets no public span stays
    whole: a long value another rule took (``_authToken=ghp_…,image=…@sha256:…``)
    never takes the key inside it down with it (breaker16 B16-2). A name read by its shape
    (:func:`.codenames.name_spans`) takes part only for findings of :data:`NAME_CANCELS`: the others are
    dropped as without it (breaker18).
    """
    from . import codenames
    from .placed import holds_key

    code = {span for span in codenames.spans(text) if not holds_key(text, *span)}
    named = code - set(codenames.structural_spans(text)) if code else set()
    strict = sorted(span for span in spans_of(text, names=False) if not holds_key(text, *span))
    strict = sorted(strict + list(code - named)) if code - named else strict
    pub = sorted(strict + list(named)) if named else strict
    if not pub:
        return spans
    kept = _drop(text, spans, found, pub)
    slotted = sorted((f for f in found if _userinfo_password(text, f[0], f[1])), key=lambda f: f[2] != "url-password")
    slotted = [(a, b, slotted[0][2]) for a, b, _slug in slotted]
    kept = _merge(kept + slotted) if slotted else kept
    strong = [f for f in found if f[2] not in NAME_CANCELS]
    if not strong or not named:
        return kept
    return _merge(kept + _drop(text, _merge(sorted(strong)), strong, strict))


def _userinfo_password(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is exactly a URL's password, ``scheme://user:<here>@host``: nothing public goes there
    (base64 of words, a UUID, a name), so no public format cancels it; unless it is a stand-in
    (``:REPLACE_WITH_PASSWORD@``: :func:`.placeholders.userinfo_stand_in`)."""
    if not (
        text[end : end + 1] == "@" and text[start - 1 : start] == ":" and "://" in text[max(0, start - 80) : start]
    ):
        return False
    from .placeholders import userinfo_stand_in

    return not userinfo_stand_in(text[start:end])


def _drop(text: str, spans: list[Span3], found: list[Span3], pub: list[Span]) -> list[Span3]:
    """:func:`drop_public` for one set of public spans ``pub`` (sorted)."""
    from . import rules

    if not pub:
        return spans
    starts = [a for a, _ in pub]
    reach = list(itertools.accumulate((b for _, b in pub), max))
    out: list[Span3] = []
    for start, end, slug in spans:
        pieces = outside(start, end, _meeting(pub, starts, reach, start, end))
        if pieces == [(start, end)]:
            out.append((start, end, slug))
            continue
        for a, b in pieces:
            piece = text[a:b].strip(_EDGE)
            if piece and rules.looks_like_credential(piece, min_len=8):
                at = text.find(piece, a, b)
                out.append((at, at + len(piece), slug))
        near = _meeting(pub, starts, reach, start, end)
        out.extend(f for f in found if start <= f[0] and f[1] <= end and outside(f[0], f[1], near) == [f[:2]])
    return _merge(out)


def _merge(out: list[Span3]) -> list[Span3]:
    """``out`` sorted, overlapping spans joined (the first one's type)."""
    merged: list[Span3] = []
    for s, e, slug in sorted(set(out)):
        if merged and s < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e), merged[-1][2])
        else:
            merged.append((s, e, slug))
    return merged


def _meeting(pub: list[Span], starts: list[int], reach: list[int], start: int, end: int) -> list[Span]:
    """The spans of ``pub`` (sorted) that meet ``[start, end)``: those starting before ``end``, walked back until
    none before can reach ``start`` (``reach``: the furthest end so far), so a text of many public values and many
    findings costs n log n, not n squared."""
    i = bisect.bisect_left(starts, end) - 1
    near: list[Span] = []
    while i >= 0 and reach[i] > start:
        if pub[i][1] > start:
            near.append(pub[i])
        i -= 1
    return near[::-1]


def inside_public(start: int, end: int, public: list[Span]) -> bool:
    """Whether ``[start, end)`` lies wholly inside one span of ``public``."""
    return any(a <= start and end <= b for a, b in public)


def outside(start: int, end: int, public: list[Span]) -> list[Span]:
    """The pieces of ``[start, end)`` outside every span of ``public`` (sorted); ``[(start, end)]`` when it meets none."""
    pieces = [(start, end)]
    for a, b in public:
        if b <= start or a >= end:
            continue
        nxt: list[Span] = []
        for s, e in pieces:
            if b <= s or a >= e:
                nxt.append((s, e))
                continue
            if s < a:
                nxt.append((s, a))
            if b < e:
                nxt.append((b, e))
        pieces = nxt
    return pieces
