"""Passwords in configs, tools and plain speech the other rules miss (docs/architecture.md §3).

Issue 32 round 25, a second hostile trial (breaker25b, a helper's own lines, no corpus read). Each class needs
a name that says the value is a password and a value in the shape that name promises:

- an XML element whose ``key``/``name`` attribute names a secret and whose ``value`` attribute or text holds it:
  ``<add key="DbPassword" value="…"/>`` (.NET), ``<property name="password" value="…"/>`` (Spring, Ant, Tomcat),
  ``<string name="wifi_password">…</string>`` (Android), ``<entry key="db.password">…</entry>`` (Java);
- a directive naming a password with only a space before its value: ``requirepass``/``masterauth`` (Redis),
  ``wpa-psk`` (Debian's interfaces), ``auth_pass`` (keepalived), ``pre-shared-key``/``pre-shared-secret``,
  ``isakmp key`` (Cisco), ``security key`` (Windows' Wi-Fi);
- a password given to a tool that hashes or sets it: ``openssl passwd [-6] <pw>``, ``mkpasswd [-m x] <pw>``,
  ``slappasswd -s <pw>``, ``caddy hash-password --plaintext <pw>``, ``ldappasswd … -s <pw>``,
  ``rclone obscure <pw>``, ``doppler secrets set NAME <pw>``, a here-string into such a command;
- an e-mail address and a password joined by ``:``, `` / `` or `` - `` (a shared account, a combo list's line);
- "password (was|got|has been) changed|set|updated|reset to <pw>", "changed the password from <old> to <new>";
- one plain word after "<thing> password is" that ends the sentence (``the wifi password is Sunflower``), never a
  word that says something of the password (``required``, ``expired``, ``case-sensitive``, ``-ed``/``-ly``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre
from .keynames import PASSWORD_WORD
from .rules import looks_like_credential

Span = tuple[int, int, str]

_SECRET_NAME = r"(?i:[\w.-]*(?:passw(?:or)?d|pwd|secret|token|api[_.-]?key|apikey|credential|passphrase|psk)[\w.-]*)"
_XML_ATTR_RE = lazyre.compile(
    r"<[\w:.-]{1,40}\b[^<>\n]{0,120}?\b(?:key|name)\s*=\s*[\"']" + _SECRET_NAME + r"[\"'][^<>\n]{0,120}?"
    r"\bvalue\s*=\s*(?P<q>[\"'])(?P<value>[^\"'<>\n]{1,256})(?P=q)"
)
_XML_TEXT_RE = lazyre.compile(
    r"<(?P<tag>[\w:.-]{1,40})\b[^<>\n]{0,120}?\b(?:key|name)\s*=\s*[\"']" + _SECRET_NAME + r"[\"'][^<>\n]{0,120}?>"
    r"(?:\s*<value>)?(?P<value>[^<>\n]{1,256}?)(?:</value>\s*)?</(?P=tag)>"
)
_DIRECTIVE_RE = lazyre.compile(
    r"(?i)(?<![\w-])(?:requirepass|masterauth|wpa-psk|auth_pass|pre-shared-(?:key|secret)|isakmp\s+key|"
    r"security\s+key)[ \t]+(?P<value>[^\s\"'`]{4,256})"
)
_TOOL_RE = lazyre.compile(
    r"(?<![\w-])(?:openssl\s+passwd(?:\s+-(?:1|5|6|apr1|crypt|salt\s+\S+))*|mkpasswd(?:\s+-m\s+\S+)?|slappasswd\s+-s|"
    r"caddy\s+hash-password\s+--plaintext|ldappasswd\b[^\n]{0,120}?\s-s|rclone\s+obscure|doppler\s+secrets\s+set\s+\S+)"
    r"[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"']{4,256})(?P=q)"
)
_HERE_STRING_RE = lazyre.compile(
    r"(?i)(?:passw|secret|env\s+add|secret-tool|vncpasswd|smbpasswd)[^\n]{0,80}?<<<[ \t]*(?P<q>[\"']?)"
    r"(?P<value>\w[^\s\"']{3,255})(?P=q)"
)
_EMAIL_PAIR_RE = lazyre.compile(
    r"(?<![\w.+:/%-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+(?:[ \t]*:[ \t]*|[ \t]+/[ \t]+|[ \t]+[-–—][ \t]+)"
    r"(?P<value>[^\s\"'`,;]{6,64})(?=[\s,;)]|$)"
)
_CHANGED_RE = lazyre.compile(
    r"(?i)(?:" + PASSWORD_WORD + r"|passcode|passphrase|\bpw\b|\bPIN\b)[^\n.]{0,40}?\b(?:changed|set|updated|reset)"
    r"(?:[ \t]+from[ \t]+(?P<old>[^\s,;]{4,64}))?[ \t]+to[ \t]+(?P<value>[^\s,;]{4,64})"
)
_CHANGED_BEFORE_RE = lazyre.compile(
    r"(?i)\b(?:changed|set|updated|reset)[ \t]+(?:the|my|our|his|her|their|its)?[ \t]*(?:[\w+-]+[ \t]+){0,2}?(?:"
    + PASSWORD_WORD
    + r"|passcode|\bpw\b|\bPIN\b)(?:[ \t]+from[ \t]+(?P<old>[^\s,;]{4,64}))?[ \t]+to[ \t]+(?P<value>[^\s,;]{4,64})"
)
_ACCOUNT_PAIR_RE = lazyre.compile(
    r"(?i)\b(?:credentials?|creds|login)(?:[ \t]+(?:are|is))?(?P<colon>[ \t]*:)?[ \t]+(?P<user>[\w.@-]{2,40})"
    r"(?P<sep>[ \t]+and[ \t]+|[ \t]*,[ \t]*|[ \t]+)(?P<value>[^\s,;\"'`]{6,64})"
)
_ACCOUNT_WORDS = frozenset(
    ["admin", "administrator", "root", "user", "pi", "ubuntu", "guest", "sa", "postgres", "operator", "ops", "service"]
)
"""Account names that, after ``creds:`` with only a space, name the login before its password (``NAS creds:
admin Bramble42``); any other word needs ``and`` or a comma (``credentials are bob and …``)."""
_NOT_A_USER = frozenset(
    [
        "see",
        "in",
        "at",
        "on",
        "for",
        "from",
        "via",
        "the",
        "a",
        "an",
        "are",
        "is",
        "stored",
        "kept",
        "saved",
        "rotated",
        "with",
        "and",
        "or",
    ]
)
_PLAIN_RE = lazyre.compile(
    r"(?i)(?:" + PASSWORD_WORD + r"|\bpw\b|\bpass\b)(?:[ \t]+(?:for|to|of|on)[ \t]+[^\n.,;:]{1,30}?)?[ \t]+is[ \t]+"
    r"(?P<value>[A-Za-z]{4,30})[ \t]*(?=[.!]?[ \t]*$|[.!,;][ \t]|\n)"
)
_NOT_PLAIN = frozenset(
    [
        "required",
        "optional",
        "correct",
        "incorrect",
        "wrong",
        "right",
        "invalid",
        "valid",
        "expired",
        "weak",
        "strong",
        "same",
        "different",
        "empty",
        "blank",
        "missing",
        "unknown",
        "known",
        "shared",
        "saved",
        "stored",
        "there",
        "here",
        "fine",
        "okay",
        "good",
        "bad",
        "great",
        "complex",
        "random",
        "unique",
        "mandatory",
        "sensitive",
        "visible",
        "hidden",
        "encrypted",
        "hashed",
        "plaintext",
        "rotated",
        "locked",
        "changed",
        "updated",
        "enabled",
        "disabled",
        "needed",
        "ignored",
        "also",
        "still",
        "now",
        "never",
        "always",
        "only",
        "long",
        "short",
        "simple",
        "easy",
        "hard",
        "secure",
        "insecure",
        "new",
        "old",
        "temporary",
        "default",
        "forgotten",
        "lost",
        "gone",
        "working",
        "broken",
        "set",
        "reset",
        "mine",
        "yours",
        "ours",
        "theirs",
        "his",
        "hers",
        "something",
        "nothing",
        "anything",
        "everything",
        "unchanged",
        "unset",
        "none",
        "null",
        "true",
        "false",
        "blocked",
        "pending",
        "active",
        "inactive",
        "compromised",
        "leaked",
    ]
)
_ABOUT_RE = lazyre.compile(
    r"(?i)\b(?:rules?|policy|complexity|length|requirements?|format|pattern|regex|hint|prompt)\b"
)
_PLACEHOLDER_RE = lazyre.compile(
    r"[$%{<\[]|^(?:x+|\*+|\.+|changeme|changeit|password|secret|example|your[\w-]*)$", re.I
)


def spans(text: str) -> Iterator[Span]:
    """Every password in ``text`` of the module's shapes.

    Args:
        text: any text.

    Returns:
        Iterator of ``(start, end, type)``: ``password``.
    """
    if "<" in text and "=" in text:
        for regex in (_XML_ATTR_RE, _XML_TEXT_RE):
            for m in regex.finditer(text):
                if _a_value(m.group("value").strip()):
                    yield m.start("value"), m.end("value"), "password"
    for regex in (_DIRECTIVE_RE, _TOOL_RE, _HERE_STRING_RE):
        for m in regex.finditer(text):
            if _a_value(m.group("value")) and looks_like_credential(m.group("value"), min_len=6):
                yield m.start("value"), m.end("value"), "password"
    if "@" in text:
        for m in _EMAIL_PAIR_RE.finditer(text):
            value = m.group("value").rstrip(".")
            if "@" not in value and "/" not in value and looks_like_credential(value, min_len=6):
                yield m.start("value"), m.start("value") + len(value), "password"
    for m in (*_CHANGED_RE.finditer(text), *_CHANGED_BEFORE_RE.finditer(text)):
        if _ABOUT_RE.search(text, m.start(), m.start("value")):
            continue  # "password complexity rule changed to ^(?=.*\d)…": a rule, not a password
        for group in ("old", "value"):
            value = (m.group(group) or "").rstrip(".!?)")
            if value and looks_like_credential(value, min_len=6) and not re.search(r"\d\.\d|^v\d", value):
                yield m.start(group), m.start(group) + len(value), "password"
    for m in _ACCOUNT_PAIR_RE.finditer(text):
        user, value = m.group("user").lower(), m.group("value").rstrip(".!?)")
        spaced = not m.group("sep").strip()
        if user in _NOT_A_USER or (spaced and not (m.group("colon") and user in _ACCOUNT_WORDS)):
            continue
        if looks_like_credential(value, min_len=6) and not looks_like_credential(user, min_len=6):
            yield m.start("value"), m.start("value") + len(value), "password"
    for m in _PLAIN_RE.finditer(text):
        value = m.group("value")
        low = value.lower()
        if low in _NOT_PLAIN or low.endswith(("ed", "ly", "able", "ible", "ing", "ive", "ous", "ful", "less")):
            continue
        if _PLACEHOLDER_RE.search(value) or "default" in m.group(0).lower():
            continue  # "the default password is changeme": a vendor's published default, a stand-in
        yield m.start("value"), m.end("value"), "password"


def _a_value(value: str) -> bool:
    """Whether a configured value is a password, not a slot or a placeholder (``${DB_PASS}``, ``changeme``)."""
    return len(value) >= 4 and not _PLACEHOLDER_RE.search(value) and " " not in value.strip()
