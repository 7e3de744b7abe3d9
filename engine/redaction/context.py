"""Key-shaped values named by a vendor word just before them (docs/architecture.md §3).

Most maintained rule sets find a vendor's key the same way: the vendor's name,
at most a few dozen characters on the same line, then a value of a generic
shape (32 hex digits, a UUID, 40 letters and digits). trufflehog writes it as
``(?i)(?:heroku).{0,40}\\b([0-9a-f]{8}-...)\\b``, Kingfisher as ``heroku
(?:.|[\\n\\r]){0,32}? ... ([0-9a-f]{8}-...)``, gitleaks as a keyword, a short gap
and an assignment. This rule does the same for every vendor name those sets
know (:data:`.vendorwords.VENDORS`, from Kingfisher's and gitleaks' rules, and
:data:`.docformats.DOC_VENDORS`, from vendors' own docs):

- a value of 16+ token characters mixing letters and digits (or a UUID, or 20+
  hex digits) whose line holds a vendor name in the :data:`WINDOW` characters
  before it is taken for that vendor's key;
- a word that names a public identifier between the vendor name and the value
  (``github commit 3f2a...``, ``azure tenant <uuid>``, ``stripe customer
  cus_...``) keeps it, unless a secret word (``key``, ``token`` ...) follows that word;
- a git object id (40 or 64 hex digits) needs a secret word too: ``github
  3f2a...`` alone is a commit, ``github token 3f2a...`` a classic OAuth token;
- a name a tool made unique with a UUID (``ArchiveRule-<uuid>``: words of letters only) is no key;
- a value made of words, numbers, versions and model codes (``4.35.1-x86_64-linux-gnu``, ``CodeQL%20scan``,
  ``asus-zephyrus-ga402x-nvidia``: :mod:`.vendornames`) is no vendor's key, whatever vendor name stands
  before it (a secret word before or after it still names it, issue 32 round 23);
- a bare UUID or hex string with no vendor or secret word before it is kept
  (:mod:`.public` keeps UUIDs, the high-entropy rule skips hex).

For a vendor no rule set names (issue 32 round 5), the words around a value decide:

- a secret word (``key``, ``token``, ``api``, ``auth`` ...) in the window before it,
  no public label after that word: ``acme api key (prod) -> <value>``;
- a secret word just after it: ``<value> is the Acme api key``;
- a product's name right before a random token (``nitro wHDos6x7Q1UbJDVBjgerfK``):
  not hex or a UUID (a digest or an id as often as a key), not a dotted name or a
  versioned slug, and the word is not prose, code or a public label;
- an id printed beside its secret (``CLIENT_ID=`` and ``CLIENT_SECRET=``, ``key_id=``
  and ``secret=``) is half of the credential and is redacted with it.

The scan is cheap on prose: the value shape is searched first, the window's
words only for a text holding one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from . import lazyre
from .docformats import DOC_VENDORS
from .rules import entropy, looks_like_credential
from .vendorwords import VENDORS as _RULE_SET_VENDORS

VENDORS = _RULE_SET_VENDORS | DOC_VENDORS
"""Vendor names: those the rule sets name, and those only vendors' own docs name (:mod:`.docformats`)."""

Span = tuple[int, int, str]

WINDOW = 48
"""How far before a value (on its line) a vendor name may stand, in characters (trufflehog: 40, Kingfisher: 32 twice)."""

_VALUE_RE = lazyre.compile(
    r"(?<![A-Za-z0-9_.+/~$-])(?P<value>[A-Za-z0-9][A-Za-z0-9_.+/~-]{14,510}={0,2})(?![A-Za-z0-9_+/=~-])"
)
_UUID_RE = lazyre.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")
_HEX_RE = lazyre.compile(r"[0-9a-fA-F]+")
_NAMED_UUID_RE = lazyre.compile(r"(?=[A-Za-z-]*[A-Za-z]{4})(?:[A-Za-z]+-){1,6}" + _UUID_RE.pattern)
"""Words of letters only (one of four or more) and a UUID: a resource name; ``pat-na1-<uuid>`` (a digit) is no name."""
_CAMEL_RE = lazyre.compile(r"(?<=[a-z])(?=[A-Z])")
_WORD_RE = lazyre.compile(r"[a-z]+")
_SLUG_RE = lazyre.compile(r"(?:[0-9]{1,4}[-_.])*[a-z]{2,}[0-9]{0,4}(?:[-_.](?:[a-z]{2,}[0-9]{0,4}|v?[0-9]{1,4}))+")
_CAMEL_NAME_RE = lazyre.compile(r"[A-Za-z][a-z]+(?:[A-Z][a-z]+|[A-Z](?![a-z])|[_-]?[0-9])*")
"""A camel-case name; each step starts on its own kind of character, so matching takes linear time."""

