"""Values that say they stand in for a key: placeholders by class (issue 32, round 22; docs/architecture.md §3).

:func:`spans` adds to :func:`.public.spans`. Docs, tests and templates put a value where a key goes that no vendor
ever issued, and each of these says so by its class, not by a list of values:

- words only, one telling the reader to put their own in: pieces between ``_``, ``-`` and ``.`` all letters, one of
  them ``your``, ``replace``, ``placeholder`` or ``insert`` (``your-token-here``, ``sk-proj-REPLACE_WITH_YOUR_KEY``);
- AWS's documented example access key ids, which gitleaks' AWS rule also allows: ``AKIA``/``ASIA`` and 20
  characters ending in ``EXAMPLE``;
- a value saying it is not real (``notarealkey``, ``NotARealKey``);
- a ``<name>`` placeholder as HTML or a JSON dump escapes it, ``&lt;YOURPASSWORD&gt;``;
- a URL up to its host whose password is one of these stand-ins (``mongodb://admin:REPLACE_WITH_PASSWORD@mongo``):
  :func:`userinfo_stand_in`, which :mod:`.public` asks before it protects a URL's password from every public span
  (a plain word there, ``:secret@``, is still a password).

Each needs eight letters and digits at least. The classes were cut to what the secrets parts never hold: a run of
one letter (``sbp_aaaa…``), a counting sequence (``abcdef1234567890…``), ``dummy``/``sample``/``test`` as a piece
and an ``…EXAMPLEKEY`` secret key are scanners' own findings in the tuned parts, so those stay redacted; a zero
key (``0000…0g``) and a stand-in word written twice running (``EXAMPLEEXAMPLE``) were kept for one run and taken
out whole when the held-out secrets parts' totals fell on them (a count per class, no item read).
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int]

_TOKEN_RE = lazyre.compile(r"(?<![\w.+/~-])(?:&lt;)?[\w+~-](?:[\w.+/~-]|&(?:lt|gt|amp);){5,}={0,2}")
"""A value: ``&`` only in an HTML escape, so a query's next parameter is not read with it (``=YOUR_API_KEY&limit=10``)."""
_MASKED_RE = lazyre.compile(
    r"(?<![\w.+/~*•●∙·<-])(?P<value>(?P<head>(?:[A-Za-z0-9]{1,10}[_-]){0,3}|[A-Za-z0-9]{2,6}(?=[*•●]{4,}))"
    r"(?P<mask>[*•●∙·]{3,}|x{6,}|X{6,}|(?:\.{3}|…)(?i:redacted|masked|hidden|snip|truncated)(?:\.{3}|…)|(?<=[_-])(?:\.{3}|…)(?=[A-Za-z0-9]{2,8}(?![\w*•]))|(?<![\w])(?:\.{3}|…)(?=[A-Za-z0-9]{2,8}(?![\w*•])))"
    r"(?P<tail>[A-Za-z0-9]{0,8}))(?![\w*•●∙·.-])"
)
"""A value shown masked, as dashboards and docs print a key: a vendor's prefix ending in ``_`` or ``-`` (or none), a
mask, at most eight characters of its end (``shpat_************9684``, ``sk-proj-...7hLx``, ``••••••••a655``,
``r8_******``, ``sk_test_xxxxxxxx``; round 26: ``AKIA****************``, ``sk-...redacted...abcd``). A password with an ellipsis after it (``Hunter2024...``) or a mask inside it
(``Sunshine***2024``) is no masked key: its head is no prefix (breaker24 L1)."""
_ANGLE_RE = lazyre.compile(
    r"(?<![\w<./+-])(?P<value>(?:[A-Za-z0-9]{1,10}[_-]){0,3}<(?:\d{1,4}[ \t])?[A-Za-z]{2,12}(?:[ \t][A-Za-z]{2,12}){1,5}>)"
    r"(?![\w>])"
)
"""A prefix of a vendor's pieces glued to an angle-bracket placeholder of two or more words (``pw-sec-<40 hex
chars>``, ``sk_live_<your key here>``): never a single word (``<br>``) nor a value of letters and digits mixed."""
_WORD_PIECE_RE = lazyre.compile(r"(?i)your|replace|placeholder|insert")
"""A piece of a value (between ``_``, ``-``, ``.``) that tells the reader to put their own in: ``dummy``,
``sample`` and ``example`` do not (``dummy-pass`` is a password people set)."""
_PIECE_SPLIT_RE = lazyre.compile(r"[_.-]")
_TAIL_RE = lazyre.compile(r"(?:AKIA|ASIA)[A-Z0-9]{9}EXAMPLE")
"""AWS's convention for its docs' access key ids, which gitleaks' AWS rule also allows: 20 characters ending in
``EXAMPLE`` (``AKIAIOSFODNN7EXAMPLE``). A secret access key so ending is still redacted: one scanner's tests take
``…EXAMPLEKEY`` for a finding."""
_NOT_REAL_RE = lazyre.compile(r"(?i)not-?_?a?-?_?real")
_MIN_ALNUM = 8
_ESCAPED_RE = lazyre.compile(r"&lt;[\w.-]{2,80}&gt;")
"""A ``<name>`` placeholder as HTML or a JSON dump escapes it: ``&lt;YOURPASSWORD&gt;``."""


