"""A password or key assigned to, or compared with, a named variable in code (docs/architecture.md §3).

The config rule (:mod:`.configs`) reads a whole line that gives a password key a
plain value; an unquoted word after `` = `` is taken as a variable. Code has more
shapes than that, in the languages detect-secrets' keyword plugin covers
(github.com/Yelp/detect-secrets, Apache-2.0: the shapes, not its values):

- a quoted value on a line that assigns a secret name, whatever holds the quotes:
  ``char db_secret[25] = "…";``, ``password = @"…";`` (Objective-C),
  ``var password string = "…"`` (Go), ``val apiKey: String = "…"``, ``$pass = '…';``,
  ``PASSWORD := "…"``, ``secret: '…'``; commas, colons and braces inside the quotes
  are the value's own; a line comment may follow (``= "…", // kotlin``);
- a quoted value compared with a secret name: ``if (api_key == "…")``,
  ``if ("…" !== password)``;
- a C++ string built from a quoted value: ``std::string secret("…");``,
  ``secret.assign("…", 17);``;
- an unquoted value on such a line that cannot be a code expression: its brackets
  do not pair (``m{{h}o)p${e]…``) or it holds three or more symbols that are no
  operator's (``A,.:-¨@*¿?!``), and a letter or digit (``,.:-¨@*¿?!`` alone is kept).

A name is a secret name when it ends in a password or key word (``db_pass``,
``my_super_password``, ``aws_secret_access_key``), optionally followed by a
short suffix (``_secure``, ``_sec``, ``2``). A value is kept when it is a
reference or a template (``$VAR``, ``{{ x }}``, ``%(pw)s``, ``<password>``), a
word about a password (``required``, ``string``), a path, a URL, an address or a
constant's name, or when it holds a space (a sentence).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre
from .configs import _ABOUT_PREFIX_RE, _ABOUT_WORDS, _NOT_PW_KEY_RE, chosen_secret, chosen_secret_value
from .keynames import PASSWORD_WORD
from .rules import _EMAIL_RE, _ENV_NAME_RE, _PATH_RE, _PLACEHOLDER_RE
from .speech import _ok

Span = tuple[int, int, str]

_PW = r"(?:" + PASSWORD_WORD + r"|pwd|passphrase|pass|passwort|kennwort|senha|contrase[ñn]a)"
_WORD = (
    r"(?:(?P<pw>" + _PW + r")|secrete?|api_?key|access_?key|private_?key|priv_?key|auth_?key|client_?key|"
    r"secret_?key|db_?key|service_?key|account_?key)"
)
_NAME = (
    r"(?<![\w$])(?P<name>(?:[A-Za-z_$][\w$.]{0,60}?)?" + _WORD + r"(?:_?(?:secure|sec|value|val|str|string)|\d{1,3})?)"
    r"(?![\w$])"
)
_QUOTED = r"@?(?:\"(?P<dq>[^\"\n]{3,256})\"|'(?P<sq>[^'\n]{3,256})'|`(?P<bq>[^`\n]{3,256})`)"
_CMP = r"[ \t]*(?:===?|!==?)[ \t]*"
_COMMENT = r"(?:(?://|#|--)[^\n]*)?"
"""A line comment after the value (``= "…", // prod``, ``= "…"  # ops``): the line still ends with the value."""
_DECL = (
    r"(?im)^[ \t]*(?:-[ \t]+)?(?:(?:export|const|let|var|val|final|private|public|protected|static|readonly|my|our|"
    r"local|auto|char|string|String|std::string|NSString|str)[ \t*]+)*[\"']?\$?"
)
_TYPE = r"(?:\[\d{0,4}\]|[ \t]+[A-Za-z][\w.:<>]{0,30}|[ \t]*:[ \t]*[A-Za-z][\w.<>?]{0,30}(?=[ \t]*=))?[\"']?"
_OP = r"[ \t]*(?::=|=>|<-|=|:)[ \t]*"
_RES_QUOTED = (
    lazyre.compile(_DECL + _NAME + _TYPE + _OP + _QUOTED + r"[ \t]*(?:[,;)][ \t]*)?" + _COMMENT + "$"),
    lazyre.compile(r"(?i)" + _NAME + _CMP + _QUOTED),
    lazyre.compile(r"(?i)" + _QUOTED + _CMP + _NAME),
    lazyre.compile(r"(?i)\b(?:std::)?string[ \t]+" + _NAME + r"[ \t]*[({][ \t]*" + _QUOTED),
    lazyre.compile(r"(?i)" + _NAME + r"\.assign\([ \t]*" + _QUOTED),
)
_UNQUOTED_RE = lazyre.compile(_DECL + _NAME + _TYPE + _OP + r"(?P<value>[^\s\"'`„“”«»‹›「」『』]{7,256})[\"'`]?[ \t]*$")
_TEMPLATE_RE = lazyre.compile(
    r"\{\{\s*[\w.]+[^{}]*\}\}|\$\{[\w.:-]+\}|#\{[\w.\[\]'\"()]+\}|%\(\w+\)[sd]|(?<!\{)\{\w*\}(?!\})|%\w+(?:\([\w.-]*\))?%|<\w+>"
)
"""A template or format field inside a value (``db-{{ env }}``, ``${PW}``, ``#{ENV['PW']}``, ``%(pw)s``, ``{0}``,
``%env(PW)%``, ``<password>``)."""
_WRAPPED_NAME_RE = lazyre.compile(r"[^A-Za-z0-9]+[A-Z][A-Z0-9_]*[A-Z][^A-Za-z0-9]+")
"""A constant's name wrapped in a build tool's markers: a placeholder (``@@API_KEY@@``, ``__PASSWORD__``)."""
_CALL_RE = lazyre.compile(r"[A-Za-z_$][\w$.]*\([^()]*\);?")
"""A call, the value a function returns (``obj.getPassword()``, ``aFunctionCall();``)."""
_PLAIN_SYMBOLS = frozenset("_-./:+=()[]{};")
_PAIRS = {")": "(", "]": "[", "}": "{"}
_NAME_KEYS = ("pass", "pwd", "psw", "pssw", "pasw", "senha", "contrase", "kennwort", "secret", "key")
_LINE_RE = lazyre.compile(r"[^\r\n]+")


def _reference(value: str) -> bool:
    """Whether ``value`` names something instead of being a secret: a reference, a template, a word about a password,
    a path, a URL, an address or a constant's name."""
    if value.lower() in _ABOUT_WORDS or _ABOUT_PREFIX_RE.match(value) or _PLACEHOLDER_RE.match(value):
        return True
    if _ENV_NAME_RE.fullmatch(value) or _TEMPLATE_RE.search(value) or _CALL_RE.fullmatch(value.strip("'\"")):
        return True
    if re.fullmatch(r"\$\w+", value) or _WRAPPED_NAME_RE.fullmatch(value):
        return True
    return "://" in value or bool(_EMAIL_RE.fullmatch(value) or _PATH_RE.fullmatch(value))


def _symbols(value: str) -> int:
    """How many characters of ``value`` are symbols no name, path or call is made of."""
    return sum(not c.isalnum() and not c.isspace() and c not in _PLAIN_SYMBOLS for c in value)


def _quoted_ok(value: str, *, pw: bool) -> bool:
    """Whether a quoted value of a secret name is a secret: a password name takes a word, a key name a credential,
    three symbols or brackets that do not pair."""
    if any(c.isspace() for c in value) or _reference(value) or not any(c.isalnum() for c in value):
        return False
    if pw:
        return len(value) >= 4
    return len(value) >= 8 and (_ok(value, min_len=8) or _symbols(value) >= 3 or _unpaired(value))


quoted_secret = _quoted_ok
"""Whether a quoted value given to a secret name is a secret (``pw``: the name is a password's); for
:mod:`.codedefaults`, which reads the same values in a parameter's and an environment read's default."""


def _unpaired(value: str) -> bool:
    """Whether the brackets in ``value`` do not pair, as they would in a call or an index."""
    stack: list[str] = []
    for c in value:
        if c in "([{":
            stack.append(c)
        elif c in _PAIRS and (not stack or stack.pop() != _PAIRS[c]):
            return True
    return bool(stack)


def _name_ok(m: re.Match[str]) -> bool:
    name = m.group("name")
    return not m.group("pw") or (name.lower() != "pass" and not _NOT_PW_KEY_RE.search(name))


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of each password or key assigned to or compared with a secret name in code.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the value's span (without its quotes), typed ``password`` or ``secret``.
    """
    if not any(k in text.lower() for k in _NAME_KEYS):
        return
    for line in _LINE_RE.finditer(text):
        low = line.group().lower()
        if any(k in low for k in _NAME_KEYS):
            yield from _line_spans(line.group(), line.start())


def _line_spans(line: str, base: int) -> Iterator[Span]:
    """The spans of one line that holds a secret word; ``base``: the line's offset in its text."""
    compares = "==" in line or "!=" in line
    for i, pattern in enumerate(_RES_QUOTED):
        if (i in (1, 2) and not compares) or (i == 3 and "tring" not in line) or (i == 4 and ".assign" not in line):
            continue
        for m in pattern.finditer(line):
            group = next(g for g in ("dq", "sq", "bq") if m.group(g) is not None)
            pw, value = bool(m.group("pw")), m.group(group)
            chosen = (
                not pw and chosen_secret(m.group("name")) and chosen_secret_value(value) and _quoted_ok(value, pw=True)
            )
            if chosen or (_name_ok(m) and _quoted_ok(value, pw=pw)):
                yield base + m.start(group), base + m.end(group), "password" if pw else "secret"
    for m in _UNQUOTED_RE.finditer(line):
        value = m.group("value")
        if not _name_ok(m) or _reference(value) or not any(c.isalnum() for c in value):
            continue  # symbols alone are a separator line or a mask, not a password
        if _unpaired(value) or _symbols(value) >= 3:
            yield base + m.start("value"), base + m.end("value"), "password" if m.group("pw") else "secret"
