"""Secrets in a command's credential slot, and a spaced app password after a password name (docs/architecture.md §3).

breaker16's B16-10 and B16-11 (issue 32): one-case hex, UUIDs and four spaced
letter groups read as digests, ids or words to the other rules, but these places
hold nothing else:

- ``gh secret set NAME --body <v>`` (``-b``): the command's whole job is a secret;
- ``curl -u <key>:`` (``--user``): an API key as the user with an empty password (Recurly, Stripe);
- ``echo <v> | … --password-stdin``: the password piped to ``docker login`` and the like;
- a Google app password, four groups of four letters, after ``…PASSWORD=``/``…PASS=``/``…PWD=``
  ending its line (``EMAIL_HOST_PASSWORD=wxqz hbfk tnrp cymd``), when a group reads as no word.

:func:`credential_slot` also tells :mod:`.public` where a UUID is a password, not an id (B16-1).
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre
from .rules import _PLACEHOLDER_RE

SECRET_WORDS_BEFORE_RE = lazyre.compile(
    r"(?i)(?:key|token|secret|passw|pwd|auth|credential|bearer|heroku|api)[\w.-]{0,30}[\"'>]?(?:\s+\w+){0,2}"
    r"(?:[\s,:=?.>\"'{`]{0,12}|[ \t]+\([\w .-]{1,24}\)[ \t]*:?\s{1,12}|[\"']?:[ \t]*[|>][-+]?[1-9]?[ \t]*\r?\n[ \t]*"
    r"|\"[ \t]*\{[ \t]*\r?\n[ \t]*default[ \t]*=[ \t]*\")$"
)
"""Words naming a secret just before a value (a UUID, a host name :mod:`.public` and :mod:`.pubformats` would keep):
then it is not kept. Also over a line break when the name opens a YAML block scalar (``token: |``) or ends a label
line with a note in brackets (``heroku key (prod)``), as the views of :func:`.find` and :mod:`.layout` read them, or
names a Terraform variable whose ``default`` is on the next line (``variable "x_token" {`` / ``default = "<uuid>"``);
a backtick quotes like ``"`` (``snyktoken=`<uuid>```)."""

Span = tuple[int, int, str]

_GH_BODY_RE = lazyre.compile(
    r"\bgh\s+secret\s+set\b[^\n|;&]*?\s(?:--body|-b)(?:=|\s+)(?P<q>['\"])?(?P<value>[^\s'\"]{8,512})(?(q)(?P=q))"
)
_CURL_KEY_RE = lazyre.compile(
    r"\bcurl\b[^\n|;&]{0,300}?\s(?:-u|--user)(?:=|\s{1,5})(?P<q>['\"])?(?P<value>[A-Za-z0-9_-]{16,128}):(?(q)(?P=q))(?=\s|$)"
)
_STDIN_RE = lazyre.compile(
    r"\b(?:echo|printf)\s+(?:-n\s+)?(?P<q>['\"])?(?P<value>[^\s'\"|$]{8,512})(?(q)(?P=q))\s*\|[^\n|;&]*--password-stdin\b"
)
_APP_PW_RE = lazyre.compile(
    r"(?m)(?<![\w$])[A-Za-z][A-Za-z0-9_]{0,40}(?:PASSWORD|PASSWD|PASS|PWD|password|passwd|pass|pwd)[ \t]*[=:][ \t]*"
    r"(?P<value>[a-z]{4}(?: [a-z]{4}){3})(?=[ \t]*(?:#|$))"
)
_NO_VOWEL_RE = lazyre.compile(r"[^aeiouy]{3}")
_SLOT_BEFORE_RE = lazyre.compile(
    r"(?:://[^\s/@]{0,64}:|(?:^|\s)(?:-p\s*|--password[= ]|-a\s+|(?:-u|--user)[= ]?\s*[^\s:]{1,64}:)|"
    r"(?m:^)[^\s:]{1,253}:(?:\d{1,5}|\*):[^\s:]{1,64}:[^\s:]{1,64}:|\"k\"\s*:\s*\")$"
)
"""What stands right before a password: a URL's ``user:``, ``-p``, ``--password=``, ``redis-cli -a``, ``-u user:``,
a ``.pgpass`` line's first four fields, and a JWK's ``"k":`` (a symmetric key)."""

_CURL_USER_BEFORE_RE = lazyre.compile(r"\bcurl\b[^\n|;&]{0,300}?\s(?:-u|--user)(?:=|\s{1,5})['\"]?$")
"""``curl … -u`` right before a value."""


def credential_slot(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` stands where only a password goes (B16-1): after a URL's ``user:`` and before its
    ``@``, after ``-p``/``--password``/``-a``/``-u user:``, at a ``.pgpass`` line's end, or as ``curl -u <v>:``.

    Args:
        text: the whole text.
        start: where the value starts.
        end: where it ends.

    Returns:
        bool: True when the value is a password by its place.
    """
    before = text[max(0, start - 300) : start]
    after = text[end : end + 1]
    if before.endswith(":") and "://" in before[-80:]:
        return after == "@"
    if _SLOT_BEFORE_RE.search(before):
        return True
    return after == ":" and bool(_CURL_USER_BEFORE_RE.search(before))


def _random_groups(value: str) -> bool:
    """Whether four letter groups read as random (a group with no vowel, or three consonants in a row), not words."""
    groups = value.split()
    return len(set(value.replace(" ", ""))) > 4 and any(_NO_VOWEL_RE.search(g) for g in groups)


def spans(text: str) -> Iterator[Span]:
    """Every secret in a credential slot of ``text``: ``gh secret set --body``, ``curl -u <key>:``, ``echo <v> |
    … --password-stdin``, and a spaced app password after a password name.

    Args:
        text: any text.

    Returns:
        Iterator[Span]: ``(start, end, type)`` spans.
    """
    low = text.lower()
    rules = (  # a key: the least specific type, so a vendor's rule names it when one finds it too
        (_GH_BODY_RE, "secret" in low, "generic-api-key"),
        (_CURL_KEY_RE, "curl" in low, "generic-api-key"),
        (_STDIN_RE, "password-stdin" in low, "password"),
    )
    for regex, wanted, slug in rules:
        for m in regex.finditer(text) if wanted else ():
            value = m.group("value")
            if not _PLACEHOLDER_RE.match(value) and not value.startswith(("$", "<", "{", "%")):
                yield m.start("value"), m.end("value"), slug
    if "pass" in low or "pwd" in low:
        for m in _APP_PW_RE.finditer(text):
            if _random_groups(m.group("value")):
                yield m.start("value"), m.end("value"), "password"