_SECRET_WORDS = (
    "key keys apikey token tokens secret secrets password passwd pwd pass pat auth credential credentials creds "
    "bearer signature sig private passphrase"
)
SECRET_WORDS = frozenset(_SECRET_WORDS.split())
"""Words that name the value a secret (they win over a public label before them)."""

_PUBLIC_LABELS = (
    "commit commits sha hash digest checksum id ids uuid guid ref rev revision tag version build run job issue pr "
    "request trace span correlation order invoice customer user account tenant subscription project org "
    "organization team workspace channel guild message thread event object file image container pod node instance "
    "cluster device serial number ticket release deployment region zone repo repository branch sku product price "
    "plan charge payment transaction txn block address wallet fingerprint tx tree parent merge dashboard dashboards "
    "monitor monitors alert incident page doc document folder board card list sheet form survey note notebook query "
    "report chart view table dataset collection record site space experiment pipeline workflow task check index "
    "queue topic stream segment campaign audience template widget screen link domain bucket "
    "group contact deal story epic sprint milestone label uid public publishable iban isbn doi"
)
PUBLIC_LABELS = frozenset(_PUBLIC_LABELS.split())
"""Words that name the value a public identifier."""


def _words(window: str) -> list[str]:
    return _WORD_RE.findall(_CAMEL_RE.sub(" ", window).lower())


def named_by_vendor(window: str, *, git_id: bool = False) -> bool:
    """Whether the text just before a value (``window``, on the value's line) names it a vendor's secret.

    Args:
        window: up to :data:`WINDOW` characters before the value.
        git_id: the value could be a git object id: a vendor name alone does not name it, a secret word must.

    Returns:
        bool: True when a vendor name (or, for ``git_id``, a secret word after it) stands in ``window`` and no
        public label stands after the last vendor name without a secret word after the label.
    """
    words = _words(window)
    vendor_at = max((i for i, w in enumerate(words) if w in VENDORS), default=-1)
    if vendor_at < 0:
        return False
    after = words[vendor_at + 1 :]
    label_at = max((i for i, w in enumerate(after) if w in PUBLIC_LABELS), default=-1)
    secret_at = max((i for i, w in enumerate(after) if w in SECRET_WORDS), default=-1)
    if label_at >= 0 and secret_at < label_at:
        return False
    return secret_at >= 0 if git_id else True


def _shape(value: str) -> tuple[bool, bool]:
    """(whether ``value`` has a key's shape, whether it could be a git object id)."""
    if _UUID_RE.fullmatch(value):
        return entropy(value.replace("-", "")) >= 2.5, False  # not 00000000-0000-..., a placeholder
    if _NAMED_UUID_RE.fullmatch(value):
        return False, False  # a name a tool made unique with a UUID (ArchiveRule-<uuid>, AutoScaling-my-asg-<uuid>)
    if _HEX_RE.fullmatch(value):
        return len(value) >= 20, len(value) == 40  # 64 hex after a vendor: a key (a sha256 digest is public.py's)
    if value.count("/") > 1 or (value.count(".") > 2 and len(value) < 80):
        return False, False  # a path or a host name
    if _SLUG_RE.fullmatch(value):
        return False, False  # words joined by dashes (wombat-narwhal-42, aws4-hmac-sha256): a name, not a key
    digits = sum(c.isdigit() for c in value)
    letters = sum(c.isalpha() for c in value)
    if digits < 2 and not _mixed_case_letters(value):
        return False, False
    return letters >= 4 and entropy(value) >= 3.0 and looks_like_credential(value, min_len=16), False


def _mixed_case_letters(value: str) -> bool:
    """Letters of both cases in random order (``NBMgCsaANyWkdVjj``), not a camel-case name (``ServiceAccountName``)."""
    return (
        value.isalpha()  # OpenAI-compatible: words, not a key
        and any(c.islower() for c in value)
        and sum(c.isupper() for c in value) >= 3
        and not _CAMEL_NAME_RE.fullmatch(value)
        and entropy(value) >= 3.5
    )


