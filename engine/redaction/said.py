"""Passwords said in orders and words :mod:`.speech`'s rules do not read (docs/architecture.md §3).

Issue 32, round 7. :mod:`.speech` reads a password word, a link, then the value.
People also write:

- the value first: "<pw> is the wifi key", "<pw> is the password for the guest
  account" (a value at the start of a line or clause, then "is"/"was" and a
  password word or a network's key);
- a password set to a value: "reset Jen's password to <pw>", "changed the PIN to
  <pw>";
- a code named by what it opens: "the code for the office door is 4821", "Der
  Türcode ist 5277", "locker combination is 8994", "SIM PUK: 7668", "card pin 5434";
- a password said to be something now: "the pw changed, it's now <pw>";
- recovery or backup codes named in the twelve languages :mod:`.speech` reads
  ("Wiederherstellungscodes:", "codes de récupération :", "kody odzyskiwania:",
  "リカバリーコード:", "恢复码：", "복구 코드:"), or with what they recover
  ("2FA recovery codes for AWS root:");
- a seed phrase named in those languages ("frase semilla:", "助记词：") or by its
  length ("the 12 word seed for the ledger:"): 12 to 24 lower-case words;
- a user's password as a command's operand: ``rabbitmqctl add_user|change_password
  <user> <pw>``, ``mosquitto_passwd -b <file> <user> <pw>``.

Each value must still read as a credential (:func:`.speech._ok`), a PIN 4 to 8
digits, so "Bitwarden is the password manager" and "reset the password to the
default" stay.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from . import lazyre
from .speech import _V, _codes, _ok

Span = tuple[int, int, str]

_rx = cache(re.compile)
"""A rule's pattern compiled on first use: a line holding its words (importing this module compiles none, ~10 ms)."""

