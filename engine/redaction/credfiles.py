"""Passwords in the fields of documented credential formats (docs/architecture.md §3).

Issue 32 round 26, classes found by a hostile trial (breaker26). Each format says which field is the secret, so
the value is taken by its place, whatever it looks like (a dictionary word is still a password there); a ``.pgpass``
line is :mod:`.placed`'s:

- a Wi-Fi QR code's payload, ``WIFI:T:WPA;S:<ssid>;P:<password>;;`` (the ZXing ``WIFI:`` scheme every phone camera
  reads): the ``P:`` field, ``\\;`` escapes read; the SSID stays;
- an Oracle JDBC URL, ``jdbc:oracle:thin:<user>/<password>@…`` (Oracle's JDBC docs): the part between ``/`` and
  ``@``; the user stays;
- a netrc entry (netrc(5)): the ``password`` and ``account`` tokens' values after ``machine <host>`` (``account``
  supplies "an additional account password"); ``login`` and the host stay;
- ``iwconfig <dev> key [s:]<key>`` (iwconfig(8)): the WEP key, ASCII after ``s:`` or hex; ``off``/``on``/``open``/
  ``restricted`` are modes, not keys;
- an SNMP community string said on a line naming SNMP (``community: <string>``, ``community string is <string>``)
  with a digit in it: RFC 1157's community is the shared secret of v1/v2c; the defaults ``public`` and ``private``
  and words ("community edition") stay.

A netrc entry starts its line (or follows ``netrc:``), so prose with "machine" in it is not read as one; a field's
value built by code (``P:\\(password)``, ``";P:" + pw``) is not a value.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre
from .spanends import line_at

Span = tuple[int, int, str]

_WIFI_RE = lazyre.compile(r"(?<![A-Za-z])WIFI:[^\n]*?(?<=[:;])P:(?P<v>(?:\\.|[^;\\\n]){1,128})")
_ORACLE_RE = lazyre.compile(r"(?i)\bjdbc:oracle:(?:thin|oci8?):(?P<user>[\w$#.]{1,64})/(?P<v>[^@\s/\"']{1,128})@")
_NETRC_ENTRY_RE = lazyre.compile(
    r"(?im)(?:^[ \t]*(?:[-*][ \t]+)?|netrc[^\n]{0,40}?[:`][ \t]*`?|\n)machine[ \t\n]+\S+(?P<body>(?:(?![ \t\n]+(?:machine|default)\b)[ \t\n]+\S+){1,8})"
)
_NETRC_FIELD_RE = lazyre.compile(r"(?<!\S)(?P<field>password|account|login)[ \t\n]+(?P<v>\S{1,256})")
_IWCONFIG_RE = lazyre.compile(r"\biwconfig\b[^\n|;&]*?[ \t]key[ \t]+(?:\[\d\][ \t]+)?(?:s:)?(?P<v>[^\s;&|]{1,64})")
_IW_MODES = frozenset({"off", "on", "open", "restricted", "enc", "[1]", "[2]", "[3]", "[4]"})
_COMMUNITY_RE = lazyre.compile(
    r"(?i)\bcommunity(?:[ _-]?(?:string|name))?(?:[ \t]*[:=][ \t]*|[ \t]+is[ \t]+)[\"'`]?(?P<v>[^\s\"'`,;()]{4,64})"
)
_COMMUNITY_DEFAULTS = frozenset({"public", "private", "string", "strings", "name", "names", "is", "for"})
_STAND_INS = frozenset({"password", "passwd", "secret", "xxx", "xxxx", "changeme", "<password>", "*", "****"})


def _field_ok(value: str) -> bool:
    if not value or value.lower() in _STAND_INS or value.startswith(("$", "<", "{", "%", "\\(", "#{", '"', "'")):
        return False
    return not any(c in value for c in "+`") and "\\(" not in value and "#{" not in value  # code building the string


def _netrc(text: str) -> Iterator[Span]:
    for entry in _NETRC_ENTRY_RE.finditer(text):
        fields = list(_NETRC_FIELD_RE.finditer(text, entry.start("body"), entry.end("body")))
        if not any(f.group("field") in ("login", "password") for f in fields):
            continue  # "machine learning account …": no netrc entry without login or password
        for f in fields:
            if f.group("field") != "login" and _field_ok(f.group("v")):
                yield f.start("v"), f.end("v"), "password"


def spans(text: str) -> Iterator[Span]:
    """``(start, end, "password")`` of each secret field of the formats above in ``text``.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the field's value span; nothing for a text holding none of the formats' marks.
    """
    if "WIFI:" in text:
        for m in _WIFI_RE.finditer(text):
            if _field_ok(m.group("v")):
                yield m.start("v"), m.end("v"), "password"
    low = text.lower()
    if "jdbc:oracle" in low:
        for m in _ORACLE_RE.finditer(text):
            if _field_ok(m.group("v")):
                yield m.start("v"), m.end("v"), "password"
    if "machine" in text:
        yield from _netrc(text)
    if "iwconfig" in text:
        for m in _IWCONFIG_RE.finditer(text):
            if m.group("v").lower() not in _IW_MODES and _field_ok(m.group("v")):
                yield m.start("v"), m.end("v"), "password"
    if "community" in low and "snmp" in low:
        for m in _COMMUNITY_RE.finditer(text):
            value = m.group("v")
            value = value.rstrip(".!?:")
            named = "snmp" in line_at(text, m.start()).lower() and value.lower() not in _COMMUNITY_DEFAULTS
            if named and _field_ok(value) and any(c.isdigit() for c in value):  # "community edition.": words stay
                yield m.start("v"), m.end("v"), "password"