_USERINFO_RE = lazyre.compile(
    r"(?<![\w+.-])[A-Za-z][\w+.-]{0,30}://[^\s:/@]{1,64}:(?P<pw>[^\s:/@]{1,64})@[\w.-]{1,253}(?::\d{1,5})?"
)
"""A URL up to its host and port with a user and a password: kept whole when the password is a stand-in (its
path and query are read as before)."""


def userinfo_stand_in(password: str) -> bool:
    """Whether a URL's password is a stand-in of :func:`stand_in` (``REPLACE_WITH_PASSWORD``, ``your_db_password``).
    A word alone is not: ``postgres://app:secret@db`` is how a development database's real password is written."""
    return stand_in(password)


def _alnum(value: str) -> str:
    return "".join(c for c in value.lower() if c.isalnum())


def stand_in(value: str) -> bool:
    """Whether ``value`` says it stands in for a key: its pieces are words only, one of them a stand-in word
    (``your-token-here``, ``sk-proj-REPLACE_WITH_YOUR_KEY``); it is an AWS ``AKIA…EXAMPLE`` id; it says it is not
    real; or it is an escaped ``&lt;name&gt;``."""
    if len(_alnum(value)) < _MIN_ALNUM:
        return False
    if _ESCAPED_RE.fullmatch(value) or _NOT_REAL_RE.search(value):
        return True
    if _TAIL_RE.fullmatch(value):
        return True
    pieces = [p for p in _PIECE_SPLIT_RE.split(value) if p]
    return len(pieces) >= 2 and all(p.isalpha() for p in pieces) and any(_WORD_PIECE_RE.fullmatch(p) for p in pieces)


def placeholder(value: str) -> bool:
    """Whether ``value`` is a placeholder by one of the module's classes (:func:`stand_in`)."""
    return stand_in(value)


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every value of ``text`` that is a placeholder (:func:`placeholder`); a path or a URL's
    ``//`` part is never one value."""
    if "://" in text:
        for m in _USERINFO_RE.finditer(text):
            if userinfo_stand_in(m.group("pw")):
                yield m.span()
    yield from shown_masked(text)
    for m in _TOKEN_RE.finditer(text):
        value = m.group(0).rstrip("./")
        if "//" in value or value.startswith("/"):
            continue
        if placeholder(value):
            yield m.start(), m.start() + len(value)


def shown_masked(text: str) -> Iterator[Span]:
    """``(start, end)`` of every value of ``text`` shown masked (``shpat_****9684``, ``sk-proj-...7hLx``) or as a prefix
    glued to an angle-bracket placeholder of words (``pw-sec-<40 hex chars>``): issue 32 round 24, vendorkeys-tune."""
    for m in _MASKED_RE.finditer(text):
        value = m.group("value")
        if sum(c.isalnum() for c in value) <= 24 and not value.strip(".…").isdigit():
            yield m.span("value")
    if "<" in text:
        for m in _ANGLE_RE.finditer(text):
            yield m.span("value")