_PW_WORD = r"(?:password|passphrase|passcode|pass\s?word|pw|pwd|pin|(?:wi-?fi|wlan|wpa2?|wpa3|network|wireless)\s+key)"
_ABOUT = r"(?:manager|policy|policies|hint|reset|rules?|field|prompt|length|generator|vault|store|safe|format)"
_BEFORE = (
    r"(?im)(?:^|(?<=[:(>\-–—•*]\s)|(?<=[:(]))[ \t]*(?P<q>[`'\"])?(?P<value>[^\s`'\"]{4,64})(?(q)(?P=q))"
    r"[ \t]+(?:is|was)[ \t]+(?:the|my|our|your|his|her|their|a|an)?[ \t]*(?:[\w'’-]+[ \t]+){0,3}?"
    + _PW_WORD
    + r"\b(?![ \t]+"
    + _ABOUT
    + r"\b)"
)
"""A value, then "is"/"was" and a password word: "Orchid4762* is the wifi key"."""
_SET_TO = (
    r"(?i)\b(?:set|reset|changed?|changing|updated?|rotated?|switched)\b[^\n.;]{0,40}?"
    r"\b(?:password|passphrase|passcode|pass\s?word|pw|pwd|pin)\s+(?:back\s+)?to\s+" + _V
)
"""A password set to a value: "reset Jen's password to <pw>"."""
_DOOR = (
    r"(?i)\b(?:code|pin|passcode|combination)\s+(?:for|of|to)\s+(?:the\s+|my\s+|our\s+)?(?:[\w'’-]+\s+){0,2}?"
    r"(?:door|gate|garage|alarm|safe|lock|padlock|keypad|locker|building|office|entrance)\b[^\n:=]{0,20}?"
    r"(?:\s+(?:is|was)\s+|\s*[:=]\s*)(?P<value>\d{4,8})(?![\d:/-]|[.,]\w)"
)
"""A code named by what it opens: "the code for the office door is 4821" (4 to 8 digits)."""
_OPENS = (
    r"(?i)(?P<head>\b(?:codes?|c[óo]digos?|codice|kod|combination|combo|key|puk|pin|[a-zäöü]{2,12}code)\b)"
    r"(?P<mid>[^\n:=：.;!?]{0,40}?)(?:[ \t]+(?:is|ist|est|es|é|è|was|jest|to)[ \t]+|[ \t]*[:=：][ \t]*)"
    r"(?P<value>\d{4,8})(?![\d:/-]|[.,]\w|[ \t]*(?:digits?|chars?|characters?|%|stellig|chiffres|d[ií]gitos|cifre|cyfr))"
)
"""A code or PIN and a link, in the twelve languages ("Der Türcode ist 5277", "El código de la puerta es 994879",
"Kod do alarmu: 2869", "locker combination is 899431", "SIM PUK: 7668"): :func:`_opens` wants what it opens."""
_OPENS_WORDS = (
    *("door", "gate", "garage", "alarm", "safe", "lock", "keypad", "porte", "portail", "puerta", "portón", "portão"),
    *("portao", "porta", "deur", "drzwi", "tür", "tor", "coffre", "cofre", "caja fuerte", "cassaforte", "kluis"),
    *("sejf", "casier", "taquilla", "armadietto", "szafk", "allarme", "alarma", "alarme", "alarmu", "iphone", "phone"),
    *("telefon", "handy", "téléphone", "teléfono", "ipad", "tablet", "sim", "card", "karte", "carte", "tarjeta"),
    *("cartão", "bancomat", "karty"),
)
"""What a code opens, lower case, in the twelve languages: a door, a safe, an alarm, a phone, a SIM or a card."""
_CARD_PIN = r"(?im)\b(?:card|sim|phone|bank|debit|credit|atm)[ \t]+pin[ \t]+(?P<value>\d{4,8})(?=[ \t]*(?:[,;.)]|$))"
"""A PIN with no link, after what it opens, ending its clause: "card pin 5434"."""
_NOW = r"(?i)\b(?:pw|pwd|password|passphrase|passcode|pass)\b[^\n.]{0,40}?\b(?:it['’]?s|it\s+is|is)\s+now\s+" + _V
"""A password said to be something now, after it was named: "the pw changed, it's now <pw>"."""
_CODE_WORDS = (
    r"(?:(?:2fa|mfa|two-factor)[ \t]+)?(?:backup|recovery|scratch|emergency)[ \t]+codes?|"
    r"(?:otp|totp|2fa|mfa)[ \t]+(?:backup|recovery)|"
    r"(?:wiederherstellungs|backup-|notfall|sicherungs)codes?|codes?[ \t]+de[ \t]+(?:récupération|recuperation|secours)|"
    r"c[óo]digos?[ \t]+de[ \t]+(?:recuperaci[óo]n|respaldo|backup|recupera[çc][ãa]o|seguran[çc]a)|"
    r"codici[ \t]+di[ \t]+(?:recupero|backup|emergenza)|(?:herstel|back-?up)codes?|"
    r"kody?[ \t]+(?:odzyskiwania|zapasowe|zapasowy)|リカバリーコード|バックアップコード|復旧コード|恢复码|备用码|"
    r"恢復碼|備用碼|복구[ \t]?코드|백업[ \t]?코드"
)
_CODES = (
    r"(?i)(?:(?<![\w-])|(?<=[\u3000-\u9fff\uac00-\ud7af]))(?:" + _CODE_WORDS + r")"
    r"(?:[ \t]+(?:for|of|für|pour|para|per|voor|dla|do|de|du)[ \t]+[^\n:=：]{1,40}?)?"
    r"(?:[ \t]*[:=：][ \t]*|[ \t]+(?:is|are|were)[ \t]+)"
    r"(?P<value>(?:(?:\d{4} \d{4}|[A-Za-z0-9]{3,12}(?:-[A-Za-z0-9]{3,12}){0,3})(?:[ \t]*[,;][ \t]*|[ \t]+)?){1,16})"
)
"""Recovery or backup codes named in the twelve languages, with what they recover or not (:func:`.speech._codes`
keeps each code that holds two digits or more)."""
_SEED_WORDS = (
    r"\d{2}[ -]words?(?:[ \t]+(?:seed|phrase|mnemonic|recovery[ \t]+phrase))?|seed(?:[ \t]+phrase|[ \t]+words)?|"
    r"mnemonic(?:[ \t]+phrase)?|recovery[ \t]+(?:phrase|words|seed)|"
    r"phrase[ \t]+(?:de[ \t]+récupération|de[ \t]+recuperation|mnémonique|secrète)|"
    r"frase[ \t]+(?:semilla|semente|de[ \t]+recuperaci[óo]n|de[ \t]+recupera[çc][ãa]o|di[ \t]+recupero|mnemonica)|"
    r"(?:wiederherstellungs|seed-?)phrase|herstelzin|(?:seed[ \t]+)?fraza(?:[ \t]+(?:odzyskiwania|seed))?|"
    r"助记词|助記詞|恢复短语|シードフレーズ|リカバリーフレーズ|복구[ \t]?문구|시드[ \t]?문구|니모닉|"
    r"cụm[ \t]+từ[ \t]+(?:khôi[ \t]+phục|hạt[ \t]+giống|bí[ \t]+mật)|kurtarma[ \t]+ifadesi"
)
_SEED = (
    r"(?i)(?:" + _SEED_WORDS + r")"
    r"(?:[ \t]+(?:for|of|für|pour|para|per|voor|dla|do|de|du|del|da)[ \t]+[^\n:=：]{1,30}?)?"
    r"(?:[ \t]*[:=：][ \t]*|[ \t]+(?:is|are)[ \t]+)[\"'`]?"
    r"(?P<value>[a-z]{3,8}(?:[ \t,]+[a-z]{3,8}){11,23})(?![\w-])"
)
"""A seed phrase named in the twelve languages or by its length: 12 to 24 lower-case words (BIP-39's English list
holds words of 3 to 8 letters)."""
_OPERANDS = (
    (r"\brabbitmqctl\s+(?:-\S+\s+)*(?:add_user|change_password)\s+(?:'[^'\n]*'|\"[^\"\n]*\"|\S+)\s+" + _V),
    (r"\bmosquitto_passwd\s+(?:-\w+\s+)*-b\s+(?:-\w+\s+)*\S+\s+\S+\s+" + _V),
)
"""A user's password as a command's operand: RabbitMQ's ``add_user``/``change_password``, ``mosquitto_passwd -b``."""
_DOOR_KEYS_RE = lazyre.compile(r"door|gate|garage|alarm|safe|lock|keypad|building|office|entrance")
_CODE_KEYS_RE = lazyre.compile(r"cod|cód|kod|recovery|backup|コード|码|碼|코드")
_SEED_KEYS_RE = lazyre.compile(r"seed|word|mnemonic|phrase|fras|zin|词|詞|短语|フレーズ|문구|니모닉|cụm|ifade")
"""Substrings, lower case, one of which each of :data:`_DOOR`, :data:`_CODES` and :data:`_SEED` needs (a
cheap test before the regex)."""
_OPENS_KEYS_RE = lazyre.compile(r"cod|cód|kod|comb|key|puk|pin")
"""Ditto for :data:`_OPENS` and :data:`_CARD_PIN`."""
_KEYS_RE = lazyre.compile(
    r"pass|pw|pin|puk|key|combination|combo|rabbitmqctl|mosquitto|"
    + _CODE_KEYS_RE.pattern
    + "|"
    + _SEED_KEYS_RE.pattern
)
"""What every rule's match holds, lower case (a door's code holds "cod", "pin" or "pass"): most lines hold none."""


