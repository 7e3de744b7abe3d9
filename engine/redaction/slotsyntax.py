"""A value written as a slot for a value to come, by the syntax of the language that fills it (issue 32, round 21).

Code and docs write a credential's place before there is a credential: a format string's field, a shell or
template variable, a bind parameter, a manual's stand-in. Such a value is no secret wherever it stands (a URL's
password, a query's, a label's), so :data:`.rules._PLACEHOLDER_RE` takes every class below, not a list of
literals (``%s`` and ``{}`` were redacted as a URL's password until round 21: docs/architecture.md §3):

- **printf** (C's ``printf``, Go's ``fmt``, Java's ``String.format``, shell ``printf``, Python's ``%``): ``%s``,
  ``%v``, ``%d``, ``%+v``, ``%-10s``, ``%1$s``, Go's ``%[2]s``, Python's ``%(password)s``;
- **brace fields** (Python's ``str.format``, .NET's ``String.Format`` and ``$"…"``, Rust's ``format!``, C++'s
  ``std::format``, SLF4J): ``{}``, ``{0}``, ``{1,-8}``, ``{password}``, ``{cfg.password}``, ``{0:>8}``, ``{pw!r}``;
- **shell and environment**: ``$PW``, ``${PW}``, ``${PW:-x}``, ``$(cat pw)``, a backquoted command, ``%PW%``
  (Windows), ``$env:PW`` (PowerShell);
- **templates**: ``{{ pw }}`` (Jinja, Go, Helm, Mustache), ``{% … %}``, ``<%= pw %>`` (ERB, EJS), ``#{pw}`` (Ruby,
  Spring, Azure DevOps' ``#{PW}#``), ``((pw))`` (Concourse), ``[% pw %]`` (Template Toolkit), ``@PW@`` (Maven,
  autoconf), ``__PW__`` (token replacement), ``%env(PW)%`` (Symfony);
- **bind parameters**: ``:password`` (SQL, routes), ``?``;
- **a manual's stand-in**: ``<password>``, ``[YOUR-PASSWORD]`` (a bracketed name of words), a mask (``***``).

A value is a slot only when it is wholly slots (``%s``, ``{0}{1}``); a password holding ``%`` or braces among other
characters (``%sdf8Kq``, ``s3cr3t{``) is not one, nor is a percent-encoded password (``%21%40%23``).
"""

from __future__ import annotations

from . import lazyre

_PRINTF = r"%(?:\d{1,2}\$|\[\d{1,2}\])?[-+\x20\#0']{0,3}(?:\d{1,3}|\*)?(?:\.(?:\d{1,3}|\*))?(?:hh|ll|[hlLqjzt])?[diouxXeEfFgGcsSpqvtTbUw]"
"""A printf conversion: C's, Go's (``%v``, ``%+v``, ``%[1]s``, ``%q``), Java's, shell's; flags, width, precision, length."""
_PY_NAMED = r"%\([\w.-]{1,40}\)[-+\x20\#0]{0,3}\d{0,3}(?:\.\d{1,3})?[diouxXeEfFgGcrsa]"
"""Python's named ``%`` field: ``%(password)s``."""
_NAME = r"[A-Za-z_][A-Za-z_]{0,40}\d{0,2}"
"""A variable's name as code writes one: letters and ``_``, a number only at its end (``db_pass``, ``dbPassword``,
``password2``); letters and digits in turn (``Tr0ub4dor3x``) are a written-out password, not a name."""
_BRACE = (
    r"\{(?:\d{1,2}|" + _NAME + r"(?:\." + _NAME + r"){0,4}(?:\[[\w'\"]{1,40}\])?(?:\(\))?)?(?:![rsa])?"
    r"(?::[^{}\s]{0,20})?(?:,-?\d{1,3})?\}"
)
"""A brace field: ``{}``, ``{0}``, ``{name}``, ``{obj.attr}``, ``{d['k']}``, ``{0:>8}``, ``{pw!r}``, ``{0,-8}``."""
_SHELL = r"\$\{[^{}\s]{1,80}\}|\$\([^()]{1,80}\)|\$" + _NAME + r"|\$\d|`[^`]{1,80}`|%" + _NAME + r"%|\$env:" + _NAME
"""Shell and environment variables: ``${PW}``, ``${PW:-x}``, ``$(cat pw)``, ``$PW``, ``$1``, a backquoted command,
``%PW%``, ``$env:PW``."""
_TEMPLATE = (
    r"\{\{[^{}]{1,80}\}\}|\{\{\{[^{}]{1,80}\}\}\}|\{%[^%]{1,80}%\}|<%=?[^%]{1,80}%>|\#\{[^{}]{1,80}\}\#?|"
    r"\(\([^()]{1,80}\)\)|\[%[^%]{1,80}%\]|@" + _NAME + r"@|__[A-Z][A-Z_]{0,60}\d{0,2}__|%\w{1,20}\([\w.:-]{1,60}\)%"
)
"""Template fields: ``{{ pw }}``, ``{{{pw}}}``, ``{% … %}``, ``<%= pw %>``, ``#{pw}``, ``#{PW}#``, ``((pw))``,
``[% pw %]``, ``@PW@``, ``__PW__``, ``%env(PW)%``."""
_BIND = r":" + _NAME + r"|\?"
"""Bind parameters: ``:password``, ``:new_pw``, ``?``."""
_STAND_IN = r"<[A-Za-z_][\w\x20.-]{0,60}>|\[[A-Za-z][A-Za-z\x20_-]{0,60}\]"
"""A manual's stand-in: ``<password>``, ``<your api key>``, ``[YOUR-PASSWORD]``, ``[password]``."""

SLOT = "(?:" + "|".join((_PY_NAMED, _PRINTF, _BRACE, _SHELL, _TEMPLATE, _BIND, _STAND_IN)) + ")"
"""One slot of any class above: a regular expression's source, safe inside a verbose pattern (no bare space or
``#``)."""
SLOTS = r"(?!(?:%[0-9A-Fa-f]{2})+$)" + SLOT + "+"
"""A value of slots only, never a percent-encoded run (``%2F%2F`` is two printf fields by the letter)."""

_SLOTS_RE = lazyre.compile(SLOTS)


def slots_only(value: str) -> bool:
    """Whether ``value`` is wholly one or more slots of the classes in the module doc.

    Args:
        value: a value as written, quotes already stripped (``%s``, ``{0}``, ``${DB_PASS}``, ``hunter2``).

    Returns:
        bool: True for ``%s``, ``{}``, ``{0}{1}``, ``:password``, ``[YOUR-PASSWORD]``; False for a written-out value
        (``hunter2``, ``%sdf8Kq``, ``%21%40%23``).
    """
    return _SLOTS_RE.fullmatch(value) is not None