_NAMING_WORDS = SECRET_WORDS | {"api", "apikey", "access", "credential", "webhook", "signing"}
"""Words that name the value after them a secret when no public label follows them (``api key (prod) -> <value>``)."""
_AFTER_RE = lazyre.compile(
    r"\s*(?:[),]\s*)?(?:(?:is|was|=|:|-+(?!-)|—|\()\s*)?(?P<words>(?:[\w.-]+\s+){0,4}?)(?:api[\s_-]?)?"
    r"(?:key|token|secret|password|passphrase|credential)s?\b",
    re.I,
)
"""A secret word just after a value: ``<value> is the Hexaline api key``, ``<value> (api token)``. A run of dashes is
taken whole (``-+(?!-)``): a word after part of it cannot end where the whole run's word does not, and each split of
a long run was tried (docs/architecture.md §3)."""
_NAME_RE = lazyre.compile(r"(?<![\w.-])(?P<name>[A-Za-z][A-Za-z0-9]{2,23})[\"'`]?[ \t]*(?:[:=][ \t]*)?[\"'`]?$")
_DOTTED_NAME_RE = lazyre.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
"""A dotted name in code (``pygit2.LIBGIT2_VERSION``, ``base64.urlsafe_b64decode``): not a token."""
_STOP = frozenset(
    """
is was are were be been the a an and or of for to in on at by with from as into via see use uses used using set got get
has have had run ran created deleted updated added removed fixed merged reverted pinned bumped called returned returns
named name value values hash md5 sha1 sha256 base64 encoded decoded echo print export env then also now new old same
this that these those it its our my your their which where when what not no yes ok error failed warning info debug log
line file path test example like than but if else so after before between latest current previous next random string
text data hex bytes output input result response body payload header headers param params arg args field column row
return import class def raise yield await const let var print assert lambda self cls
""".split()  # noqa: SIM905
)
"""Words that stand before an id in prose or logs, not a vendor's name (``merged 3f2a...``, ``returned V1StGXR8...``)."""


def named_by_secret_word(window: str) -> bool:
    """Whether a word naming a secret (``key``, ``token``, ``api`` ...) stands in ``window`` with no public label
    after it: a key of a vendor no rule set names (``acme api key (prod) -> <value>``)."""
    words = _words(window)
    at = max((i for i, w in enumerate(words) if w in _NAMING_WORDS), default=-1)
    if at < 0 or (at > 0 and words[at - 1] in ("public", "publishable")):
        return False  # "public key": a key meant to be shown
    return not any(w in PUBLIC_LABELS for w in words[at + 1 :])


def named_before(text: str, start: int) -> bool:
    """Whether a vendor name or a secret word stands before ``start`` on its line (:data:`WINDOW` characters at
    most), no public label after it (:func:`named_by_vendor`, :func:`named_by_secret_word`)."""
    line_start = text.rfind("\n", 0, start) + 1
    window = text[max(line_start, start - WINDOW) : start]
    return named_by_vendor(window) or named_by_secret_word(window)


def named_after(after: str) -> bool:
    """Whether the text just after a value names it a secret (``<value> is the Acme api key``), no public label between."""
    m = _AFTER_RE.match(after)
    return m is not None and not any(w in PUBLIC_LABELS for w in _words(m.group("words")))


def _named_by_a_name(window: str, value: str) -> bool:
    """Whether a product's name stands right before a random token (``nitro wHDos6x7Q1UbJDVBjgerfK``): a word that is
    not a public label nor a word of prose or logs, and a value random enough (no hex, no UUID: those are ids)."""
    if _HEX_RE.fullmatch(value) or _UUID_RE.fullmatch(value) or _DOTTED_NAME_RE.fullmatch(value):
        return False
    parts = re.split(r"[-_.]", value)
    if len(parts) >= 3 and any(p.isalpha() and p.islower() and len(p) >= 4 for p in parts):
        return False  # a name with a version in it (ubuntu-22.04-x86_64-large)
    m = _NAME_RE.search(window)
    if m is None or m.group("name").lower() in _STOP or m.group("name").lower() in PUBLIC_LABELS:
        return False
    digits = sum(c.isdigit() for c in value)
    upper, lower = any(c.isupper() for c in value), any(c.islower() for c in value)
    random = digits >= 4 or (digits >= 2 and upper and lower) or _random_letters(value)
    return entropy(value) >= 3.5 and random


def _random_letters(value: str) -> bool:
    """20+ characters, both cases three times or more, a digit: random (``nNEvYwdpbi0RtYmDRFSFhWrkNgTn``), not a name."""
    upper, lower = sum(c.isupper() for c in value), sum(c.islower() for c in value)
    return (
        len(value) >= 20
        and upper >= 3
        and lower >= 3
        and any(c.isdigit() for c in value)
        and entropy(value) >= 4.0
        and not _CAMEL_NAME_RE.fullmatch(value)
    )


