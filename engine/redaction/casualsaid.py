"""Passwords, wifi keys and codes said casually, in shapes :mod:`.speech` and :mod:`.said` do not read.

breaker24's B24-2, B24-3 and B24-9 (issue 32, round 13; docs/architecture.md §3):

- a wifi or network key, or a wifi code, said with its link: "The guest wifi key is
  lobby-hunter-22", "the network key for HomeNet is sunflower-river-42" (Windows' "network
  security key"), "wifi code: sunflower-river-42" (the value must read as a credential or
  dashed words, so "the wifi key is on the router" stays), or spaced words :mod:`.phrases` reads as
  a passphrase ("the wifi key is apple banana cherry");
- Japanese said casually: a comma or an arrow as the link ("ルーターのパスワード、<pw>だよ",
  "パスワード→<pw>"), the everyday short form パス ("パスは hana-yama-42"; パス is also a file's
  path, so its value must read as a credential, never ``/usr/bin``), "the key's number"
  (鍵の番号は4821) and 暗証番号 with a space before its digits;
- Spanish said casually: "mi NIP es 4821" (NIP: the PIN in Mexico and Québec), "la contra del
  wifi es <pw>" (la contra: contraseña's short form);
- a door's, a gate's or a garage's code with no link ("door code 4821#", "garage code 4821";
  the ``#`` that ends a keypad entry counts), and a lock's combination of dashed numbers
  ("the safe combination is 12-34-56") when the line names what it opens.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from . import lazyre
from .speech import _ok

Span = tuple[int, int, str]

_rx = cache(re.compile)
"""A rule's pattern compiled on first use (a line holding its words)."""

_VALUE = r"(?P<q>[\"'“「`])?(?P<value>[^\s\"'”」`]{4,64})(?(q)[\"'”」`])"
_WIFI = (
    r"(?i)\b(?:wi-?fi|wlan|wpa[23]?|wireless|hotspot|router|network(?:[ \t]+security)?)(?:[ \t]+(?:network|security))?"
    r"[ \t]+(?:key|code)\b(?:[ \t]+(?:for|of|on|to|at)[ \t]+[^\n:=：.;!?]{1,30}?)?"
    r"(?:[ \t]+(?:is|was|is[ \t]+now)[ \t]+|[ \t]*[:=：][ \t]*)" + _VALUE
)
"""A wifi or network key, or a wifi code, and a link, then its value."""
_JA_WORDS = r"(?:パスワード|パスコード|暗証番号|合言葉|パス|PW|pw)"
_JA = (
    r"(?:(?<=[\u3000-\u9fff\uff00-\uffef])|(?<![^\s:：(（「『]))"
    + _JA_WORDS
    + r"(?P<link>[ \t]*(?:、|，|,|→|->|=>|⇒|は|って)[ \t]*)"
    r"(?P<value>[\x21-\x5f\x61-\x7e]{4,64}?)(?=だよ|だ|です|ね|よ|。|、|！|!|[ \t]|$|[\u3000-\u9fff\uff00-\uffef])"
)
"""A Japanese password word, a casual link (a comma, an arrow, は, って) and an ASCII value up to a copula or CJK."""
_JA_PIN = (
    r"(?:鍵|カギ|かぎ|キー|ドア|金庫|ロッカー)の(?:番号|暗証番号|コード)(?:[ \t]*(?:は|、|:|：|→)[ \t]*)(?P<value>\d{4,8})(?!\d)|"
    r"暗証番号[ \t]+(?P<v2>\d{4,8})(?![\d:/-]|[.,]\w)"
)
"""The key's, door's or safe's number (鍵の番号は4821), and 暗証番号, a space, then its digits."""
_ES_NIP = r"\b(?:NIP|nip)\b(?:[ \t]+(?:del?|de[ \t]+la)[ \t]+[^\n:=.;]{1,30}?)?(?:[ \t]+(?:es|era)[ \t]+|[ \t]*[:=][ \t]*)(?P<value>\d{4,8})(?![\d:/-]|[.,]\w)"
"""A NIP (the PIN in Mexico and Québec) and a link, then 4 to 8 digits."""
_ES_CONTRA = (
    r"(?i)\b(?:la|mi|tu|su|nuestra)[ \t]+contra\b(?:[ \t]+(?:del?|de[ \t]+la|para[ \t]+el|para[ \t]+la)[ \t]+[^\n:=.;]{1,30}?)?"
    r"(?:[ \t]+(?:es|era)[ \t]+|[ \t]*[:=][ \t]*)" + _VALUE
)
"""La contra (contraseña's short form), what it opens and a link, then the value."""
_DOOR = (
    r"(?i)\b(?:front[ \t]+door|back[ \t]+door|door|gate|garage|keypad|lockbox|key[ \t]?box|entry|alarm)"
    r"[ \t]+(?:code|pin|passcode)[ \t]+(?:(?:is|was)[ \t]+)?(?P<value>[*#]?\d{4,8}#?)(?=[ \t]*(?:[,;.)!]|$)|[ \t])"
)
"""A door's, gate's or garage's code said with no link or "is", a keypad's ``*``/``#`` its own."""
_COMBINATION = (
    r"(?i)\b(?:combination|combo)\b[^\n:=.;]{0,30}?(?:[ \t]+(?:is|was)[ \t]+|[ \t]*[:=][ \t]*)"
    r"(?P<value>\d{1,3}(?:[ \t]*[-–/][ \t]*\d{1,3}){2,4})(?![\d-])"
)
"""A combination of three to five numbers joined by dashes or slashes."""
_LOCKS_RE = lazyre.compile(
    r"(?i)\b(?:safe|lock|padlock|locker|vault|bike|gym|suitcase|briefcase|lockbox|gun|cabinet|mailbox|gate|door)"
)
_KEYS_RE = lazyre.compile(r"(?i)key|code|パス|pw|暗証|合言葉|番号|nip|contra|pin|combination|combo")


