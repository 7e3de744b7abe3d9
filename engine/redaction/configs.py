"""Passwords and keys in the shapes config files give them (docs/architecture.md §3).

The labelled-secret rule (:mod:`.rules`) reads ``label: value`` and wants a
value that looks random, so a plain word is kept ("password: required"). In a
config file's own syntax the key says what the value is, and a weak password is
still a password. This rule reads those shapes, from whispers' config fixtures
(github.com/Skyscanner/whispers, Apache-2.0: the formats it parses) rather than
from any one file:

- an XML element whose tag ends in a secret word: ``<password>…</password>``,
  ``<db_pwd>``, ``<TRAVEL_API_KEY>``, ``<slackKey>``;
- a name and its value: ``{"key": "db.password", "value": "…"}`` on a line;
  ``- name: DB_PASSWORD`` / ``value: …`` (a Kubernetes env entry) and
  ``<name>password</name>`` / ``<value>…</value>`` (or a property list's ``<key>`` and
  ``<string>``) on two lines; a ``value`` whose sibling in its block names a password, either order, comments
  between (:mod:`.siblings`: ``env { name = "DB_PASSWORD" … value = "…" }``);
- a whole line that assigns a password key in YAML (``password: …``), an env
  file (``SSHpassword=…``) or any language with quotes (``$db_password = "…";``):
  an unquoted word after `` = `` is a variable in code, so it is not taken;
- a query parameter whose name ends in a password word (``userpass=…``);
- Jenkins' stored secrets, ``{AQAAABAAAA…}`` in ``credentials.xml`` and job configs (``hudson.util.Secret``'s
  form: a version byte and lengths, then the ciphertext, all base64 in braces), whatever tag holds them
  (``<secret>``, ``<session>``, ``<privateKey>``): the braces' whole content, which no size cap leaves a tail of.

A key naming a secret its owner picks (``secret``, ``JWT_SECRET``, ``session_secret``: :func:`chosen_secret`) is
read as a password's, in every shape above and in code (:mod:`.assignments`), except a stand-in naming the slot
(``mysecret``) or a stored secret's name (``db-credentials``); a vendor's issued secret (``client_secret``) is not.

A password key's value may be a plain word (``sunshine``) unless it is a word
about a password (``required``, ``none``, ``vault``, ``changeme`` ...), a
placeholder or a reference (``$VAR``, ``{{ x }}``, ``%env(X)%``); a key's or
token's value must read as a credential (:func:`.speech._ok`).
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre, siblings, valueparts
from .keynames import PASSWORD_WORD, key_words
from .rules import _EMAIL_RE, _ENV_NAME_RE, _PLACEHOLDER_RE
from .speech import _ok

Span = tuple[int, int, str]

_PW = r"(?:" + PASSWORD_WORD + r"|pwd|passphrase|pass|passwort|kennwort|senha|contrase[ñn]a)s?"
_KEY = r"(?:secret|token|api_?key|apikey|access_?key|private_?key|license_?key|auth_?key|credentials?|key)s?"
_XML_RE = lazyre.compile(
    r"(?i)<(?P<tag>[\w.:-]{0,40}?(?:(?P<pw>" + _PW + r")|" + _KEY + r"))(?:\s[^<>]{0,200})?>"
    r"[ \t]*(?P<value>[^<>\s]{3,512})[ \t]*</(?P=tag)>"
)
_NAME = r"(?P<name>[\w.$-]{0,60}?(?:(?P<pw>" + _PW + r")|" + _KEY + r"))"
_PAIR_RES = (
    lazyre.compile(
        r"(?i)[\"']?(?:key|name)[\"']?\s*[:=]\s*[\"']" + _NAME + r"[\"']\s*,\s*[\"']?value[\"']?\s*[:=]\s*"
        r"[\"'](?P<value>[^\"'\n]{3,256})[\"']"
    ),
    lazyre.compile(
        r"(?im)^[ \t]*(?:-[ \t]+)?(?:name|key)[ \t]*:[ \t]*[\"']?" + _NAME + r"[\"']?[ \t]*\r?\n"
        r"[ \t]*value[ \t]*:[ \t]*(?P<q>[\"']?)(?P<value>[^\s\"']{3,256})(?P=q)[ \t]*$"
    ),
    lazyre.compile(
        r"(?i)<(?P<n>name|key)>[ \t]*"
        + _NAME
        + r"[ \t]*</(?P=n)>\s{0,200}?<(?P<v>value|string)>(?P<value>[^<>\s]{3,256})"
        r"</(?P=v)>"
    ),
)
_LINE_HEAD = r"(?im)^[ \t]*(?:(?:#|//)[ \t]*)?(?:-[ \t]+)?(?:export[ \t]+)?[\"']?\$?(?P<key>[\w.-]{0,40}?"
_LINE_TAIL = (
    r"\d{0,3})[\"']?(?:[ \t]*(?P<colon>:)[ \t]*|(?P<eq>=)|[ \t]*(?::=|=>|=)[ \t]*(?=[\"']))"
    r"(?P<q>[\"']?)(?P<value>[^\s\"'`,;„“”«»‹›「」『』]{3,128})(?P=q)[ \t]*(?:[,;][ \t]*)?$"
)
_LINE_RE = lazyre.compile(_LINE_HEAD + _PW + _LINE_TAIL)
_SECRET_LINE_RE = lazyre.compile(_LINE_HEAD + "secret" + _LINE_TAIL)
"""The same whole line for a key ending in ``secret``; :func:`chosen_secret` says whether its owner picks it."""
_BULLET_RE = lazyre.compile(
    r"(?im)^[ \t]*[-*][ \t]+(?:[\w'’.-]{1,20}[ \t]+){1,4}?(?:" + PASSWORD_WORD + r"|pw|passphrase|passwort|kennwort)"
    r"(?:[ \t]+(?:on|for|of|für)[ \t]+[^:\n]{1,30}?)?[ \t]*:[ \t]*(?P<value>[a-z]{4,24})[ \t]*$"
)
"""A note's bullet naming a password after what it opens, its value one lower-case word ending the line (``- NAS
password: bluebird``, ``- VNC password on the lab box: labvnc``): a weak password is still one (round 26)."""
_BULLET_NOT = frozenset(
    {"printed", "sticker", "whiteboard", "later", "elsewhere", "nothing", "below", "above", "attached", "inside"}
    | {"rotating", "shared", "onboarding", "pending", "unchanged", "unknown", "missing", "lost"}
)
"""Words that say where or how the password is, beyond :data:`_ABOUT_WORDS`."""
_QUERY_RE = lazyre.compile(r"(?i)[?&;](?P<key>\w{0,30}(?:pass|passwd|password|pwd))=(?P<value>[^&#\s\"'<>]{3,256})")
_ABOUT_TEXT = (
    "required optional none null nil true false yes no empty blank unset set reset expired changed unknown hidden "
    "masked redacted secret secrets password passwd pass pwd default random generated prompt ask vault env file see "
    "todo tbd changeme example placeholder same disabled enabled off on auto manual never always stdin keyring "
    "keychain 1password bitwarden lastpass keepass string text value str int bool "
    "hashed hashing plaintext cleartext bcrypt scrypt argon2 argon2i argon2id pbkdf2 sha-256 sha-512 sha256 sha512 "
    "md5 salted encrypted rotated rotating rotation monthly weekly daily nightly quarterly yearly shared personal "
    "forgotten injected managed inherited sso saml ldap oauth oidc kerberos okta doppler "
    "unchanged updated revoked invalid locked pending expiring "
    "abgelaufen geändert unbekannt zurückgesetzt gesperrt leer keins keines siehe "
    "caducada caducado expirada expirado cambiada cambiado desconocida desconocido vacía vacío ninguna "
    "alterada alterado desconhecida desconhecido vazia vazio nenhuma "
    "expiré expirée changé changée inconnu inconnue vide aucun réinitialisé réinitialisée "
    "scaduta scaduto cambiata cambiato sconosciuta sconosciuto vuota nessuna"
)
_ABOUT_WORDS = frozenset(_ABOUT_TEXT.split())
"""Words a password key's value holds when it says something about the password instead of being one: its hashing,
its rotation, where it comes from ("password: bcrypt", "password: rotated monthly", "password: Okta"); round 26: its
state in German, Spanish, Portuguese, French and Italian ("Passwort: abgelaufen", "senha: expirada")."""
_ABOUT_PREFIX_RE = lazyre.compile(r"(?i)(?:see|ask|from|via|in)[-_]")
"""A value that points elsewhere, written as one token (``see-vault``, ``from_vault``)."""
_NOT_PW_KEY_RE = lazyre.compile(
    r"(?i)(?:(?<![a-z])(?:by|com|encom|sur|over|under|tres)|(?:first|second|third|final|last|next|single|multi|one|"
    r"two|lint|test)[_-]?)pass(?:es)?\d{0,3}$"
)
"""A key ending in "pass" that is an English word or a run of a tool, not a password (``bypass``, ``compass``,
``first_pass``, ``second-pass``)."""
_PW_KEYS = ("pass", "pwd", "psw", "pssw", "pasw", "senha", "contrase", "kennwort")
"""Substrings, lower case, one of which a password key holds (a cheap test before the line and query rules)."""
_KEYS = (*_PW_KEYS, "secret", "token", "key", "cred")
_KEYS_RE, _PW_KEYS_RE = lazyre.compile("|".join(_KEYS)), lazyre.compile("|".join(_PW_KEYS))


def _pw_value_ok(value: str) -> bool:
    """Whether a password key's value is a password: a word will do, not a word about passwords or a reference."""
    if len(value) < 4 or value.lower() in _ABOUT_WORDS or _PLACEHOLDER_RE.match(value) or _ENV_NAME_RE.fullmatch(value):
        return False
    if valueparts.not_a_secret_value(value):
        return False  # a field's declaration: ``password: String!`` (GraphQL), ``Column(String(128))``
    if _ABOUT_PREFIX_RE.match(value):
        return False
    if value.startswith(("$", "%", "{", "<", "[", "(", "@", "/", "~", ".", "#")) or value.endswith((")", "%", "}")):
        return False  # a variable, a template, a call, a path
    return "://" not in value and not _EMAIL_RE.fullmatch(value)


