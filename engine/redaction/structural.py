"""Keys found by their shape and randomness alone, where no vendor is named (docs/architecture.md §3).

Issue 32, round 10. The vendor rule sets (:mod:`.kingfisher`, Betterleaks,
:mod:`.context`) find a key by its vendor's name; :mod:`.prefixed` finds one by
its ``prefix_`` and a body of letters and digits. Five shapes are left, and
this module takes them by structure:

- **mixed-case hex** (:func:`mixed_hex`): a run of 32+ hex digits holding both
  upper- and lower-case letters. Tools print digests, object ids and hashes in
  one case (git, ``sha256sum``, OCI digests lower; Windows and some SDKs upper),
  so a run that mixes them was not printed by a hash tool: it is a key drawn
  from ``[0-9a-fA-F]``. EIP-55 addresses mix case too, but carry ``0x``, which
  keeps them out (the run must stand alone).
- **a name, then a random value** (:func:`named_value`): a clause that is only
  one word and a value that reads random, ending its line (``unify
  hP8qr9F0nvVkzDjHafKE2wXTEhc8K9QpPqvyunKW=0fy``). This is how a key is noted
  beside the service it opens when no label is written. The value reads random
  when it is 16+ letters and digits (``-_+/=`` allowed) mixing at least two of
  upper case, lower case and digits, with no word-like run and about the
  entropy a random string of its length and classes has. Kept: single-case hex
  after a name alone (a digest as often as a key: round 5 kept ``nitro 4f91…``),
  and any value after a word naming a hash, an id, a git action, a document or
  a record (``commit``, ``sha256``, ``build``, ``merged``, ``customer``,
  ``spreadsheet`` ...): those values are public.
- **a random value, then what it is** (:func:`value_first`): a line opening
  with such a value and calling it a key (``<value> is the ActiveCampaign one
  for prod``, ``<value> is our staging token``), the same note in the other order.
- **a prefix and a base64url body** (:func:`prefixed_urlsafe`): ``prefix_`` then
  32+ random characters with ``-`` or ``_`` inside (random bytes in base64url).
- **a token as a URL's user** (:func:`token_userinfo`): ``https://<token>@host``
  with no ``:password``, as git hosts document cloning with a token.

Public formats (:mod:`.public`: digests, UUIDs, publishable keys, ids vendors
document as ids) are dropped after every detector, so nothing here needs to
know them again.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from . import lazyre
from .context import PUBLIC_LABELS
from .rules import entropy

Span = tuple[int, int, str]

_MIXED_HEX_RE = lazyre.compile(r"(?<![\w+/=.$#-])[0-9a-fA-F]{32,128}(?![\w+/=-])")
"""A standalone run of 32 to 128 hex digits: not glued to token characters, ``0x``, a path or a colour's ``#``."""


def mixed_hex(text: str) -> Iterator[Span]:
    """``(start, end, "high-entropy")`` of each standalone hex run of 32+ digits that mixes letter case.

    Args:
        text: any text.

    Returns:
        Iterator[Span]: runs with 3+ upper-case and 3+ lower-case hex letters, 4+ digits, and entropy of 3.3
        bits a character or more (a random hex string's is near 4).
    """
    for m in _MIXED_HEX_RE.finditer(text):
        run = m.group(0)
        upper = sum(c in "ABCDEF" for c in run)
        lower = sum(c in "abcdef" for c in run)
        digits = sum(c.isdigit() for c in run)
        if upper >= 3 and lower >= 3 and digits >= 4 and entropy(run) >= 3.3:
            yield m.start(), m.end(), "high-entropy"


_NAMED_RE = lazyre.compile(
    r"(?:^[ \t]*(?:[-*+][ \t]+)?|(?<=[:>]) )(?P<name>[A-Za-z][A-Za-z0-9]{2,29}):?[ \t]+"
    r"(?P<value>[A-Za-z0-9][A-Za-z0-9_+/=-]{15,511})[ \t]*(?:\.[ \t]*)?$",
    re.M,
)
"""One word (the first of a line, of a list item or after ``: ``), an optional colon, then one value ending the line."""

