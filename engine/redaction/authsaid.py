"""Passwords said as "auth", "login", "sudo" or an unlock code, and Redis' ``AUTH <pw>`` (docs/architecture.md §3).

Issue 32, breaker14's B14-3: these words name a password as often as they name
a feature, so a value after them is taken only when it has a secret's shape
(:func:`secret_shape`: 8+ characters of three kinds or more, no path, file,
version, address, host name, date or identifier). The forms:

- a word, what it opens, a link, the value: "the redis auth is <pw>",
  "grafana auth: <pw>", "the login for grafana is admin <pw>", "sudo on the
  build box is <pw>", "the unlock code is <pw>"; with no link the value must
  end its clause ("the redis auth <pw>.");
- the value first: "<pw> is grafana's login";
- Redis' command: ``AUTH <pw>``, ``AUTH <user> <pw>`` (upper case, as Redis writes it);
- a bare ``-p <pw>`` ("connect with -p <pw>");
- an env or config name ending in ``AUTH`` or ``LOGIN``: ``REDIS_AUTH=<pw>``, ``ADMIN_LOGIN=<pw>``.

The same words before a file path (``auth/login.py:14``), a URL path, an identifier (``login_required``,
``authMiddleware``), a version or plain words stay verbatim (B11-1).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre
from .rules import _EMAIL_RE, _VERSION_RE, char_classes, looks_like_credential
from .speech import said_end

Span = tuple[int, int, str]

SAID_VALUE = r"(?P<q>['\"])?(?P<value>(?(q)[^'\"\s]{8,128}|[^\s'\"`]{8,128}))(?(q)(?P=q))"
"""A value: quoted or a run without spaces (:func:`said_value` trims an unquoted one); shared with :mod:`.credsaid`."""
_WORD = r"(?<![\w./\\-])(?P<label>auth|login|log-in|sign-?in|sudo|unlock\s+(?:code|key|phrase))(?![\w/\\.-])"
_QUALIFIER = r"(?:\s+(?:for|on|to|at|in|of|into)\s+[^\n:=.,;!?'\"`()]{1,40}?)?"
_LINK = r"(?P<link>\s*[:=]\s*|\s+(?:is|was|are|is\s+now|becomes)\s+(?:(?:still|now|just|the)\s+)?|(?P<sp>[ \t]+))"
_USER = r"(?:(?P<user>[\w.@+-]{2,32})[ \t]+)?"
_SAID_RE = lazyre.compile(r"(?i)" + _WORD + _QUALIFIER + _LINK + _USER + SAID_VALUE)
_BEFORE_RE = lazyre.compile(
    r"(?i)(?:(?<=\s)|^)" + SAID_VALUE + r"\s+(?:is|was)\s+(?:(?:the|my|our|your|its)\s+)?(?:[\w'’.-]{1,30}\s+){0,3}?"
    r"(?:auth|login|sudo|sign-?in)(?:\s+(?:code|password|pass|pw|secret))?(?=\s*(?:[.,;!?)]|$))"
)
_REDIS_RE = lazyre.compile(r"(?<![\w-])AUTH[ \t]+(?:(?P<user>[\w.@-]{1,64})[ \t]+)?" + SAID_VALUE + r"(?=[\s;,.]|$)")
_FLAG_RE = lazyre.compile(r"(?<![\w-])-p[ \t]+" + SAID_VALUE + r"(?=\s|$)")
_ENV_RE = lazyre.compile(
    r"(?i)(?<![\w$.-])(?P<name>[A-Za-z][\w]{0,40}[_.-](?:auth|login)|auth|login)[\"']?[ \t]*[:=][ \t]*" + SAID_VALUE
)
_CLAUSE_END_RE = lazyre.compile(r"[ \t]*(?:[.,;!?)]|\n|$)")
_KEYS = ("auth", "login", "log-in", "signin", "sign-in", "sudo", "unlock", "-p")

_PATHISH_RE = lazyre.compile(r"[\w.-]*\.[A-Za-z]{1,5}(?::\d+){0,2}|[\w.-]+:\d+(?::\d+)?")
"""A file name, optionally with a line (``login.py:14``), or a host and port (``db:5432``)."""
_HOST_RE = lazyre.compile(r"[a-z0-9]+(?:[._-][a-z0-9]+)+")
_IDENT_RE = lazyre.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_TOKEN_RE = lazyre.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_NAMED_RE = lazyre.compile(r"(?=[\w.-]*[a-z]{4})[\w.-]*")
r"""A name with a word in it and no symbol but ``-``, ``_`` or ``.`` (``OAuth2-based``, ``Sso_login1``): a fullmatch,
four lower-case letters looked for ahead (``[\w.-]*[a-z]{4}[\w.-]*`` tried them at every place, each time reading on
to the end: its square in a long value's length; docs/architecture.md §3)."""
_KEYVAL_RE = lazyre.compile(r"[A-Za-z_][\w.-]*[=:].*")
"""A key and its value (``untrusted=True``, ``no:cacheprovider``): a setting, not a password."""
_UPPER_NAME_RE = lazyre.compile(r"[A-Z0-9]+(?:[-_.][A-Z0-9]+)+|[A-Za-z][\w.-]*\([\w ,.-]*\)")
"""An algorithm or a scheme (``JWT-HS256``, ``RS256-PSS``) or a name and its kind (``Okta(SAML2)``)."""
_DATE_RE = lazyre.compile(r"\d{4}-\d\d-\d\d.*|\d\d?:\d\d.*")


def _identifier(value: str) -> bool:
    """Whether ``value`` is a name (``AuthMiddleware2``, ``login_v2``, ``John.Doe2``): words of three letters or more."""
    if not _IDENT_RE.fullmatch(value):
        return False
    words = [t for t in _TOKEN_RE.findall(value) if not t.isdigit()]
    return bool(words) and all(len(w) >= 3 for w in words)


def secret_shape(value: str) -> bool:
    """Whether ``value`` has a secret's shape: 8 to 128 characters of three kinds or more (lower, upper, digit,
    symbol), reading as a credential, and no path, URL, file, address, host, version, date or identifier.

    Args:
        value: the value said after the word.

    Returns:
        bool: True when it reads as a password.
    """
    if not 8 <= len(value) <= 128 or value.startswith(("$", "%", "<", "{", "[", "(", "/", "~", ".", "-")):
        return False
    if ("/" in value or "\\" in value) and not any(c in value for c in "!#$%^&*+=?@~"):
        return False
    if "://" in value or _VERSION_RE.fullmatch(value) or _EMAIL_RE.fullmatch(value) or _DATE_RE.fullmatch(value):
        return False
    if _PATHISH_RE.fullmatch(value) or _HOST_RE.fullmatch(value) or _identifier(value) or _NAMED_RE.fullmatch(value):
        return False
    if _UPPER_NAME_RE.fullmatch(value):
        return False
    if _KEYVAL_RE.fullmatch(value) and not any(c in value for c in "!#$%^&*+?@~"):
        return False
    classes = char_classes(value)
    return classes >= 3 and looks_like_credential(value, min_len=8)


def said_value(m: re.Match[str]) -> str:
    """The password a match of :data:`SAID_VALUE` holds: the quoted value, or the run :func:`.speech.said_end` trims."""
    return m.group("value") if m.group("q") else said_end(m.group("value"))


def _emit(m: re.Match[str]) -> Iterator[Span]:
    """The value of ``m`` when it has a secret's shape."""
    value = said_value(m)
    if secret_shape(value):
        start = m.start("value")
        yield start, start + len(value), "password"


def spans(text: str) -> Iterator[Span]:
    """Every span of ``text`` that a password said as "auth", "login", "sudo", an unlock code or ``AUTH`` takes.

    Args:
        text: any text.

    Returns:
        Iterator[Span]: ``(start, end, "password")`` spans.
    """
    low = text.lower()
    if not any(k in low for k in _KEYS):
        return
    for m in _SAID_RE.finditer(text):
        if m.group("sp") is not None and not m.group("q"):  # no link: the value must end its clause
            ends = m.group("value")[-1] in ".,;!?" or _CLAUSE_END_RE.match(text, m.end())
            if m.group("user") or not ends:
                continue
        yield from _emit(m)
    for regex in (_BEFORE_RE, _ENV_RE, _REDIS_RE, _FLAG_RE):
        for m in regex.finditer(text):
            yield from _emit(m)