def _opens(m: re.Match[str]) -> bool:
    """Whether an :data:`_OPENS` match names what its code opens, in it or just before it (a PUK is always one)."""
    if m.group("head").lower() == "puk":
        return True
    around = m.string[max(0, m.start() - 25) : m.start("value")].lower()
    return any(w in around for w in _OPENS_WORDS)


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of each password, PIN, code or seed phrase said in the ways listed above.

    Args:
        text: any text.

    Returns:
        Iterator[Span]: the value's span (without quotes), typed ``password``, ``pin``, ``backup-code`` or
        ``seed-phrase``.
    """
    low = text.lower()
    if not _KEYS_RE.search(low):
        return
    if "\n" not in low:
        yield from _line_spans(text, low, 0, len(text))
        return
    start = 0
    for line in low.split("\n"):  # line by line: a whole file pays only for its lines holding a word
        end = start + len(line)
        if _KEYS_RE.search(line):
            yield from _line_spans(text, line, start, end)
        start = end + 1


def _line_spans(text: str, low: str, start: int, end: int) -> Iterator[Span]:
    """:func:`spans` of the line ``text[start:end]``, ``low`` its lower case."""
    if " is " in low or " was " in low:  # not "=": "variable_password0 = password;" assigns a variable
        for m in _rx(_BEFORE).finditer(text, start, end):
            if _ok(m.group("value")):
                yield m.start("value"), m.end("value"), "password"
    if " to " in low:
        for m in _rx(_SET_TO).finditer(text, start, end):
            if _ok(m.group("value"), min_len=6, phrase=True):
                yield m.start("value"), m.end("value"), "password"
    digits = any(c.isdigit() for c in low)
    if digits and _DOOR_KEYS_RE.search(low):
        for m in _rx(_DOOR).finditer(text, start, end):
            yield m.start("value"), m.end("value"), "pin"
    if digits and _OPENS_KEYS_RE.search(low):
        for m in _rx(_OPENS).finditer(text, start, end):
            if _opens(m):
                yield m.start("value"), m.end("value"), "pin"
        for m in _rx(_CARD_PIN).finditer(text, start, end):
            yield m.start("value"), m.end("value"), "pin"
    if " now " in low:
        for m in _rx(_NOW).finditer(text, start, end):
            if _ok(m.group("value"), min_len=6, phrase=True):
                yield m.start("value"), m.end("value"), "password"
    if _CODE_KEYS_RE.search(low):
        for m in _rx(_CODES).finditer(text, start, end):
            yield from _codes(m)
    if _SEED_KEYS_RE.search(low):
        for m in _rx(_SEED).finditer(text, start, end):
            yield m.start("value"), m.end("value"), "seed-phrase"
    if "rabbitmqctl" in low or "mosquitto_passwd" in low:
        for pattern in _OPERANDS:
            for m in _rx(pattern).finditer(text, start, end):
                if not m.group("value").startswith(("$", "<", "{", "%")):
                    yield m.start("value"), m.end("value"), "password"
