"""Passwords in the slot a command or a config syntax keeps for one (docs/architecture.md §3).

breaker21's B21-1, B21-2, B21-3 and B21-7 (issue 32, round 12). Each shape is a
place whose documented job is to take a password, so a literal value there is
one, whatever it looks like; a variable, a template, a bind parameter or a
placeholder there (``$PW``, ``${X}``, ``:new_password``, ``%s``, ``?``,
``<password>``) is left:

- SQL's ``IDENTIFIED BY '<pw>'`` (MySQL/MariaDB ``CREATE USER``/``ALTER USER``/``GRANT``,
  Oracle ``CREATE USER x IDENTIFIED BY pw``), MySQL's ``IDENTIFIED WITH <plugin> BY '<pw>'`` and ``… AS
  '<hash>'`` (the stored hash, as crackable: issue 32 round 22): upper case as the manuals write it, or any
  case on a line that creates, alters or grants to a user;
- a secret store's value: ``aws ssm put-parameter --value`` when the parameter is a
  ``SecureString`` or its name holds a password word, ``az keyvault secret set --value``,
  macOS ``security add-generic-password -w``;
- a tool's password flag on a line naming the tool: ``mosquitto_pub``/``_sub -P``/``--pw``,
  Net-SNMP's ``-A`` (auth) and ``-X`` (privacy) passphrases and ``-c`` community (not the
  defaults ``public``/``private``), ``lftp -u user,pw``, ``pulumi config set --secret <key> <value>`` (round 26);
- a value piped or fed into a command that reads a password on its input: ``echo pw |
  kinit``, ``printf '%s\\n' pw | sudo -S``, ``| passwd --stdin``, ``| chpasswd``
  (``user:pw``), ``| gpg --passphrase-fd 0``, ``cryptsetup … <<< pw``,
  ``--vault-password-file <(echo pw)``, and (round 26) ``| docker secret create``, ``| vncpasswd``,
  ``| smbpasswd``, ``| htpasswd -i``;
- a default after a secret-named variable: JavaScript's ``process.env.DB_PASSWORD ||
  "pw"`` (``??``), the shell's and Compose's ``${DB_PASSWORD:-pw}``, Spring's
  ``${DB_PASSWORD:pw}`` (``${X:?message}`` is an error message, left);
- a Terraform ``variable "db_password" { default = "pw" }``, on one line or over a block,
  when the name holds a password word or the block says ``sensitive = true``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre
from .configs import _pw_value_ok
from .slotsyntax import slots_only

Span = tuple[int, int, str]

_VAL = r"(?:'(?P<q1>[^'\n]{1,128})'|\"(?P<q2>[^\"\n]{1,128})\"|(?P<v>[^\s'\";,)]{1,128}))"
"""A value: single- or double-quoted, or a run up to a space, a quote, ``;``, ``,`` or ``)``."""
_SECRET_NAME = r"(?:pass(?:word|wd|phrase)?|pwd|pw|secret|token|api_?key|private_?key|credential|creds)"

_SQL_RE = lazyre.compile(
    r"(?i)\bIDENTIFIED[ \t]+(?:BY|WITH[ \t]+['\"`]?[\w-]{1,64}['\"`]?[ \t]+(?:BY|AS))[ \t]+(?:(?:PASSWORD|VALUES)[ \t]+)?"
    + _VAL
)
_SQL_UPPER_RE = lazyre.compile(r"\bIDENTIFIED[ \t]+(?:BY|WITH)\b")
_SQL_STATEMENT_RE = lazyre.compile(r"(?i)\b(?:create|alter)[ \t]+user\b|\bgrant\b")
_SSM_RE = lazyre.compile(r"\bssm[ \t]+put-parameter\b[^\n|;&]*?[ \t]--value(?:=|[ \t]+)" + _VAL)
_SSM_SECRET_RE = lazyre.compile(
    r"(?i)--type(?:=|[ \t]+)['\"]?SecureString\b|--name(?:=|[ \t]+)['\"]?[^\s'\"]*" + _SECRET_NAME
)
_STORE_RES = (
    ("keyvault", lazyre.compile(r"\bkeyvault[ \t]+secret[ \t]+set\b[^\n|;&]*?[ \t]--value(?:=|[ \t]+)" + _VAL)),
    ("security", lazyre.compile(r"\bsecurity[ \t]+add-(?:generic|internet)-password\b[^\n|;&]*?[ \t]-w[ \t]+" + _VAL)),
    ("mosquitto", lazyre.compile(r"\bmosquitto_(?:pub|sub|rr)\b[^\n|;&]*?[ \t](?:-P|--pw)[ \t]+" + _VAL)),
    ("snmp", lazyre.compile(r"\bsnmp[a-z]{2,12}\b[^\n|;&]*?[ \t]-[AXc][ \t]*" + _VAL)),
    ("lftp", lazyre.compile(r"\blftp\b[^\n|;&]*?[ \t]-u[ \t]+[^\s,'\"]{1,64}," + _VAL)),
    (
        "pulumi",  # Pulumi's docs: ``pulumi config set --secret <key> <value>``
        lazyre.compile(
            r"\bpulumi[ \t]+config[ \t]+set\b(?=(?:[^\n|;&#]|(?<!\s)#)*[ \t]--secret\b)"  # "--secret" in the command, not a comment
            r"(?:[ \t]+(?:--(?:stack|cwd|config-file)(?:=|[ \t]+)\S+|-s[ \t]+\S+|--[\w-]+))*"
            r"[ \t]+(?:'[^'\n]{1,128}'|\"[^\"\n]{1,128}\"|[\w.:/\[\]-]+)[ \t]+" + _VAL
        ),
    ),
)
_SNMP_MORE_RE = lazyre.compile(r"[ \t]-[AXc][ \t]*" + _VAL)
_PIPE_RE = lazyre.compile(
    r"\b(?:echo(?:[ \t]+-[ne]{1,2})?|printf(?:[ \t]+(?:'%s(?:\\n)?'|\"%s(?:\\n)?\"))?)[ \t]+" + _VAL + r"[ \t]*\|[ \t]*"
    r"(?:sudo[ \t]+)?(?P<cmd>kinit\b|sudo[ \t]+(?:-\w+[ \t]+)*?-S\b|passwd[ \t]+--stdin\b|chpasswd\b|"
    r"gpg\b[^\n|;&]*--passphrase-fd[ \t]+0\b|cryptsetup\b|ssh-add\b|(?:docker|podman)[ \t]+secret[ \t]+create\b|"
    r"vncpasswd\b|smbpasswd\b|htpasswd\b[^\n|;&]*[ \t]-\w*i)"
)
_HERE_RES = (
    lazyre.compile(r"\b(?:cryptsetup|kinit|passwd|chpasswd|gpg|sudo[ \t]+-S)\b[^\n|;&]*?<<<[ \t]*" + _VAL),
    lazyre.compile(r"--(?:vault-)?password-file[ \t=]+<\([ \t]*echo[ \t]+" + _VAL),
)
_NAME_END = r"(?:[_.-]?(?:key|value))?\d{0,2}"
"""What may follow the secret word at a name's end (``SECRET_KEY``, ``TOKEN_VALUE``, ``PASSWORD2``): a name going on
(``TOKEN_TTL``, ``PASSWORD_FILE``, ``TOKEN_HEADER``) names something else."""
_ENV_DEFAULT_RE = lazyre.compile(
    r"(?i)\bprocess\.env\.[A-Z0-9_]*" + _SECRET_NAME + _NAME_END + r"[ \t]*(?:\|\||\?\?)[ \t]*" + _VAL
)
_PLACEHOLDER_DEFAULT_RE = lazyre.compile(
    r"(?i)\$\{[A-Z0-9_.-]*" + _SECRET_NAME + _NAME_END + r"(?::-|:=|-|:(?![-=?+]))(?P<v>[^}\s'\"]{1,128})\}"
)
_TF_VARIABLE_RE = lazyre.compile(
    r"\bvariable[ \t]+\"(?P<name>[\w-]+)\"[ \t]*\{(?P<body>[^{}]{0,600}?)\bdefault[ \t]*=[ \t]*\"(?P<v>[^\"\n]{1,128})\""
)
_TF_SECRET_NAME_RE = lazyre.compile(r"(?i)" + _SECRET_NAME + _NAME_END + "$")
_TF_SENSITIVE_RE = lazyre.compile(r"\bsensitive[ \t]*=[ \t]*true\b")
_SNMP_DEFAULTS = frozenset({"public", "private"})
_PLACEHOLDER_WORDS_RE = lazyre.compile(r"[a-z_-]*(?:pass(?:word|wd)?|pwd|secret|token)[a-z_-]*")
"""Lower-case words naming a password (``new_password``, ``your_password``): a placeholder, as manuals print one."""
_WORDS_DEFAULT_RE = lazyre.compile(r"[a-z]+(?:[-_ ][a-z]+)+")
"""A default made of lower-case words (``not-set``, ``change-me``, ``your_password_here``): a placeholder saying to set
one (Nosey Parker's negative example ``process.env.X || "not-set"``), not a password."""


def _value(m: re.Match[str]) -> tuple[int, int, str] | None:
    """The value a match holds (quoted or bare) as ``(start, end, text)``, or None when none matched."""
    for group in ("q1", "q2", "v"):
        if m.groupdict().get(group) is not None:
            return m.start(group), m.end(group), m.group(group)
    return None


def _literal(value: str) -> bool:
    """Whether ``value`` is written out, not a variable, template, bind parameter or placeholder."""
    if value.startswith((":", "&", "?", "'", '"')) or slots_only(value) or _PLACEHOLDER_WORDS_RE.fullmatch(value):
        return False
    return _pw_value_ok(value) and not value.endswith("$")


def _emit(m: re.Match[str], slug: str = "password", *, default: bool = False) -> Iterator[Span]:
    """The value of ``m`` when it is written out; ``default``: a fallback, where words are a placeholder."""
    got = _value(m)
    if got is None or not _literal(got[2]):
        return
    if not (default and (_WORDS_DEFAULT_RE.fullmatch(got[2]) or got[2].isdigit())):  # a word or a number: a setting
        yield got[0], got[1], slug


def _sql(text: str) -> Iterator[Span]:
    for m in _SQL_RE.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        line = text[line_start : len(text) if line_end < 0 else line_end]
        if _SQL_UPPER_RE.match(text, m.start()) or _SQL_STATEMENT_RE.search(line):
            yield from _emit(m)


def _stores(text: str, low: str) -> Iterator[Span]:
    if "put-parameter" in low:
        for m in _SSM_RE.finditer(text):
            line_end = text.find("\n", m.start())
            line = text[text.rfind("\n", 0, m.start()) + 1 : len(text) if line_end < 0 else line_end]
            if _SSM_SECRET_RE.search(line):
                yield from _emit(m, "secret")
    for key, regex in _STORE_RES:
        if key not in low:
            continue
        for m in regex.finditer(text):
            got = _value(m)
            if got is None or (key == "snmp" and got[2].lower() in _SNMP_DEFAULTS):
                continue
            yield from _emit(m, "secret" if key == "keyvault" else "password")
            if key == "snmp":  # -A and -X both: the rest of the command line
                line_end = text.find("\n", m.end())
                for more in _SNMP_MORE_RE.finditer(text, m.end(), len(text) if line_end < 0 else line_end):
                    more_value = _value(more)
                    if more_value is not None and more_value[2].lower() not in _SNMP_DEFAULTS:
                        yield from _emit(more)


def _piped(text: str) -> Iterator[Span]:
    for m in _PIPE_RE.finditer(text):
        got = _value(m)
        if got is None:
            continue
        start, end, value = got
        if value.endswith("\\n"):
            end, value = end - 2, value[:-2]
        if m.group("cmd").startswith("chpasswd") and ":" in value:
            cut = value.index(":") + 1
            start, value = start + cut, value[cut:]
        if _literal(value):
            yield start, end, "password"
    for regex in _HERE_RES:
        for m in regex.finditer(text):
            yield from _emit(m)


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of each password in a command's or a config syntax's password slot (the module's shapes).

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the value's span (without its quotes), typed ``password`` or ``secret``.
    """
    low = text.lower()
    if "identified" in low:
        yield from _sql(text)
    yield from _stores(text, low)
    if "|" in text or "<<<" in text or "<(" in text:
        yield from _piped(text)
    if "process.env." in text:
        for m in _ENV_DEFAULT_RE.finditer(text):
            yield from _emit(m, default=True)
    if "${" in text:
        for m in _PLACEHOLDER_DEFAULT_RE.finditer(text):
            yield from _emit(m, default=True)
    if "variable" in text and "default" in text:
        for m in _TF_VARIABLE_RE.finditer(text):
            if _TF_SECRET_NAME_RE.search(m.group("name")) or _TF_SENSITIVE_RE.search(m.group("body")):
                yield from _emit(m, default=True)