_PUBLIC_WORD_LIST = (
    "sha sha1 sha2 sha224 sha256 sha384 sha512 sha3 md5 md4 blake2 blake2b blake3 crc crc32 xxhash hash hashes "
    "digest checksum checksums sum etag oid objectid object blob tree tag ref refs head commit commits committed "
    "rev revision revisions changeset parent merge merged merging revert reverted reverts pick picked cherry "
    "squash fixup reword drop edit amend amended rebase rebased fixed fixes fix bump bumped see at in on from to "
    "is was by id ids uuid guid ulid nanoid key_id keyid fingerprint thumbprint serial build builds image images "
    "container containers layer layers docker pod node instance run runs job jobs trace span request req session "
    "version ver release tarball integrity nonce salt iv seed example sample test tests file files path doc docs "
    "page msg message event order invoice customer_id user username account project workspace tenant org team "
    "channel thread ticket issue pr branch deploy deployment artifact asset upload download torrent magnet "
    "address wallet tx txid txn transaction block hash160 pubkey publickey public pub cert certificate ssh gpg "
    "pgp infohash isbn doi arxiv orcid video playlist youtube track album spotify "
    "spreadsheet sheets drive gdrive base app application calendar slide slides presentation gist snippet paste "
    "clip short invite room meeting zoom call server guild firestore mongo mongodb row entity item resource vm "
    "droplet site note post comment tweet status share link url tracking parcel shipment booking reservation "
    "confirmation pnr reference coupon promo voucher referral record"
)
_PUBLIC_WORDS = frozenset(_PUBLIC_WORD_LIST.split()) | PUBLIC_LABELS
"""Words whose value is public: a hash, an id, a version, a git object or action, a public key, a media id, a
document's, a booking's or a record's id (Google Docs and Firestore ids, Airtable bases), and
every label :mod:`.context` reads as naming a public identifier (``customer``, ``tenant``, ``campaign`` ...)."""

_WORD_RUN_RE = lazyre.compile(r"[a-z]{6}|[A-Z]{7}")
"""Six lower-case or seven upper-case letters in a row: a word or a name, rare in a random body of this length."""
_VOWELS = frozenset("aeiouAEIOU")
_SEPARATORS_RE = lazyre.compile(r"[-_+/=]")
_UUID_SHAPE_RE = lazyre.compile(r"[0-9A-Za-z]{8}-(?:[0-9A-Za-z]{4}-){3}[0-9A-Za-z]{12}")
"""A UUID's 8-4-4-4-12 shape: an id (a project's, a tenant's, a request's) far more often than a key."""
_OBJECT_ID_LENGTHS = frozenset((40, 64))
"""Hex lengths of git object ids and SHA-256 digests: a lock file pins ``zod: <commit>``; those stay."""