_CHOSEN_HEADS = frozenset({"my", "the", "our", "jwt", "session", "cookie", "shared", "hmac", "signing"})
"""Words before ``secret`` in a name whose secret its owner picks (a shared secret: ``secret``, ``jwtSecret``,
``SESSION_SECRET``, ``shared_secret``), not a vendor's issued one (``client_secret``, ``app_secret``, ``api_secret``)."""
_NAME_OF_WORDS_RE = lazyre.compile(r"[a-z]+(?:[-_.][a-z0-9]+)+")
"""Lower-case words joined by ``-``/``_``/``.`` (``db-credentials``, ``app.secret``): the name of a stored secret."""


def chosen_secret(name: str) -> bool:
    """Whether ``name`` names a secret its owner picks, as a password is picked: its last word is ``secret`` and any
    word before it is one of :data:`_CHOSEN_HEADS` (issue 32, round 21).

    A vendor issues a client's or an app's secret as a random string, so a plain word under ``client_secret`` is a
    placeholder or a name; a shared secret (an app's session or JWT secret, ``var secret = "…"``) is typed by a person
    and is often words, like a password. Such a name's value is read as a password's (:func:`chosen_secret_value`).
    """
    words = [w for w in key_words(name) if not w.isdigit()]
    return words[-1:] == ["secret"] and all(w in _CHOSEN_HEADS for w in words[:-1])


