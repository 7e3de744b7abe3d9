"""Passwords said around the word that names them, not after it (docs/architecture.md §3).

Issue 32, breaker17's B17-7: the speech rules take a value said after its
label ("the password is <pw>", "I set the root password to <pw>"); people
also say it the other way round or with more words between. The forms, each
taken only when the value has a secret's shape (:func:`.authsaid.secret_shape`:
8+ characters of three kinds or more, no path, file, version, address, host,
date or identifier):

- the value, then the role it plays: "use <pw> as the password", "admin with
  <pw> as the grafana password", "<pw> as my passphrase";
- a change of the value: "the root password was changed to <pw>", "the login
  got reset to <pw>", "rotated the passphrase to <pw>";
- a user and the value after a login or credentials: "my laptop's login is
  jdoe and <pw>", "the creds are admin, <pw>", "credentials: deploy with <pw>";
- a second clause naming it: "the backup key is in 1Password and it's <pw>",
  "the wifi password? it's <pw>".

Capitalised words with digits (``TigerDBAdmin2024Secure``) are taken in these forms too, though
``secret_shape`` reads them as identifiers; a scheme (``OAuth2PKCE``, ``TOTP+WebAuthn``), a pinned package
(``zxcvbn-ts@3.0.4``), a regex or a notation (``O(n^2)-bound``) is not (breaker18, B18-6 and B18-10).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre
from .authsaid import SAID_VALUE, said_value, secret_shape

Span = tuple[int, int, str]

_CRED = r"(?:pass(?:word|phrase|code)s?|passwd|pwd?|pin|login|log-in|creds|credentials|secret)"
_NOUN = r"(?:(?:the|my|our|your|his|her|their|its|a|an)\s+)?(?:[\w'’.-]{1,30}\s+){0,3}?" + _CRED
_AS_RE = lazyre.compile(r"(?i)(?:(?<=\s)|^)" + SAID_VALUE + r"\s+as\s+" + _NOUN + r"\b")
_CHANGED_RE = lazyre.compile(
    r"(?i)\b"
    + _CRED
    + r"\b[^\n.;!?]{0,40}?\b(?:changed|set|reset|updated|rotated|switched)\s+(?:it\s+)?to\s+"
    + SAID_VALUE
)
_USER_AND_RE = lazyre.compile(
    r"(?i)\b(?:login|log-in|creds|credentials|sign-?in)\s*(?:is|are|:)\s+(?:the\s+user\s+)?[\w.@+-]{2,32}"
    r"(?:\s*,|\s+and|\s+with|\s*/|\s+pw|\s+password)\s+(?:(?:the\s+)?(?:password|pw)\s+)?" + SAID_VALUE
)
_ITS_RE = lazyre.compile(
    r"(?i)\b(?:" + _CRED + r"|key)\b[^\n.;]{0,80}?(?:\band\s+|\bbut\s+|\?\s*)(?:it'?s|it\s+is|it’s)\s+" + SAID_VALUE
)
_NAME_PARTS_RE = lazyre.compile(r"[A-Za-z]+\d*(?:-[A-Za-z]+\d*)+")
"""Parts of a name joined by hyphens (``OAuth2-PKCE``, ``RS256-PSS``): one of them an acronym makes it a scheme."""
_ACRONYM_RE = lazyre.compile(r"(?:^|-)[A-Z]{3,}\d*(?:-|$)")
_KEYS = ("pass", "pw", "pin", "login", "log-in", "sign", "cred", "secret", "key")
_WORDS_PW_RE = lazyre.compile(r"(?=(?:.*[A-Z][a-z]{2,}){2})(?=(?:.*\d){2})[A-Za-z0-9]{10,64}")
"""Capitalised words and digits (``TigerDBAdmin2024Secure``, ``SummerAWS2024Deploy``): the commonest human password,
which :func:`.authsaid.secret_shape` reads as an identifier; taken here, where the sentence says it is one (B18-10)."""
_SCHEME_RE = lazyre.compile(r"(?=.*[A-Z]{3})(?!.*\d{3})[A-Za-z][A-Za-z0-9]{3,15}")
"""Words and an acronym with no year (``OAuth2PKCE``, ``React18SSR``): a scheme's or a product's name."""
_NOT_SECRET_RE = lazyre.compile(
    r"[\w./-]+@v?\d+(?:\.\d+)+[\w.-]*"  # a package pinned to a version: zxcvbn-ts@3.0.4
    r"|\^.*|.*(?:\(\?[=!:<]|\.\*|\\[dwsDWS]|\{\d+,\d*\}).*"  # a regex
    r"|[A-Za-z][\w.-]*\([^()\s]{0,40}\)(?:[-.][\w-]+)?"  # a call or a notation: Argon2id(m=64MiB), O(n^2)-bound
    r"|(?:[A-Za-z][A-Za-z0-9]{0,15}\+)+[A-Za-z][A-Za-z0-9]{0,15}"  # schemes joined by +: TOTP+WebAuthn, SIMD+AVX2
)
"""Values after a credential word that name how a login works, not what it is (B18-6)."""


def _emit(m: re.Match[str]) -> Iterator[Span]:
    """The value of the match ``m`` when it has a secret's shape."""
    value = said_value(m)
    if (_NOT_SECRET_RE.fullmatch(value) and not re.search(r"\d{3}", value)) or _SCHEME_RE.fullmatch(value):
        return
    if _WORDS_PW_RE.fullmatch(value) or (
        secret_shape(value) and not (_NAME_PARTS_RE.fullmatch(value) and _ACRONYM_RE.search(value))
    ):
        start = m.start("value")
        yield start, start + len(value), "password"


def spans(text: str) -> Iterator[Span]:
    """Every span of ``text`` holding a password said around the word that names it (the forms in the module).

    Args:
        text: any text.

    Returns:
        Iterator[Span]: ``(start, end, "password")`` spans.
    """
    low = text.lower()
    if not any(k in low for k in _KEYS):
        return
    for regex in (_AS_RE, _CHANGED_RE, _USER_AND_RE, _ITS_RE):
        for m in regex.finditer(text):
            yield from _emit(m)
