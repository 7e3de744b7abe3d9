"""A secret written as a default in code: a parameter's default and an environment read's fallback (docs/architecture.md §3).

Issue 32 round 22 (CredSweeper's test samples, a tuning source). The assignment reader (:mod:`.assignments`) takes a
line that gives a secret name a quoted value from the line's start, and the labelled rules take ``password="…"``
anywhere. Two places in code hold a secret further in, after a type or after a call:

- a parameter's typed default inside a parameter list: ``def connect(user, password: str = "…")``,
  ``fun login(token: String = "…")``, ``function f(apiKey: string = "…")``, ``(pw: Optional[str] = "…")``;
- an environment read's fallback, the value used when the variable is unset: the read's default argument
  (``os.getenv("DB_PASSWORD", "…")``, ``os.environ.get(…, "…")``, ``ENV.fetch(…, "…")``, Laravel's ``env(…, "…")``,
  ``System.getenv().getOrDefault(…, "…")``) or an operator after the read (``os.environ.get("X") or "…"``,
  ``process.env.X || "…"``, ``?? "…"``, PHP's ``?: '…'``, ``ENV["X"] || "…"``).

The name must end in a secret word (:func:`.comparisons.secret_kind`): the parameter's, or the variable's the read is
assigned to, or the environment variable's. The value is taken as the assignment reader takes a quoted one
(:func:`.assignments.quoted_secret`): a password's name takes a word, another secret's a credential's shape; a
reference, a template, a placeholder (``changeme``) or a sentence is kept, and so are words alone (``not-set``,
``dev_only``, ``none``): a default is as often a setting's marker for "unset" as a password.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre
from .assignments import quoted_secret
from .comparisons import secret_kind
from .rules import _WORDS_RE

Span = tuple[int, int, str]

_QUOTED = r"(?P<q>[\"'`])(?P<v>[^\"'`\n\\]{3,256})(?P=q)"
_PARAM_RE = lazyre.compile(
    r"[(,][ \t]*(?P<name>[A-Za-z_$][\w$]{0,60})[ \t]*:[ \t]*[A-Za-z][\w.\[\]<>|? ]{0,40}?[ \t]*=[ \t]*"
    + _QUOTED
    + r"[ \t]*[,)]"
)
"""``(…, name: Type = "v")``: a typed parameter's default, the list going on or closing after it."""
_ENV_CALL = (
    r"(?:\b(?:os\.)?getenv|\benviron\.get|\bENV\.fetch|(?<![\w.])env|\bSystem\.getenv\(\)\.getOrDefault"
    r"|\bGetEnvironmentVariable)\([ \t]*[\"'](?P<env>[\w.-]{1,80})[\"']"
)
_DEFAULT_ARG_RE = lazyre.compile(_ENV_CALL + r"[ \t]*,[ \t]*" + _QUOTED + r"[ \t]*\)")
"""An environment read's default argument: ``getenv("NAME", "v")``."""
_FALLBACK_RE = lazyre.compile(
    r"(?:" + _ENV_CALL + r"[ \t]*\)"
    r"|\bprocess\.env\.(?P<env2>\w{1,80})|\b(?:process\.env|ENV|os\.environ|\$_ENV|\$_SERVER)\[[ \t]*[\"'](?P<env3>[\w.-]{1,80})[\"'][ \t]*\])"
    r"[ \t]*(?:\bor\b|\|\||\?\?|\?:)[ \t]*" + _QUOTED
)
"""An environment read, then the value an operator falls back to: ``os.environ.get("NAME") or "v"``."""
_TARGET_RE = lazyre.compile(r"(?<![\w$.])(?P<target>[A-Za-z_$][\w$.]{0,80})[\"'\]]?[ \t]*(?::=|\?\?=|\|\|=|=|:)")
"""A name given a value on the line before a read: ``db_pass = …``, ``SECRET := …``, ``"token": …``,
``val dbPassword: String = …`` (the name and its type both)."""
_TARGET_WINDOW = 240
"""How far before a read its line is searched for the name it is assigned to, in characters."""
_SIGNS = ("env", "ENV", "getenv", "GetEnvironmentVariable", ":")


def _secret(value: str, kind: str) -> bool:
    """Whether a default ``value`` given to a ``kind`` name is a secret: not words alone, and one as assigned."""
    return not _WORDS_RE.fullmatch(value) and quoted_secret(value, pw=kind == "password")


def _assigned_kind(text: str, start: int) -> str | None:
    """The secret kind of the last name given a value before ``start`` on its line (a bounded window), or None."""
    line_start = text.rfind("\n", 0, start) + 1
    kind = None
    for m in _TARGET_RE.finditer(text, max(line_start, start - _TARGET_WINDOW), start):
        kind = secret_kind(m.group("target")) or kind
    return kind


def spans(text: str) -> Iterator[Span]:
    """``(start, end, "password"|"secret")`` of each secret given as a parameter's or an environment read's default.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the value's span without its quotes.
    """
    if not any(sign in text for sign in _SIGNS):
        return
    if ":" in text and "=" in text:
        for m in _PARAM_RE.finditer(text):
            kind = secret_kind(m.group("name"))
            if kind is not None and _secret(m.group("v"), kind):
                yield m.start("v"), m.end("v"), kind
    if "env" not in text.lower():
        return
    for regex in (_DEFAULT_ARG_RE, _FALLBACK_RE):
        for m in regex.finditer(text):
            env = m.group("env") or (m.groupdict().get("env2") or m.groupdict().get("env3") or "")
            kind = _assigned_kind(text, m.start()) or secret_kind(env)
            if kind is not None and _secret(m.group("v"), kind):
                yield m.start("v"), m.end("v"), kind
