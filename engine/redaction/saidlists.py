"""Secrets laid out over lines or as lists: seed words, a password under its label (docs/architecture.md §3).

Issue 32 round 25, a second hostile trial (breaker25b; its lines, no corpus read):

- a seed phrase after its name in the layouts wallets show and people copy: numbered (``1. ripple 2. harvest``,
  ``1) ripple``, ``1-ripple``), one word per line, four per line, a bullet list, slash- or dash-joined, on the
  line after its name, with a note in brackets after the name (``Seed-Phrase (Wallet):``); named in English
  and the languages of :mod:`.said` and in Russian, Japanese, Korean, Turkish, Swedish, Hindi and Arabic. Each of
  12 to 24 words (3 to 8 lower-case letters, BIP-39's English list) is redacted;
- a password on the line after its label in Swedish, Turkish, Hindi, Arabic, Polish and Dutch (``Lösenord:``,
  ``Şifre``, ``पासवर्ड:``, ``كلمة المرور:``, ``Hasło``, ``Wachtwoord``), or after ``password (NAS):``.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre
from .rules import looks_like_credential
from .said import _SEED_WORDS

Span = tuple[int, int, str]

_MORE_SEED_NAMES = (
    r"secret[ \t]+recovery[ \t]+phrase|seed-phrase|bip-?39(?:[ \t]+(?:words|phrase))?|сид-фраза|"
    r"фраза[ \t]+восстановления|мнемоническая[ \t]+фраза|復元フレーズ|シードフレーズ|시드[ \t]?문구|복구[ \t]?구문|"
    r"kurtarma[ \t]+ifadesi|återställningsfras|सीड[ \t]+फ्रेज़|रिकवरी[ \t]+फ्रेज़|عبارة[ \t]+الاسترداد|"
    r"(?:seed|recovery)[ \t]+words"
)
_SEED_HEAD_RE = lazyre.compile(r"(?i)(?:" + _MORE_SEED_NAMES + "|" + _SEED_WORDS + r")(?:[ \t]*\([^)\n]{0,48}\))?")
_SEP_RE = lazyre.compile(r"[^\n:=：—–]{0,40}?(?:[:=：—–]|[ \t]-[ \t]|\b(?:is|are)\b)")
"""What ends a seed phrase's name on its line: a colon, a dash, "is" (after "for the Exodus wallet")."""
_ITEM_RE = lazyre.compile(
    r"[ \t]*(?:[-*•|][ \t]*)?(?:\d{1,2}[.):-]?[ \t]*)?(?P<word>[a-z]{3,8})[ \t]*(?:[,;/|-][ \t]*)?(?:\n|(?=[ \t]|$))?"
)
_LINE_LABEL_RE = lazyre.compile(
    r"(?im)^[ \t]*(?:[-*][ \t]+)?(?:wi-?fi[- ]?)?(?:lösenord(?:et)?|şifre(?:si)?|parola(?:sı)?|पासवर्ड|"
    r"كلمة[ \t]+(?:المرور|السر)|hasło|wachtwoord|password[ \t]*\([^)\n]{1,30}\))[ \t]*:?[ \t]*\n"
    r"[ \t]*[`\"']?(?P<value>[^\s`\"']{4,64})[`\"']?[ \t]*$"
)


def spans(text: str) -> Iterator[Span]:
    """Every seed word listed after a seed phrase's name, and every password under its label, in ``text``.

    Args:
        text: any text.

    Returns:
        Iterator of ``(start, end, type)``: ``seed-phrase`` or ``password``.
    """
    low = text.lower()
    if any(k in low for k in _SEED_KEYS):
        for head in _SEED_HEAD_RE.finditer(text):
            sep = _SEP_RE.match(text, head.end())
            pos = sep.end() if sep else head.end()
            pos += len(text[pos:]) - len(text[pos:].lstrip(" \t"))
            pos += 1 if text.startswith("\n", pos) else 0
            words = list(_words(text, pos))
            if 12 <= len(words) <= 24:
                yield from ((a, b, "seed-phrase") for a, b in words)
    if "\n" in text:
        for m in _LINE_LABEL_RE.finditer(text):
            if looks_like_credential(m.group("value"), min_len=6):
                yield m.start("value"), m.end("value"), "password"


def _words(text: str, pos: int) -> Iterator[tuple[int, int]]:
    """The spans of the list's words from ``pos``: items of :data:`_ITEM_RE` until one is no item (at most 24)."""
    count = 0
    while count < 25:
        m = _ITEM_RE.match(text, pos)
        if m is None or m.end() == pos:
            return
        count += 1
        yield m.start("word"), m.end("word")
        pos = m.end()


_SEED_KEYS = (
    "seed",
    "phrase",
    "mnemonic",
    "words",
    "bip",
    "фраз",
    "フレーズ",
    "문구",
    "구문",
    "ifade",
    "fras",
    "फ्रेज़",
    "عبارة",
    "词",
    "詞",
    "短语",
    "zin",
)
"""Substrings, lower case, one of which a seed phrase's name holds (a cheap test before the regex)."""