def chosen_secret_value(value: str) -> bool:
    """Whether a chosen secret's value (:func:`chosen_secret`) is one: a password's value (:func:`_pw_value_ok`) of 6
    or more characters, not the name of a stored secret (:data:`_NAME_OF_WORDS_RE`) and not a stand-in naming the
    slot (``mysecret``, ``your-secret-here``, ``hardcodedsecret``)."""
    low = value.lower()
    return len(value) >= 6 and _pw_value_ok(value) and not _NAME_OF_WORDS_RE.fullmatch(value) and "secret" not in low


def _value_ok(value: str, *, pw: bool, name: str = "") -> bool:
    if not pw and name and chosen_secret(name):
        return chosen_secret_value(value) or _ok(value, min_len=8)
    return _pw_value_ok(value) if pw else _ok(value, min_len=8)


_JENKINS_RE = lazyre.compile(r"\{(?P<value>AQAAAB[A-Za-z0-9+/= ]{8,16384}?)\}")


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of each password or key in ``text`` held in a config file's syntax.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the value's span (without its quotes), typed ``password`` or ``secret``.
    """
    if "{AQAAAB" in text:
        for m in _JENKINS_RE.finditer(text):
            yield m.start("value"), m.end("value"), "jenkins-secret"
    low = text.lower()
    if not _KEYS_RE.search(low):
        return
    if "</" in text:
        for m in _XML_RE.finditer(text):
            if _value_ok(m.group("value"), pw=bool(m.group("pw")), name=m.group("tag")):
                yield m.start("value"), m.end("value"), "password" if m.group("pw") else "secret"
    if "value" in low or "<string>" in low:
        for pair in _PAIR_RES:
            for m in pair.finditer(text):
                if _value_ok(m.group("value"), pw=bool(m.group("pw")), name=m.group("name")):
                    yield m.start("value"), m.end("value"), "password" if m.group("pw") else "secret"
    if "secret" in low:
        for m in _SECRET_LINE_RE.finditer(text):
            if chosen_secret(m.group("key")) and chosen_secret_value(m.group("value")):
                yield m.start("value"), m.end("value"), "secret"
    if not _PW_KEYS_RE.search(low):
        return
    if "value" in low:
        yield from siblings.password_spans(text, _pw_value_ok)
    if "-" in text or "*" in text:
        for m in _BULLET_RE.finditer(text):
            if m.group("value").lower() not in _BULLET_NOT and _pw_value_ok(m.group("value")):
                yield m.start("value"), m.end("value"), "password"
    for m in _LINE_RE.finditer(text):
        key = m.group("key")
        if key.lower() != "pass" and not _NOT_PW_KEY_RE.search(key) and _pw_value_ok(m.group("value")):  # "pass: 12/12"
            yield m.start("value"), m.end("value"), "password"
    if "=" in text and ("?" in text or "&" in text or ";" in text):
        for m in _QUERY_RE.finditer(text):
            if not _NOT_PW_KEY_RE.search(m.group("key")) and _pw_value_ok(m.group("value")):
                yield m.start("value"), m.end("value"), "password"
