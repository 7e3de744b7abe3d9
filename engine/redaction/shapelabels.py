"""A key naming a public value right before a value is evidence against a secret; words after a head are no key.

Round 15 (:mod:`.evidence`) turned the shape-alone rule round: a long random run (``high-entropy``) stays redacted
only when something says it is a secret. Round 16 (issue 32, measured on the tuned look-alike parts) adds evidence
AGAINST one, by class:

- the key right before the value (:func:`public_label`) names a public value: its last word is a checksum, a
  digest, an id, a version, a place or a name (``checksum``, ``integrity``, ``digest``, ``etag``, ``commit``, ``id``,
  ``nonce``, ``host``, ``username`` ..., :data:`PUBLIC_KEY_WORDS`), in any key style (``etag:``,
  ``"contentDigest": "``, ``COMMIT_SHA=``, ``x-request-id:``, ``--integrity``), and no word naming a secret stands in
  the key (``id_token``, ``commitToken``): a span only the shape rules or a vendor's name earlier on the line found
  (:func:`countered`) is kept;
- a dotted name of words under the bare key ``key`` (:func:`setting_name`: a values list naming a setting);
- a vendor-style head (``acme_…``) is evidence only before a random body (:func:`words_only`:
  ``default-v1-s3-artifact-repository`` is words).

Round 17: :mod:`.rules`' run after whatever name (``assigned-token``) needs the same evidence as a bare run
(:data:`WEAK`): what that reading knows more of (a capability URL's path token, a capability host, a key after
``k8s:enc:``, a code under a pin's name) carries its own type, and :mod:`.evidence` keeps the secrets whose own name
says nothing by a head (``pk.``, ``SK`` before mixed-case hex), a block's key naming a secret over the value, or a
secret another rule found on the line beside.
"""

from __future__ import annotations

from . import lazyre
from .keynames import key_words

Span3 = tuple[int, int, str]

WEAK = frozenset({"high-entropy", "assigned-token", "named-token"})
"""Types a rule gives a value for its shape alone: a bare run, or a run after whatever name (:mod:`.rules`' reading
of ``name: value``, which reads the name only to find the value; what that reading knows more of carries its own
type: ``url-token``, ``capability-host``, ``encryption-key``, ``password``)."""
COUNTERED = WEAK | {"assigned-token", "url-token", "capability-host", "encryption-key", "vendor-key"}
"""Types a key naming a public value right before the value overrides: the shape rules', rules.py's run after
whatever name, and a vendor's name some words before (:mod:`.context`: ``github etag: <value>``), which the key
between says nothing of. A vendor's own format (``ghp_…``, a Stripe key) has its own type: never overridden."""

_KEY_BEFORE_RE = lazyre.compile(
    r"(?:^|[\s,{(\[;])(?:--?)?[\"'`]?(?P<key>[A-Za-z_@$][\w.@$/-]{0,60}?)[\"'`]?[ \t]*(?:=>|:=|[:=])[ \t]*[\"'`]?$"
)
"""A key right before the value: ``key: ``, ``"key": "``, ``KEY=``, ``key => '``, ``--key=``."""
_FLAG_BEFORE_RE = lazyre.compile(r"(?:^|\s)--(?P<key>[a-z][\w-]{1,40})[ \t]+[\"']?$")
"""A command-line flag right before the value: ``--integrity <value>``."""
_PUBLIC_KEY_WORD_LIST = (
    "checksum checksums shasum sha sha1 sha256 sha384 sha512 md5 hash hashes digest digests integrity etag nonce "
    "commit commits rev revision ref oid cid id ids uuid guid uid kid fingerprint thumbprint version tag branch image "
    "host hostname domain url uri path file filename dir directory name email user username region model"
)
PUBLIC_KEY_WORDS = frozenset(_PUBLIC_KEY_WORD_LIST.split())
"""Last words of a key whose value is public: a checksum or digest, an id, a version, a place, a name (:mod:`.rules`'
not-secret labels, and ``integrity``, ``etag``, ``nonce``, ``oid``, ``kid`` ...)."""


def weak(span: Span3, found: list[Span3]) -> bool:
    """Whether only the shape rules (:data:`WEAK`) found anything where ``span`` lies."""
    start, end, _slug = span
    return all(slug in WEAK for s, e, slug in found if s < end and e > start)


def countered(text: str, span: Span3, found: list[Span3]) -> bool:
    """Whether only :data:`COUNTERED` types found ``span`` and a key naming a public value stands right before it."""
    start, end, _slug = span
    if all(slug in COUNTERED for s, e, slug in found if s < end and e > start) and public_label(text, start):
        return True
    # a key saying it is the public half (publishableKey, SITE_KEY) also overrides a label rule's reading of "key"
    return all(slug in _HALF_COUNTERED for s, e, slug in found if s < end and e > start) and public_half(text, start)