def _random_value(value: str, *, hex_ok: bool = False) -> bool:
    """Whether ``value`` (letters, digits, ``-``/``_``) reads as a random key, not a name, a word or a number.

    Args:
        value: the value after the word.
        hex_ok: whether single-case hex may be a key (only where words call it one: a digest after a name
            alone, ``nitro 4f91…``, is as often a checksum).

    Returns:
        bool: never for a UUID's shape or a path's (more than one ``/`` in 16 characters); with ``hex_ok``, True for 32+ single-case hex digits (8+ letters,
        8+ digits, entropy 3.3+) but not 40 or 64 of them (git object ids, SHA-256); for 16+ characters
        mixing two or more of upper case, lower case and digits, with 2+ of each kind present, no word-like
        run (:data:`_WORD_RUN_RE`), letters at most two fifths vowels, and entropy at most 0.5 bit under what a
        random string of its length and character classes has (:func:`expected_entropy`).
    """
    core = _SEPARATORS_RE.sub("", value)
    if len(core) < 16 or _UUID_SHAPE_RE.fullmatch(value) or value.count("/") * 16 > len(value):
        return False  # a UUID; or a path (base64 prints a "/" once in 64 characters, a path every few)
    digits = sum(c.isdigit() for c in core)
    upper = sum(c.isupper() for c in core)
    lower = len(core) - digits - upper
    if all(c in "0123456789abcdef" for c in core.lower()) and (upper == 0 or lower == 0):
        if not hex_ok or len(core) < 32 or len(core) in _OBJECT_ID_LENGTHS:
            return False  # a digest, an object id (git's 40 or 64, MongoDB's 24) as often as a key
        return upper + lower >= 8 and digits >= 8 and entropy(core) >= 3.3
    kinds = sum(n >= 2 for n in (digits, upper, lower))
    if kinds < 2 or _WORD_RUN_RE.search(value):
        return False
    letters = upper + lower
    if letters and sum(c in _VOWELS for c in core) * 5 > letters * 2:
        return False
    alphabet = (10 if digits else 0) + (26 if upper else 0) + (26 if lower else 0)
    return entropy(core) >= expected_entropy(len(core), alphabet) - 0.5


def expected_entropy(length: int, alphabet: int) -> float:
    """About the Shannon entropy, in bits a character, of a string of ``length`` drawn at random from ``alphabet``
    symbols: ``log2`` of the expected count of distinct symbols, ``k·(1-(1-1/k)^n)``. A short random string cannot
    reach ``log2(k)``; 0.5 bit under this is about its 1st percentile for 16 to 100 characters (measured, 2,000
    draws each, base62 and base64)."""
    return math.log2(alphabet * (1 - (1 - 1 / alphabet) ** length))


def named_value(text: str) -> Iterator[Span]:
    """``(start, end, "named-token")`` of each random value that ends a clause of one word and the value.

    The word is read only to find the value (it names no vendor a rule set knows, or :mod:`.context` would have
    typed it): the same guess as :mod:`.rules`' run after whatever name, so the value has a type of its own,
    ``named-token``, which :mod:`.evidence` asks for evidence like ``assigned-token`` (:data:`.shapelabels.WEAK`).

    Args:
        text: any text.

    Returns:
        Iterator[Span]: the value's span (the word before it stays) when the word does not name a public value
        (:data:`_PUBLIC_WORDS`) and the value reads random (:func:`_random_value`).
    """
    for m in _NAMED_RE.finditer(text):
        if m.group("name").lower() in _PUBLIC_WORDS:
            continue
        value = m.group("value")
        if _random_value(value):
            yield m.start("value"), m.end("value"), "named-token"


_VALUE_FIRST_RE = lazyre.compile(
    r"(?:^[ \t]*(?:[-*+][ \t]+)?|(?<=[:>] ))(?P<value>[A-Za-z0-9][A-Za-z0-9_-]{15,127})[ \t]+(?:is|was|=)[ \t]+"
    r"(?:the|our|my|their)[ \t]+(?P<tail>[^\n.;]{1,60})",
    re.M,
)
"""A value that opens its line and is then said to be something: ``<value> is the ActiveCampaign one for prod``."""
_KEY_WORD_LIST = "key keys token tokens secret secrets password passphrase credential credentials one"
_KEY_WORDS = frozenset(_KEY_WORD_LIST.split())
"""What the clause after the value must call it: a key, or ``the <vendor> one`` (said of a key)."""


def value_first(text: str) -> Iterator[Span]:
    """``(start, end, "vendor-key")`` of each random value a clause opens and then calls a key.

    Args:
        text: any text.

    Returns:
        Iterator[Span]: the value's span when the words after ``is the`` / ``is our`` hold a key word
        (:data:`_KEY_WORDS`) and no word naming a public value (:data:`_PUBLIC_WORDS`), and the value reads
        random (:func:`_random_value`).
    """
    for m in _VALUE_FIRST_RE.finditer(text):
        words = {w.lower() for w in _TAIL_WORD_RE.findall(m.group("tail"))}
        if words & _KEY_WORDS and not words & _PUBLIC_WORDS and _random_value(m.group("value"), hex_ok=True):
            yield m.start("value"), m.end("value"), "vendor-key"


