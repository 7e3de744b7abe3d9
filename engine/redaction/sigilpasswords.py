"""A password that starts with ``@`` or ``#``, in a slot that names a password (docs/architecture.md §3).

Issue 32 round 23 (a class read on a tuning part, KICS' CloudFormation queries). The slot readers take a value that
starts with ``@``, ``#``, ``$``, ``{`` ... for a reference (:func:`.configs._pw_value_ok`): ``@Microsoft.KeyVault(…)``,
``#{vault_pw}``, ``@ADMIN_PW@`` (a build's filter token), ``@variable``. A password picked for its punctuation starts
that way as often (``@skdj0234!AB`` is a password, not a reference), and was kept in two slots:

- a template parameter's default when the parameter names a password (CloudFormation's ``Parameters``, an ARM
  template's ``defaultValue``: the slot :mod:`.iacsecrets` reads, ``Description:`` and ``Type:`` lines between);
- an XML element named for a password (``<password>…</password>``, ``<db.password>…</db.password>``: the slot
  :mod:`.configs` reads).

A value starting with ``@`` or ``#`` is taken there when the rest reads as a password (:func:`sigil_password`): six or
more characters with a letter and a digit, no second sigil closing it (``@token@``), and none of the characters a
reference, a template, a call, a path or a host holds (``{ ( . / :`` or a space), then the slot readers' own test.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre
from .configs import _PW, _pw_value_ok
from .iacsecrets import _PARAM_DEFAULT_RE

Span = tuple[int, int, str]

_XML_PW_RE = lazyre.compile(
    r"(?i)<(?P<tag>[\w.:-]{0,40}?" + _PW + r")(?:\s[^<>]{0,200})?>[ \t]*(?P<value>[@#][^<>\s]{6,256})[ \t]*</(?P=tag)>"
)
_REFERENCE_CHARS = frozenset("{}()./:\\$%<>[]")


def sigil_password(value: str) -> bool:
    """Whether ``value``, starting with ``@`` or ``#``, is a password rather than a reference.

    Args:
        value: a slot's value without its quotes.

    Returns:
        bool: True for ``@`` or ``#`` and then 6+ characters holding a letter and a digit, no sigil at the end, none of
        the characters of a reference, template, call, path or host, and passing :func:`.configs._pw_value_ok`.
    """
    if len(value) < 7 or value[0] not in "@#":
        return False
    body = value[1:]
    if body.endswith(value[0]) or any(c in _REFERENCE_CHARS or c.isspace() for c in body):
        return False
    if not (any(c.isalpha() for c in body) and any(c.isdigit() for c in body)):
        return False
    return _pw_value_ok(body)


def spans(text: str) -> Iterator[Span]:
    """``(start, end, "password")`` of each ``@``/``#``-led password in a template default or a password element.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the value's span without its quotes.
    """
    if "@" not in text and "#" not in text:
        return
    if "Default" in text or "defaultValue" in text:
        for m in _PARAM_DEFAULT_RE.finditer(text):
            if m.group("pw") and sigil_password(m.group("value")):
                yield m.start("value"), m.end("value"), "password"
    if "</" in text:
        for m in _XML_PW_RE.finditer(text):
            if sigil_password(m.group("value")):
                yield m.start("value"), m.end("value"), "password"
