"""An app's words about passwords: UI text under a password key is no password (issue 32, round 22).

:func:`spans` adds to :func:`.public.spans`. A translation file or a form's labels put sentences under keys named
for passwords (``"repeat_password": "Repeat password"``, ``passwordLabel: "Password:"``); the label rules read the
key and took the sentence for the password. A quoted value is kept as text when it is words (letters, a number of
three digits at most, end punctuation) and either:

- two words or more, one of them a word for a password in one of the languages below (``Passordene er ikke like.``,
  ``Lag nytt passord``, ``Send engangskode``): the value talks about the password, it is not one;
- or one such word ending in ``:`` (``Password:``, ``Engangskode:``): a form's label;
- or a word and a dash before the word for a password, a key or a token (``"API-Schlüssel"``: a label's
  translation), or three words or more, one of them such a word (``"Ihr Token ist abgelaufen"``: round 26);
- or a sentence: six words or more, two of three letters at most, ending in ``.``, ``!`` or ``?``
  (``"password_change_information": "For å bekrefte endringen, må vi sende deg kode på sms."``).

A passphrase of plain words (``"correct horse battery staple"``) names no password word, is no sentence, and is
still redacted.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int]

_QUOTED_RE = lazyre.compile(r"([\"'])(?P<value>[^\"'\n\\]{4,300})\1")
_WORD_RE = lazyre.compile(r"(?:[^\W\d_]+(?:['’-][^\W\d_]+)*|\d{1,3})[.,:;!?]?")
_PASSWORD_WORD_RE = lazyre.compile(
    r"(?i)pass(?:word|wort|ord|wd)|passe\b|wachtwoord|contrase|senha|l[öo]senord|salasana|heslo|has[łl]o|parola|"
    r"jelsz|[şs]ifre|adgangskode|engangskode|kodeord|kennwort|пароль|密码|パスワード|비밀번호"
)

_SECRET_WORD = (
    r"(?:pass(?:word|wort|ord)|wachtwoord|contraseña|senha|lösenord|salasana|heslo|hasło|parola|jelszó|şifre|"
    r"kennwort|пароль|token|jeton|schlüssel|clé|clave|chave|chiave|ключ|key|code|código|codice|kode)"
)
_SECRET_WORD_RE = lazyre.compile(
    r"(?i)pass(?:word|wort|ord)|wachtwoord|contraseña|senha|lösenord|salasana|heslo|hasło|kennwort|пароль|token|jeton"
)
_NAMED_SECRET_RE = lazyre.compile(
    r"(?i)(?:api|app|wlan|wi-?fi|netzwerk|zugangs|access|admin|benutzer|user|login|konto|account)-" + _SECRET_WORD
)
"""A value that is one word and a dash before the word for a password, a key or a token (``API-Schlüssel``,
``App-Token``, ``WLAN-Passwort``): a label's translation (round 26, breaker26). The word alone (``Kennwort``) may be
the password itself, and is not kept."""


def _words(value: str) -> list[str] | None:
    """The words of ``value`` when it is words only (each maybe ending in punctuation), else None."""
    parts = value.split()
    return parts if parts and all(_WORD_RE.fullmatch(p) for p in parts) else None


def ui_text(value: str) -> bool:
    """Whether quoted ``value`` is UI text about a password: words naming one, a password word ending in ``:``, or a
    sentence."""
    words = _words(value)
    if words is None:
        return False
    if len(words) == 1:
        if _NAMED_SECRET_RE.fullmatch(words[0].rstrip(":")):
            return True  # the thing's name: ``"api_key_label": "API-Schlüssel"``
        return words[0].endswith(":") and bool(_PASSWORD_WORD_RE.search(words[0]))
    if len(words) >= 3 and any(_SECRET_WORD_RE.fullmatch(w.strip(".,:;!?")) for w in words):
        return True  # ``"token_expired": "Ihr Token ist abgelaufen"``: a message about a token
    if len(words) >= 6 and words[-1][-1] in ".!?" and sum(len(w.strip(".,:;!?")) <= 3 for w in words) >= 2:
        return True  # a sentence: six words or more, two short ones (``vi``, ``på``, ``the``), an end mark
    return any(_PASSWORD_WORD_RE.search(w) for w in words)


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every quoted value of ``text`` that is UI text about a password (:func:`ui_text`)."""
    if '"' not in text and "'" not in text:
        return
    for m in _QUOTED_RE.finditer(text):
        if ui_text(m.group("value")):
            yield m.span("value")
