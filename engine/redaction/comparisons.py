"""A written-out value compared, literal first, with a secret-named variable (docs/architecture.md §3).

Issue 32 round 17 (Bearer's hardcoded-secret tests, a tuning source: ``if ("xFb8…".equals(password))`` was left).
The labelled rules read ``password == "…"`` and ``assertEquals(password, "…")``, where the name comes first; code
checking a secret as often puts the literal first, where no label precedes it:

- ``"pw" == password`` (also ``===``, ``!=``, ``!==``), the operand a variable, a member, a getter or a subscript
  (``user.getPassword()``, ``req.headers.token``, ``os.environ["API_TOKEN"]``);
- ``"pw".equals(password)`` (``equalsIgnoreCase``, ``contentEquals``, C#'s ``Equals``);
- a two-argument check with the literal first: ``assertEquals("pw", password)``, ``assertEqual``, ``assertSame``,
  ``Objects.equals``, ``String.Equals``, ``hmac.compare_digest``, ``assert.equal``/``strictEqual``;
- ``expect("pw").toBe(password)`` (``toEqual``, ``toStrictEqual``).

The operand's last name must end in a secret word (``password``, ``passwd``, ``pwd``, ``passphrase``, ``secret``,
``token``, ``api_key``, ``private_key``, ``credential``): ``getPasswordHash()``, ``userId``, ``authScheme`` and
``token_type`` name something else. A password's literal is taken as the password slots take one (a word will do,
not a word about passwords: ``"password" == password`` is left); another secret's must mix letters and digits over
8+ characters, as ``secret == "hardcodedsecret"`` is left where the name comes first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre
from .cmdslots import _literal
from .keynames import PASSWORD_WORD

Span = tuple[int, int, str]

_LIT = r"(?P<q>[\"'])(?P<v>[^\"'\n\\]{1,200})(?P=q)"
_SEGMENT = r"(?:[A-Za-z_$][\w$]*(?![\w$])(?:\(\))?|\[[\"'][\w.-]{1,64}[\"']\])"
"""A name (each whole: two names with no dot between are one name, and ``a.b`` split ``ab`` up to seven ways, 2 s of
CPU for 40 letters with no ``)`` after them), a getter or a subscript."""
_OPERAND = r"(?P<op>" + _SEGMENT + r"(?:\.?" + _SEGMENT + r"){0,6})"
_EQUALITY_RE = lazyre.compile(_LIT + r"[ \t]*(?:===?|!==?)[ \t]*" + _OPERAND)
_METHOD_RE = lazyre.compile(
    _LIT + r"\.(?:equals|equalsIgnoreCase|contentEquals|Equals)\([ \t]*" + _OPERAND + r"[ \t]*\)"
)
_CALL_RE = lazyre.compile(
    r"\b(?:assertEquals?|assertSame|assert_equal|Objects\.equals|String\.Equals|compare_digest|strictEqual|equal)"
    r"\([ \t]*" + _LIT + r"[ \t]*,[ \t]*" + _OPERAND + r"[ \t]*[,)]"
)
_EXPECT_RE = lazyre.compile(
    r"\bexpect\([ \t]*" + _LIT + r"[ \t]*\)\.(?:toBe|toEqual|toStrictEqual)\([ \t]*" + _OPERAND + r"[ \t]*\)"
)
_LAST_NAME_RE = lazyre.compile(r"([A-Za-z_$][\w$]*)(?:\(\))?$|\[[\"']([\w.-]+)[\"']\]$")
_PASSWORD_END_RE = lazyre.compile(r"(?i)(?:" + PASSWORD_WORD + r"|pass(?:phrase)?|pwd|pw)\d?$")
_SECRET_END_RE = lazyre.compile(
    r"(?i)(?:secret|token|api_?key|apikey|private_?key|access_?key|secret_?key|credentials?|creds)(?:[_-]?value)?\d?$"
)
_MIXED_RE = lazyre.compile(r"(?=.*[A-Za-z])(?=.*\d)\S{8,}")
_SIGNS = ("==", "equals", "Equals", "assert", "compare_digest", "expect(")


def secret_kind(operand: str) -> str | None:
    """``password``/``secret`` when the operand's last name (or subscript key) ends in that word, else None.

    Args:
        operand: a variable, a member, a getter or a subscript (``user.getPassword()``, ``env["API_TOKEN"]``).

    Returns:
        str | None: ``"password"``, ``"secret"``, or None when the last name ends in neither.
    """
    m = _LAST_NAME_RE.search(operand)
    if m is None:
        return None
    name = m.group(1) or m.group(2)
    name = re.sub(r"^(?:get|is)(?=[A-Z])", "", name)
    if _PASSWORD_END_RE.search(name):
        return "password"
    if _SECRET_END_RE.search(name):
        return "secret"
    return None


def spans(text: str) -> Iterator[Span]:
    """``(start, end, "password"|"secret")`` of each literal compared first with a secret-named variable.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the literal's span without its quotes.
    """
    if not any(sign in text for sign in _SIGNS):
        return
    for regex in (_EQUALITY_RE, _METHOD_RE, _CALL_RE, _EXPECT_RE):
        for m in regex.finditer(text):
            kind, value = secret_kind(m.group("op")), m.group("v")
            if kind is None or not _literal(value):
                continue
            if kind == "password" or _MIXED_RE.fullmatch(value):
                yield m.start("v"), m.end("v"), kind
