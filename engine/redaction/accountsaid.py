"""Passwords said as the thing they open: a wifi, a root or admin account, a tool's admin login (docs/architecture.md §3).

breaker20's B20-5 (issue 32, round 12): "the office wifi is <pw>", "wifi: <pw>",
"guest network: <ssid> / <pw>", "the mysql root on the staging box is <pw>" and
"jenkins: admin <pw>" name no password word, so the speech rules left them. These
words name a network, an account or a tool as often as a password, so a value is
taken only when it has a secret's shape (:func:`.authsaid.secret_shape`: 8+
characters of three kinds or more, no path, file, version, address, host, date or
identifier) and ends its clause (a name said there runs on: "the wifi is FRITZ!Box
7590"). It must not read as a name either (words and digits joined by ``-`` or
``_``: a network's ``Office-Guest``, ``TP-Link_5G3A``, ``Vodafone-A1B2C3``, a team's ``DB-Team-2``).
The forms:

- a wifi, what it is for, a link, the value: "the office wifi is <pw>", "wifi: <pw>",
  "the guest network at the shop: <ssid> / <pw>", "wlan = <pw>";
- a root or admin account, what it is on, a link, the value: "the mysql root on the
  staging box is <pw>", "the admin account for grafana: <pw>" ("the root cause is …",
  "the admin is Bob" are no accounts said with a secret);
- a tool, a colon, a well-known account name, the value: "jenkins: admin <pw>",
  "staging db: postgres <pw>".
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre
from .authsaid import SAID_VALUE, said_value, secret_shape

Span = tuple[int, int, str]

_QUALIFIER = r"(?:[ \t]+(?:for|on|at|in|of|to)[ \t]+[^\n:=.,;!?'\"`()]{1,40}?)?"
_LINK = r"(?:[ \t]*[:=][ \t]*|[ \t]+(?:is|was|is[ \t]+now|'s)[ \t]+|’s[ \t]+)"
_WIFI_RE = lazyre.compile(
    r"(?i)(?<![\w./-])(?:wi-?fi|wlan|wireless(?:[ \t]+network)?|guest[ \t]+(?:wi-?fi|network)|hotspot)(?![\w/-])"
    + _QUALIFIER
    + _LINK
    + r"(?:(?P<ssid>[^\s/'\"]{1,32})[ \t]*/[ \t]*)?"
    + SAID_VALUE
)
_ACCOUNT_RE = lazyre.compile(
    r"(?i)(?<![\w./@-])(?:root|admin|administrator|superuser|sa)(?:[ \t]+(?:account|user|login))?(?![\w/@.-])"
    + _QUALIFIER
    + _LINK
    + SAID_VALUE
)
_TOOL_USER_RE = lazyre.compile(
    r"(?im)(?:^|(?<=[.;!?][ \t]))[ \t]*(?:the[ \t]+)?[\w.-]{2,30}(?:[ \t]+[\w.-]{2,30})?[ \t]*:[ \t]*"
    r"(?:root|admin|administrator|sa|superuser|postgres|ubuntu|ec2-user|pi|elastic|jenkins|deploy|guest)"
    r"(?:[ \t]*/[ \t]*|[ \t]+)" + SAID_VALUE
)
_NAME_RE = lazyre.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+")
"""A name: words and digits joined by ``-`` or ``_`` and no other symbol (``Office-Guest``, ``TP-Link_5G3A``,
``DB-Team-2``): a network's or a team's, not a password said there."""
_UNIT_RE = lazyre.compile(r"(?i)\d(?:\.\d+)?[ \t]*(?:[GM]Hz|[GMK]bps|dBm)")
"""A band or a speed (``2.4GHz+5GHz``, ``300Mbps``): what a wifi is, not its password."""
_CLAUSE_END_RE = lazyre.compile(r"[ \t]*(?:[.,;!?)]|\n|$|[ \t](?:and|but|so)\b)")
_KEYS = ("wifi", "wi-fi", "wlan", "wireless", "guest", "hotspot", "root", "admin", "sa", "superuser", ":")


def _emit(m: re.Match[str], text: str) -> Iterator[Span]:
    """The value of ``m`` when it has a secret's shape, ends its clause and reads as no name."""
    value = said_value(m)
    end = m.start("value") + len(value)
    if not m.group("q") and not _CLAUSE_END_RE.match(text, end):
        return
    if _NAME_RE.fullmatch(value) or _UNIT_RE.search(value):
        return
    if secret_shape(value):
        yield m.start("value"), end, "password"


def spans(text: str) -> Iterator[Span]:
    """Every password ``text`` says as the wifi, account or tool login it opens (the module's forms).

    Args:
        text: any text.

    Returns:
        Iterator[Span]: ``(start, end, "password")`` spans.
    """
    low = text.lower()
    if not any(k in low for k in _KEYS):
        return
    if "wi" in low or "wlan" in low or "guest" in low or "hotspot" in low:
        for m in _WIFI_RE.finditer(text):
            yield from _emit(m, text)
    if "root" in low or "admin" in low or "sa" in low or "superuser" in low:
        for m in _ACCOUNT_RE.finditer(text):
            yield from _emit(m, text)
    if ":" in text:
        for m in _TOOL_USER_RE.finditer(text):
            yield from _emit(m, text)