_TAIL_WORD_RE = lazyre.compile(r"[A-Za-z][A-Za-z0-9]*")


_URLSAFE_RE = lazyre.compile(
    r"(?:^|(?<=[^\w./@+%#~-]))(?P<prefix>[a-z][a-z0-9]{0,9}[_-](?:[a-z0-9]{1,10}[_-]){0,2})"
    r"(?P<body>[A-Za-z0-9][A-Za-z0-9_-]{31,255})(?![\w./@+=-])"
)
"""A ``prefix_`` (as :mod:`.prefixed` reads one) and a body of 32+ base64url characters."""


def prefixed_urlsafe(text: str) -> Iterator[Span]:
    """``(start, end, "vendor-token")`` of each ``prefix_`` key whose random body is base64url (``-``/``_`` inside).

    :mod:`.prefixed` takes a body of letters and digits only; a vendor that encodes 32 random bytes as base64url
    (RFC 4648 §5) prints ``-`` and ``_`` inside the body too (``qp-api-u-EK4o…_HChR…``).

    Args:
        text: any text.

    Returns:
        Iterator[Span]: prefix and body, when the body holds ``-`` or ``_``, reads random (:func:`_random_value`)
        and the first prefix part does not name a hash, an id or a branch (:data:`.prefixed` 's public prefixes).
    """
    from .prefixed import _FIRST_PART_RE, _PUBLIC_PREFIX_RE

    for m in _URLSAFE_RE.finditer(text):
        body = m.group("body")
        if "-" not in body and "_" not in body:
            continue
        first = _FIRST_PART_RE.match(m.group("prefix"))
        if first and _PUBLIC_PREFIX_RE.fullmatch(first.group(0)):
            continue
        if _random_value(body):
            yield m.start(), m.end(), "vendor-token"


_USERINFO_RE = lazyre.compile(
    r"(?<=://)(?P<user>[A-Za-z0-9_-]{16,256})@(?=[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*[:/\s]|\S+$)"
)
"""A URL's userinfo that is one value with no ``:password`` after it (``https://<token>@github.com/...``)."""
_HEX_TOKEN_RE = lazyre.compile(r"[0-9a-f]{32,128}|[0-9A-F]{32,128}")


def token_userinfo(text: str) -> Iterator[Span]:
    """``(start, end, "url-password")`` of each random value standing alone as a URL's userinfo.

    Git hosts document cloning with a token as the user name and no password (``https://<token>@host/repo``);
    a user name is a word, a handle or an e-mail, never a random run. Hex counts here at any length of 32+
    (classic 40-hex tokens): no tool puts a commit id or a digest before a host's ``@``.

    Args:
        text: any text.

    Returns:
        Iterator[Span]: the userinfo's span when it reads random (:func:`_random_value`) or is 32+ hex digits
        with entropy 3.3+.
    """
    for m in _USERINFO_RE.finditer(text):
        user = m.group("user")
        if _random_value(user) or (_HEX_TOKEN_RE.fullmatch(user) and entropy(user) >= 3.3):
            yield m.start("user"), m.end("user"), "url-password"


_RUN_RE = lazyre.compile(r"[A-Za-z0-9_+/=-]{16}")


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of every key this module's five shape rules find in ``text``.

    Args:
        text: any text.

    Returns:
        Iterator[Span]: spans, possibly overlapping (:func:`memrepo.engine.redaction.find` merges them).
    """
    if not _RUN_RE.search(text):
        return  # every rule here needs a run of 16+ token characters: most prose has none
    yield from mixed_hex(text)
    yield from named_value(text)
    yield from value_first(text)
    yield from prefixed_urlsafe(text)
    yield from token_userinfo(text)