_ID_RE = lazyre.compile(
    r"(?i)(?<![A-Za-z0-9])(?:app|application|key|access[_ -]?key|api[_ -]?key|api|consumer|secret)[_ .-]?id"
    r"[\"']?\s*(?:[:=]\s*)?[\"']?(?P<value>[A-Za-z0-9_.+/-]{16,128})(?![\w+/=-])"
)
OAUTH_CLIENT_ID_RE = lazyre.compile(r"(?:Ov2\d|Iv2\d)li[A-Za-z0-9]{14}|Iv1\.[0-9a-f]{16}")
"""A GitHub OAuth app's or GitHub App's client id (``Ov23li…``, ``Iv23li…``, the older ``Iv1.<16 hex>``): public,
whatever its name says (``GITHUB_ID``; RFC 6749 §2.2)."""
_PAIRED_SECRET_RE = lazyre.compile(r"(?i)(?:secret|password|passwd|token|private[_ -]?key)[\"']?\s*(?:[:=]|is\b)")


def _paired_ids(text: str) -> Iterator[Span]:
    """An id printed beside its secret (``key_id=`` with ``secret=``, ``APP_ID=`` with ``APP_SECRET=``): half of
    the credential, redacted with it when the secret's label stands within 300 characters.

    An OAuth client id is kept, so ``client_id`` is not among the id words: RFC 6749 §2.2 says the client identifier
    "is not a secret" (every authorization URL carries it, and PayPal's and Google's browser SDKs print it); its client
    secret is still redacted."""
    for m in _ID_RE.finditer(text):
        value = m.group("value")
        if OAUTH_CLIENT_ID_RE.fullmatch(value):
            continue
        if not (_shape(value)[0] or (_HEX_RE.fullmatch(value) and len(value) >= 16)):
            continue
        near = text[max(0, m.start() - 300) : m.end() + 300]
        if _PAIRED_SECRET_RE.search(near):
            yield m.start("value"), m.end("value"), "credential-id"


def _no_name(_text: str, _start: int, _end: int) -> bool:
    return False


_USER_FLAG_RE = lazyre.compile(r"(?:^|\s)(?:-u|--user|--username|-U)(?:[ \t]+|=)[\"']?$")
"""A user flag just before a value (``curl -u``, ``--user=``): the value before its colon is the user name."""


def _user_is_key(user: str, text: str, at: int) -> bool:
    """:func:`.valueparts.user_is_key` of ``user`` and the password at ``text[at:]`` (up to a space or a quote)."""
    from .valueparts import user_is_key

    m = _PASSWORD_AT_RE.match(text, at)
    return user_is_key(user, m.group(0) if m else "")


_PASSWORD_AT_RE = lazyre.compile(r"[^\s\"']*")


def spans(text: str, *, a_name: Callable[[str, int, int], bool] = _no_name) -> Iterator[Span]:
    """Every value of ``text`` a vendor name or a secret word just before it (on its line), or a secret word just
    after it, names a key; a product's name right before a random token; an id printed beside its secret.

    ``a_name(text, start, end)`` says a value is a name of words, no vendor's key whatever vendor name stands before
    it (:func:`.vendornames.spans` passes :func:`.vendornames.a_name`; this module cannot import :mod:`.codenames`,
    which reads it)."""
    if "id" in text.lower():
        yield from _paired_ids(text)
    for m in _VALUE_RE.finditer(text):
        value = m.group("value").rstrip(".")
        if len(value) < 16:
            continue
        keyish, git_id = _shape(value)
        if not keyish and not _random_letters(value):
            continue
        start = m.start("value")
        line_start = text.rfind("\n", 0, start) + 1
        window = text[max(line_start, start - WINDOW) : start]
        end = start + len(value)
        if text.startswith(":", end) and _USER_FLAG_RE.search(window) and not _user_is_key(value, text, end + 1):
            continue  # ``curl -u <user>:<password>``: the user half names the account, the password is the secret
        line_end = text.find("\n", end)
        after = text[end : min(end + WINDOW, len(text) if line_end < 0 else line_end)]
        if not keyish:
            if _named_by_a_name(window, value) and not a_name(text, start, end):
                yield start, end, "vendor-key"
        elif named_by_vendor(window, git_id=git_id) and not a_name(text, start, end):
            yield start, end, "vendor-key"
        elif (not git_id and not value.isalpha() and named_by_secret_word(window)) or named_after(after):
            yield start, end, "labelled-secret"
        elif _named_by_a_name(window, value) and not a_name(text, start, end):
            yield start, end, "vendor-key"
