"""A key of a vendor no rule set names, found by its structure alone (docs/architecture.md §3).

Most vendors now issue keys as a short lowercase prefix that names the vendor
and the kind, a ``_`` or ``-``, then a random body: GitHub ``ghp_``, Stripe
``sk_live_``, Robinhood ``rh-api-``, SpectralOps ``spu-``, and a new vendor's
``zq_`` tomorrow. GitHub documents why ("Behind GitHub's new authentication token
formats", 2021): the prefix makes a token findable without its vendor's name, and
the random body keeps false positives low. This rule finds any such token:

- a prefix: one to three parts of 1 to 10 lowercase letters or digits (the first
  a letter), each followed by ``_`` or ``-`` (``zq_``, ``sk_live_``, ``rh-api-``);
- a body that reads random (:func:`random_body`): 28+ base62 characters mixing
  upper case, lower case and digits, not a camelCase name's words; or 32+ hex
  characters; or 32+ lowercase letters and digits with few vowels; each with
  the Shannon entropy a random string of its alphabet has;
- not inside a URL, a path or a longer name (``/``, ``.``, ``@`` glued before it); after
  ``=`` or ``:`` it is a value (``ZORBLY_AUTH=zq_…``).

Ids whose prefix a vendor documents as an id (Stripe ``cus_``, OpenAI ``asst_``
...) and digests named by their algorithm (``sha256-``) are public formats
(:mod:`.public`), dropped after every detector; prefixes that name a hash or an
id here (``sha1_``, ``md5-``, ``id_``, ``uuid-`` ...) are never taken.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre
from .rules import entropy

Span = tuple[int, int, str]

_BODY_RE = lazyre.compile(r"(?<=[_-])[A-Za-z0-9]{28,256}(?![\w./@+=-])")
"""A body: a run of 28+ letters and digits not glued to more token characters (a run is rare in prose, so this
cheap search comes first)."""
_PREFIX_RE = lazyre.compile(r"(?:^|(?<=[^\w./@+%#~-]))(?P<prefix>[a-z][a-z0-9]{0,9}[_-](?:[a-z0-9]{1,10}[_-]){0,2})$")
"""The prefix just before a body: one to three lowercase parts, each ending in ``_`` or ``-``."""
_PUBLIC_PREFIX_RE = lazyre.compile(
    r"(?:sha\d*|md5|blake\d*\w*|crc\d*|xxh\d*|hash|digest|checksum|etag|id|uuid|guid|oid|rev|commit|ref|build|run|"
    r"job|trace|span|request|req|session|sess|user|usr|org|team|project|proj|acct|account|cus|customer|order|txn|"
    r"img|image|file|doc|page|node|msg|message|evt|event|ami|snap|vol|vpc|subnet|sg|eni|i|v\d*|"
    r"fix|bugfix|hotfix|feat|feature|chore|release|revert|wip|renovate|dependabot|tmp|temp)[_-]",
)
"""A first prefix part that names a hash, an id, a version or a git branch, not a vendor's key (``sha1_``,
``trace-``, ``v2-``, ``fix-<commit>``, ``renovate-<hash>``: branch names carry a commit or a hash)."""
_WORDISH_RE = lazyre.compile(r"[a-z]{8}|[A-Z]{8}")
"""Eight letters of one case in a row: the words of a camelCase name, rare in a random mixed-case body (about 3%)."""
_WORD_PARTS_RE = lazyre.compile(r"[A-Z]?[a-z]{3,}")
"""The words of a camelCase name (``nameIsVeryLong``): in a random body such runs cover far less than half."""
_HEX_RE = lazyre.compile(r"[0-9a-f]+")
_REPEAT_RE = lazyre.compile(r"(.)\1{3}")
_FIRST_PART_RE = lazyre.compile(r"[a-z0-9]+[_-]")


def random_body(body: str) -> bool:
    """Whether ``body`` (letters and digits only) reads as a random key body, not a name or a number.

    Args:
        body: the part after the prefix.

    Returns:
        bool: True for 28+ base62 characters of all three kinds (a digit, three upper case, three lower case)
        whose camelCase words (``_WORD_PARTS_RE``) cover less than half and with no eight letters of one case in
        a row; for 32+ hex characters (6+ letters, 6+ digits) with entropy of 3.2 bits a character or more; for
        32+ lowercase letters and digits (4+ digits) whose letters are at most a third vowels (a word's are
        about two fifths). Never with four repeated characters in a row, or entropy under 3.5 outside hex.
    """
    if _REPEAT_RE.search(body):
        return False
    digits = sum(c.isdigit() for c in body)
    upper = sum(c.isupper() for c in body)
    lower = len(body) - digits - upper
    if upper and lower:
        if len(body) < 28 or not digits or upper < 3 or lower < 3 or _WORDISH_RE.search(body):
            return False
        return entropy(body) >= 3.5 and sum(len(w) for w in _WORD_PARTS_RE.findall(body)) * 2 < len(body)
    if upper or len(body) < 32:
        return False
    if _HEX_RE.fullmatch(body):
        return digits >= 6 and lower >= 6 and entropy(body) >= 3.2
    vowels = sum(c in "aeiou" for c in body)
    return digits >= 4 and vowels * 3 <= lower and entropy(body) >= 3.5


def spans(text: str) -> Iterator[Span]:
    """``(start, end, "vendor-token")`` of each prefixed random token in ``text`` (the prefix is redacted too).

    Args:
        text: any text.

    Returns:
        Iterator[Span]: one span for each token whose body reads random (:func:`random_body`).
    """
    for m in _BODY_RE.finditer(text):
        start = m.start()
        if start == 0 or text[start - 1] not in "_-":
            continue
        p = _PREFIX_RE.search(text, max(0, start - 34), start)
        if p is None:
            continue
        first = _FIRST_PART_RE.match(p.group("prefix"))
        if first and _PUBLIC_PREFIX_RE.fullmatch(first.group(0)):
            continue
        if random_body(m.group(0)):
            yield p.start(), m.end(), "vendor-token"
