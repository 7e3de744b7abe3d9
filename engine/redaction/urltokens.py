"""Tokens that stand in a URL where no label names them (docs/architecture.md §3).

Issue 32 round 25, classes read on ``vendorkeys-tune`` (its held half was not read):

- a key given as the URL's user with an empty password, ``https://<key>:@api.example.com/…``: HTTP basic auth
  with the API key as the user name, as Stripe's and many payment APIs' docs print it; the user name counts when
  it reads as a credential (16+ characters, letters and digits, random) and the colon is there: a user with no
  password (``https://contoso-2024@dev.azure.com``, ``git@``) is an account name (breaker B25R-15);
- an ingest or hook URL's last path segment that is a long random token (``https://in.example.dev/h/<64 hex>``,
  ``…/hook/<token>``, ``…/ingest/<token>``): a capability URL, whoever holds it can post. The segment is 24+
  characters with digits and letters; a numeric id (``/hooks/123456789``), a page's CamelCase name and hex after
  an everyday word (``/ingest/<trace id>``, ``/notify/<commit>``) are not one.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre
from .rules import entropy, looks_like_credential

Span = tuple[int, int, str]

_USER_KEY_RE = lazyre.compile(r"://(?P<value>[A-Za-z0-9_.~-]{16,256}):@(?=[\w-])")
_HOOK_PATH_RE = lazyre.compile(
    r"https?://[\w.-]{1,253}(?::\d{1,5})?/(?:[\w.-]{1,64}/){0,4}?(?P<word>h|hook|hooks|ingest|notify|trigger|catch)/"
    r"(?P<value>[A-Za-z0-9_-]{24,256})(?![\w/-])"
)


_CAMEL_WORD_RE = lazyre.compile(r"[A-Z][a-z]{2,}")
_HEX_RE = lazyre.compile(r"[0-9a-fA-F]+")


def spans(text: str) -> Iterator[Span]:
    """Every key given as a URL's user and every hook URL's token segment in ``text`` (module doc).

    Args:
        text: any text.

    Returns:
        Iterator of ``(start, end, type)``: ``url-user-key`` or ``webhook-url``.
    """
    if "://" not in text:
        return
    for m in _USER_KEY_RE.finditer(text):
        value = m.group("value")
        digits = sum(c.isdigit() for c in value)
        if digits >= 2 and sum(c.isalpha() for c in value) >= 8 and looks_like_credential(value, min_len=16):
            yield m.start("value"), m.end("value"), "url-user-key"
    for m in _HOOK_PATH_RE.finditer(text):
        value = m.group("value")
        if value.isdigit() or sum(c.isdigit() for c in value) < 4 or sum(c.isalpha() for c in value) < 8:
            continue
        if value.count("-") + value.count("_") >= 3 or len(_CAMEL_WORD_RE.findall(value)) >= 2:
            continue  # a page's slug or name (``/hooks/how-to-add-a-webhook-2024``, ``TriggerEventsReference2024``)
        if _HEX_RE.fullmatch(value) and m.group("word") not in ("h", "hook", "hooks"):
            continue  # hex after an everyday path word: a trace id or a commit as often as a token (B25R-16)
        if entropy(value) >= 3.5:
            yield m.start("value"), m.end("value"), "webhook-url"
