"""Passwords in the clause SQL keeps for one, besides ``IDENTIFIED BY`` (docs/architecture.md §3).

Issue 32 round 17 (GitHub's secret-scanning custom patterns, a tuning source: ``CREATE USER phony WITH PASSWORD =
'mynewcreds';`` was left). :mod:`.cmdslots` reads MySQL's and Oracle's ``IDENTIFIED BY``; the other databases
take a password in a ``PASSWORD`` clause of the statement that creates or alters a login, whose documented job is
to take one, so a string literal there is a password, whatever it looks like:

- PostgreSQL ``CREATE ROLE|USER name [WITH] [LOGIN] [ENCRYPTED] PASSWORD 'pw'`` and ``ALTER ROLE|USER``;
- SQL Server ``CREATE LOGIN|USER name WITH PASSWORD = 'pw'`` (also ``N'pw'``), ``ALTER LOGIN``;
- MySQL ``SET PASSWORD [FOR user] = 'pw'`` (also ``= PASSWORD('pw')``).

Only a quoted literal: ``PASSWORD NULL``, a bind parameter (``:pw``, ``$1``, ``?``, ``%s``) or a word about
passwords (``'new_password'``) is left, as in :mod:`.cmdslots`.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre
from .cmdslots import _literal

Span = tuple[int, int, str]

_LITERAL = r"N?'(?P<v>[^'\n]{1,128})'"
_CLAUSE_RE = lazyre.compile(
    r"(?i)\b(?:create|alter)[ \t]+(?:user|role|login)\b[^;\n]{0,200}?\bpassword[ \t]*=?[ \t]*" + _LITERAL
)
_SET_RE = lazyre.compile(
    r"(?i)\bset[ \t]+password\b(?:[ \t]+for[ \t]+[^=;\n]{1,120}?)?[ \t]*=[ \t]*(?:password[ \t]*\([ \t]*)?" + _LITERAL
)


def spans(text: str) -> Iterator[Span]:
    """``(start, end, "password")`` of each string literal in a SQL statement's password clause.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the literal's span without its quotes.
    """
    if "password" not in text.lower():
        return
    for regex in (_CLAUSE_RE, _SET_RE):
        for m in regex.finditer(text):
            if _literal(m.group("v")):
                yield m.start("v"), m.end("v"), "password"