def _spaced(text: str, start: int, end: int) -> Iterator[Span]:
    """A passphrase of two to six spaced words from ``start`` to the line's or the sentence's end, as
    :mod:`.phrases` reads one after a password word ("the wifi key is apple banana cherry")."""
    from .phrases import _passphrase

    value = re.split(r"[.!?;,](?:[ \t]|$)", text[start:end], maxsplit=1)[0].rstrip(" \t.!?;,")
    words = value.split()
    if 2 <= len(words) <= 6 and _passphrase(words, three=True):
        yield start, start + len(value), "password"


def _line_spans(text: str, low: str, start: int, end: int) -> Iterator[Span]:
    """The module's spans on the line ``text[start:end]``, ``low`` its lower case."""
    if "key" in low or "code" in low:
        for m in _rx(_WIFI).finditer(text, start, end):
            value = m.group("value").rstrip(".,;:!?)")
            if _ok(value, phrase=True):
                yield m.start("value"), m.start("value") + len(value), "password"
            elif m.group("q") is None:
                yield from _spaced(text, m.start("value"), end)
    if any(w in low for w in ("パス", "pw", "暗証", "合言葉")):
        for m in _rx(_JA).finditer(text, start, end):
            value = m.group("value").rstrip(".,;:!?)")
            if _ok(value, phrase=True):
                yield m.start("value"), m.start("value") + len(value), "password"
    if "番号" in low:
        for m in _rx(_JA_PIN).finditer(text, start, end):
            group = "value" if m.group("value") else "v2"
            yield m.start(group), m.end(group), "pin"
    if "nip" in low:
        for m in _rx(_ES_NIP).finditer(text, start, end):
            yield m.start("value"), m.end("value"), "pin"
    if "contra " in low:
        for m in _rx(_ES_CONTRA).finditer(text, start, end):
            value = m.group("value").rstrip(".,;:!?)")
            if _ok(value, phrase=True):
                yield m.start("value"), m.start("value") + len(value), "password"
    if "code" in low or "pin" in low:
        for m in _rx(_DOOR).finditer(text, start, end):
            yield m.start("value"), m.end("value"), "pin"
    if "comb" in low and _LOCKS_RE.search(low):
        for m in _rx(_COMBINATION).finditer(text, start, end):
            yield m.start("value"), m.end("value"), "pin"


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of each password, wifi key, PIN or combination said in the shapes listed above.

    Args:
        text: any text.

    Returns:
        Iterator[Span]: the value's span (without quotes), typed ``password`` or ``pin``.
    """
    low = text.lower()
    if not _KEYS_RE.search(low):
        return
    start = 0
    for line in low.split("\n"):
        end = start + len(line)
        if _KEYS_RE.search(line):
            yield from _line_spans(text, line, start, end)
        start = end + 1