_DOTTED_RE = lazyre.compile(r"[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*){2,}")
"""A dotted name of lower-case pieces (``controller.k8sclient.retry.max``): a setting's or a property's name."""


def setting_name(text: str, span: Span3, found: list[Span3]) -> bool:
    """Whether ``span`` is a dotted name of words (:data:`_DOTTED_RE`, :func:`words_only`) under the bare key ``key``
    and only the label rules found it: a map's ``key:`` field naming a setting (a Kubernetes or Helm values list),
    which the word ``key`` does not make a secret. A password is not written as dotted words after ``key:``."""
    start, end, _slug = span
    if any(slug != "labelled-secret" for s, e, slug in found if s < end and e > start):
        return False
    value = text[start:end]
    if not _DOTTED_RE.fullmatch(value) or not words_only(value):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    m = _KEY_BEFORE_RE.search(text[max(line_start, start - 80) : start])
    return m is not None and key_words(m.group("key")) == ["key"]


_HALF_COUNTERED = COUNTERED | {"labelled-secret", "generic-api-key", "vendor-token"}
"""What a key naming a public half overrides: also a label rule's and a generic rule's reading of "key" and a
prefix's shape; a vendor's own format (``sk_live_…``, ``ghp_…``) keeps its type and stays redacted."""
_PUBLIC_HALF = frozenset({"public", "publishable", "pub", "site"})
"""A word saying a key is the half a browser or a DNS record holds: a publishable key, a captcha's site key."""
_PRIVATE_HALF = frozenset(
    {
        "private",
        "secret",
        "server",
        "admin",
        "signing",
        "master",
        "api",
        "encryption",
        "hmac",
        "auth",
        "service",
        "role",
    }
)


def _public_half(words: list[str]) -> bool:
    """``…_public_key``, ``publishableKey``, ``…_SITE_KEY``: the word right before ``key`` names the public half, and no
    word of the name a private one (``SITE_API_KEY``, ``PUBLIC_DB_KEY`` are secrets: breaker24 L4)."""
    return len(words) >= 2 and words[-1] == "key" and words[-2] in _PUBLIC_HALF and not _PRIVATE_HALF & set(words)


def public_half(text: str, start: int) -> bool:
    """Whether the key right before ``text[start:]`` on its line names a key's public half (``publishableKey``,
    ``PUBLIC_TURNSTILE_SITE_KEY``, ``siteKey``): its last word ``key``, one word :data:`_PUBLIC_HALF` and none
    :data:`_PRIVATE_HALF` (issue 32 round 24, public3-tune)."""
    key = _key_before(text, start)
    return key is not None and _public_half(key_words(key))


def _key_before(text: str, start: int) -> str | None:
    """The key right before ``text[start:]`` on its line (``key: ``, ``"key": "``, ``KEY=``, ``--key ``), or None."""
    line_start = text.rfind("\n", 0, start) + 1
    before = text[max(line_start, start - 80) : start]
    m = _KEY_BEFORE_RE.search(before) or _FLAG_BEFORE_RE.search(before)
    return None if m is None else m.group("key")


def public_label(text: str, start: int) -> bool:
    """Whether the key right before ``text[start:]`` on its line names a public value (module doc): its last word is
    in :data:`PUBLIC_KEY_WORDS` and no word naming a secret stands in the key."""
    from .context import SECRET_WORDS

    key = _key_before(text, start)
    if key is None:
        return False
    words = key_words(key)
    if not words or any(w in SECRET_WORDS or w.startswith(("passw", "secret", "token")) for w in words):
        return False
    return words[-1] in PUBLIC_KEY_WORDS


_SEP_RE = lazyre.compile(r"[-_./]+")


def words_only(body: str) -> bool:
    """Whether ``body`` (what follows a head such as ``default-``) is a name of words: every piece between separators
    and case changes a word, a number of at most four digits, or one letter beside a number (``v1-s3-artifact-
    repository``, ``unicode-256color``), words at least half its length; a random body breaks into stray letters and
    consonant runs."""
    from .codenames import _PIECE_RE, _word

    pieces = [p for seg in _SEP_RE.split(body) if seg for p in _PIECE_RE.findall(seg)]
    if len(pieces) < 2 or "".join(pieces) != _SEP_RE.sub("", body):
        return False
    worded = 0
    for i, piece in enumerate(pieces):
        if piece.isdigit():
            if len(piece) > 4:
                return False
        elif len(piece) == 1:
            if not any(pieces[j].isdigit() for j in (i - 1, i + 1) if 0 <= j < len(pieces)):
                return False
        elif not _word(piece):
            return False
        else:
            worded += len(piece)
    return worded * 2 >= sum(map(len, pieces))  # mostly words: not letters and digits in turn (``9x8k2j4h``)
