"""Credentials that tools, APIs and formats take by position: one detector for :func:`.redact`.

Issue 32, round 11 (docs/architecture.md §3). Each shape is the documented form of a
tool's or a format's credential, found missing on the round's tuning set (the examples
and tests of Nosey Parker, Titus, secretlint and Trivy, built by
``benchmarks/secrets_corpus/build_upstream_tests.py``), never on a held-out set:

- PsExec's ``-u USER -p PASSWORD`` (Sysinternals PsExec's usage; PAExec and winexe take
  the same flags): the word after ``-p`` on a line naming the tool;
- .NET's ``new NetworkCredential(user, password[, domain])`` and
  ``new DirectoryEntry(path, user, password)`` (System.Net, System.DirectoryServices):
  the string literal in the password's place;
- GitHub's ``https://<token>:x-oauth-basic@github.com/...`` (GitHub's "easy-to-use"
  token URL): the user part is the token, ``x-oauth-basic`` a fixed word;
- a Microsoft Teams incoming webhook (``outlook.office.com/webhook/…`` and
  ``<tenant>.webhook.office.com/webhookb2/…``, Microsoft Learn "Create an Incoming Webhook"): the
  path after ``IncomingWebhook/``, whose 32 hex digits and GUID authorise a post;
- PHP's ``$mail->Password = '…';`` (PHPMailer's documented SMTP settings) and any object's
  ``->password`` property set to a string literal;
- a Kubernetes image-pull secret's ``.dockerconfigjson:`` / ``.dockercfg:`` value (base64
  of the registry logins, kubernetes.io "Pull an Image from a Private Registry");
- a password quoted after "password is" in prose (``the password is "centipede"``): the
  quotes mark a literal value, so a plain word counts, unless it is a word about passwords.

- a value piped into ``base64`` to make a Kubernetes Secret's data (kubernetes.io "Managing Secrets":
  ``echo -n '<value>' | base64``; ``printf '%s'`` too), when it reads as a credential (not ``admin``);
  decoding (``base64 -d``) is reading, not making, and is left.

A value that is a variable or a template (``$Password``, ``%PW%``, ``${X}``) is left.
Each shape runs only on a text holding its keyword, so prose pays one substring test each.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre
from .configs import _pw_value_ok

Span = tuple[int, int, str]

_TO_BASE64_RE = lazyre.compile(
    r"\b(?:echo[ \t]+-n|printf[ \t]+['\"]?%s['\"]?)[ \t]+"
    r"(?:'(?P<q1>[^'\s]{4,256})'|\"(?P<q2>[^\"\s]{4,256})\"|(?P<value>[^\s|'\"]{4,256}))"
    r"[ \t]*\|[ \t]*base64\b(?![ \t]+(?:-d|--decode|-D)\b)"
)
_PSEXEC_RE = lazyre.compile(
    r"(?i)\b(?:psexec(?:64)?|paexec|winexe)(?:\.exe)?\b[^\n]{0,200}?[ \t]-u[ \t]*(?:\"[^\"\n]+\"|\S+)[ \t]+"
    r"-p[ \t]*(?:\"(?P<qv>[^\"\n]{3,128})\"|(?P<value>[^\s\"]{3,128}))"
)
_NETCRED_RE = lazyre.compile(
    r"\bNetworkCredential\(\s*(?:@?\"[^\"\n]*\"|'[^'\n]*')\s*,\s*@?(?P<q>[\"'])(?P<value>[^\"'\n]{3,128})(?P=q)"
)
_DIRENTRY_RE = lazyre.compile(
    r"\bDirectoryEntry\(\s*(?:@?\"[^\"\n]*\"|'[^'\n]*')\s*,\s*(?:@?\"[^\"\n]*\"|'[^'\n]*')\s*,\s*"
    r"@?(?P<q>[\"'])(?P<value>[^\"'\n]{3,128})(?P=q)"
)
_XOAUTH_RE = lazyre.compile(r"(?i)\bhttps?://(?P<value>[A-Za-z0-9_]{20,255}):x-oauth-basic@")
_DOCKERCFG_RE = lazyre.compile(
    r"(?<![\w-])\.docker(?:configjson|cfg)[\"']?[ \t]*:[ \t]*[\"']?(?P<value>[A-Za-z0-9+/]{8,}={0,2})(?![\w+/=])"
)
_TEAMS_RE = lazyre.compile(
    r"(?i)\bwebhook(?:b2)?/[0-9a-f-]{36}(?:@|%40|%2540)[0-9a-f-]{36}/IncomingWebhook/"
    r"(?P<value>[0-9a-f]{32}/[0-9a-f-]{36})(?![\w-])"
)
_PROPERTY_RE = lazyre.compile(
    r"(?i)->[ \t]*(?:smtp_?)?pass(?:word|wd)?[ \t]*=[ \t]*(?P<q>[\"'])(?P<value>[^\"'\n]{3,128})(?P=q)"
)
_QUOTED_PW_RE = lazyre.compile(
    r"(?i)\bpass(?:word|phrase|wd)\b[ \t]+(?:is|was|would be|will be)[ \t]+(?P<q>[\"'“‘])"
    r"(?P<value>[^\s\"'“”‘’]{4,64})[\"'”’]"
)


_STATE_WORDS = frozenset(
    [
        "wrong",
        "incorrect",
        "invalid",
        "correct",
        "valid",
        "weak",
        "strong",
        "missing",
        "required",
        "expired",
        "empty",
        "none",
        "blank",
        "case-sensitive",
        "changed",
        "reset",
        "set",
        "unset",
        "unknown",
        "hidden",
        "encrypted",
        "hashed",
        "stored",
        "same",
        "different",
        "insecure",
        "secure",
        "short",
        "long",
    ]
)
"""Words an error message or a note says of a password (``the password is "wrong"``): a state, not the password."""


def _dockercfg_ok(value: str) -> bool:
    """Whether ``value`` may hold registry logins: not a plain word (``placeholder``) and not the base64 of a JSON
    document with no login in it (``eyJhdXRocyI6e319`` is ``{"auths":{}}``)."""
    import base64
    import binascii
    import json

    if value.isalpha() and value.islower():
        return False
    if not value.startswith("eyJ"):
        return True  # not JSON's base64: judged by its shape, as the rule set's examples are
    try:
        doc = json.loads(base64.b64decode(value + "=" * (-len(value) % 4)))
    except (binascii.Error, ValueError):
        return True  # cut or wrapped: judged by its shape
    return not isinstance(doc, dict) or bool(doc.get("auths", doc))


def _literal(value: str) -> bool:
    """Whether ``value`` is a password written out, not a variable, a template or a word about passwords.

    An anonymous login's password is by convention an e-mail address or a name and ``@`` (RFC 1635), not a secret.
    """
    return _pw_value_ok(value) and not value.endswith(("$", "@"))


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of each credential ``text`` passes in one of the module's documented shapes.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the credential's span (without quotes), typed ``password``, ``token`` or ``secret``.
    """
    low = text.lower()
    if "exec" in low and "-p" in text:
        for m in _PSEXEC_RE.finditer(text):
            group = "qv" if m.group("qv") else "value"
            if _literal(m.group(group)):
                yield m.start(group), m.end(group), "password"
    if "Credential(" in text:
        for m in _NETCRED_RE.finditer(text):
            if _literal(m.group("value")):
                yield m.start("value"), m.end("value"), "password"
    if "DirectoryEntry(" in text:
        for m in _DIRENTRY_RE.finditer(text):
            if _literal(m.group("value")):
                yield m.start("value"), m.end("value"), "password"
    if "base64" in low and ("echo" in low or "printf" in low):
        from .speech import _ok

        for m in _TO_BASE64_RE.finditer(text):
            group = next(g for g in ("q1", "q2", "value") if m.group(g) is not None)
            if _literal(m.group(group)) and _ok(m.group(group), min_len=6):
                yield m.start(group), m.end(group), "secret"
    if "x-oauth-basic@" in low:
        for m in _XOAUTH_RE.finditer(text):
            yield m.start("value"), m.end("value"), "token"
    if "IncomingWebhook/" in text:
        for m in _TEAMS_RE.finditer(text):
            yield m.start("value"), m.end("value"), "webhook-url"
    if "->" in text and "pass" in low:
        for m in _PROPERTY_RE.finditer(text):
            if _literal(m.group("value")):
                yield m.start("value"), m.end("value"), "password"
    if ".docker" in text:
        for m in _DOCKERCFG_RE.finditer(text):
            if _dockercfg_ok(m.group("value")):
                yield m.start("value"), m.end("value"), "secret"
    if "pass" in low and (" is" in low or " was" in low or " be" in low):
        for m in _QUOTED_PW_RE.finditer(text):
            if _literal(m.group("value")) and m.group("value").lower() not in _STATE_WORDS:
                yield m.start("value"), m.end("value"), "password"
