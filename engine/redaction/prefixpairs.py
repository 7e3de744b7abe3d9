"""An id printed beside a secret of the same name: ``acme_id`` with ``acme_secret`` (docs/architecture.md §3).

Issue 32 round 23 (a class read on a tuning part, trufflehog's detector tests). :mod:`.context` takes an id as half of
a credential when a word says so (``client_id``, ``app_id``, ``key_id`` beside a secret's label). A vendor's pair is as
often named by the vendor alone: ``"hive_id": "…"`` and ``"hive_secret": "…"``, ``ACME_ID=`` and ``ACME_KEY=``, a
config's ``foo.id`` and ``foo.token``. The id then unlocks nothing alone but names whose secret the other value is,
and trufflehog's, Kingfisher's and gitleaks' rules take both.

- a name ``<prefix>_id`` (``_``, ``-``, ``.`` or camel case: ``hiveId``) given a value, and within :data:`NEAR`
  characters a name ``<prefix>_secret``/``_key``/``_token``/``_password`` (the same prefix, any case) given one;
- the id's value has a key's shape (:func:`.context._shape`: 16+ characters mixing letters and digits, not a slug or
  a path) or is 16+ hex digits, and is no UUID (most ids of records are);
- the prefix is not an entity's name (:data:`ENTITY_PREFIXES`: ``user_id`` beside ``user_token`` names a user, a
  public id), nor a word :mod:`.context` reads already (``client``, ``app``, ``key`` ...), nor ends in ``client``
  (``ACME_CLIENT_ID``: an OAuth client id is not a secret, RFC 6749 §2.2).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre
from .context import _HEX_RE, _UUID_RE, OAUTH_CLIENT_ID_RE, _shape

Span = tuple[int, int, str]

NEAR = 300
"""How far the secret's name may stand from the id, either side, in characters (a config block, a JSON object)."""

ENTITY_PREFIXES = frozenset(
    """
user users account accounts org organization project tenant team workspace customer group member owner device order
request trace span correlation transaction message event file object record item node instance region zone session
client app application key api consumer secret access public private
""".split()  # noqa: SIM905
)
"""Prefixes whose ``_id`` names a record, a person or a place (public), or that :mod:`.context` reads already."""

_ID_RE = lazyre.compile(
    r"(?<![A-Za-z0-9_.-])[\"']?(?P<prefix>[A-Za-z][A-Za-z0-9]{1,30}(?:[_-][A-Za-z0-9]{1,30}){0,3}?)(?:[_.-](?:id|ID|Id)|Id|ID)[\"']?[ \t]*[:=][ \t]*"
    r"[\"']?(?P<value>[A-Za-z0-9_.+/-]{16,128})(?![\w+/=-])"
)


def _secret_named(text: str, prefix: str, start: int, end: int) -> bool:
    """Whether ``<prefix>`` + a secret word, given a value, stands within :data:`NEAR` characters of ``start..end``."""
    near = text[max(0, start - NEAR) : end + NEAR]
    pattern = r"(?i)(?<![A-Za-z0-9])" + re.escape(prefix) + r"[_.-]?(?:secret|key|token|password)[\"']?[ \t]*[:=]"
    return re.search(pattern, near) is not None


def spans(text: str) -> Iterator[Span]:
    """``(start, end, "credential-id")`` of each ``<prefix>_id`` value printed beside ``<prefix>_secret`` (or key ...).

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the id's value span; nothing for a text without both an ``id`` and a secret word.
    """
    low = text.lower()
    if "id" not in low or not any(w in low for w in ("secret", "key", "token", "password")):
        return
    for m in _ID_RE.finditer(text):
        prefix, value = m.group("prefix"), m.group("value")
        if prefix.lower() in ENTITY_PREFIXES or _UUID_RE.fullmatch(value):
            continue
        if prefix.lower().endswith("client") or OAUTH_CLIENT_ID_RE.fullmatch(value):
            continue  # ``PAYPAL_CLIENT_ID``: an OAuth client id, public (RFC 6749 §2.2; :func:`.context._paired_ids`)
        if not (_shape(value)[0] or (_HEX_RE.fullmatch(value) and len(value) >= 16)):
            continue
        if _secret_named(text, prefix, m.start(), m.end()):
            yield m.start("value"), m.end("value"), "credential-id"
