"""Passwords a tool takes as a positional operand, by a documented table (docs/architecture.md §3).

breaker24's B24-1 (issue 32, round 13). Each row is a command whose manual puts a
secret in one operand's place, so a literal value there is one, whatever it looks
like (a plain word will do: ``sunflower-river-42`` is a wifi key):

===========================================  ==========================================  =========
command                                      operands (manual's names)                   secret
===========================================  ==========================================  =========
``mc alias set`` (MinIO client)              ALIAS URL ACCESSKEY SECRETKEY               4th
``mc config host add`` (older mc)            ALIAS URL ACCESSKEY SECRETKEY               4th
``composer config http-basic.<host>``        KEY USER PASSWORD                           3rd
``composer config bitbucket-oauth.<host>``   KEY CONSUMER-KEY CONSUMER-SECRET            3rd
``composer config gitlab-token.<host>``      KEY TOKEN (``github-oauth``, ``gitlab-oauth``,  2nd
                                             ``bearer`` too)
``poetry config http-basic.<repo>``          KEY USER PASSWORD                           3rd
``poetry config pypi-token.<repo>``          KEY TOKEN                                   2nd
``bw unlock`` (Bitwarden CLI)                [PASSWORD]                                  1st
``bw login``                                 [EMAIL] [PASSWORD]                          2nd
``networksetup -setairportnetwork``          DEVICE NETWORK [PASSWORD]                   3rd
``networksetup -addpreferredwireless…``      DEVICE NETWORK INDEX SECURITYTYPE [PASSWORD] 5th
``htpasswd -b``                              FILE USER PASSWORD (``-n``: USER PASSWORD)  3rd / 2nd
``mysqladmin … password``                    NEW-PASSWORD                                1st
``p4 -P <pw>`` (Perforce global option)      the option's value                          -
===========================================  ==========================================  =========

Options before or between the operands are skipped (with their value when the tool's
manual says they take one: ``mc alias set --api S3v4``, ``bw unlock --passwordenv X``).

Network devices' configs (Cisco IOS and the many that copy its syntax) hold the
password after a type digit: ``enable secret [0] <pw>``, ``username <u> [privilege
15] secret|password [0|7] <pw>``, ``tacacs-server|radius-server [host <h>] key [0|7]
<k>``, ``wpa-psk ascii [0|7] <k>``, ``key-string <k>`` and ``snmp-server community <c>
[RO|RW]`` (not the defaults ``public``/``private``, ``cisco``/``admin``, nor a word naming the setting:
``wpa-psk ascii mode``). Type 0 is clear text and type 7
is reversible, so both count; 5, 8 and 9 are one-way hashes, left to the hash rules.

Left: a variable or a placeholder (``$MINIO_PASSWORD``, ``<password>``, ``%PW%``), a
documented default (``minioadmin``), and prose that happens to name a command ("bw
unlock asks for the master password", "enable secret is better than enable
password"): a function word among the operands, or a plain word where no config
line's shape says it is a value.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from . import lazyre
from .configs import _pw_value_ok

Span = tuple[int, int, str]


@dataclass(frozen=True)
class Tool:
    """One command of the table: where its secret stands."""

    words: tuple[str, ...]
    """The command and its subcommand words, in order (``("mc", "alias", "set")``)."""
    secret: int
    """Which operand after :attr:`words` holds the secret, from 0 (-1: only :attr:`keys` say)."""
    keys: tuple[tuple[str, int], ...] = ()
    """A first operand's prefix and the secret's operand for it (``("http-basic.", 2)``): a config key naming a
    credential; any other key holds none."""
    valued: frozenset[str] = frozenset()
    """Options that take a value (skipped with it)."""
    defaults: frozenset[str] = frozenset()
    """Documented default values, kept."""
    words_ok: bool = True
    """Whether a plain lower-case word counts (several operands before it make prose unlikely)."""


_TOOLS = (
    Tool(("mc", "alias", "set"), 3, valued=frozenset({"--api", "--path"}), defaults=frozenset({"minioadmin"})),
    Tool(
        ("mc", "config", "host", "add"), 3, valued=frozenset({"--api", "--lookup"}), defaults=frozenset({"minioadmin"})
    ),
    Tool(
        ("composer", "config"),
        -1,
        keys=(("http-basic.", 2), ("bitbucket-oauth.", 2), ("gitlab-token.", 1), ("github-oauth.", 1)),
        valued=frozenset({"--file", "-f", "--working-dir", "-d"}),
    ),
    Tool(("composer", "config"), -1, keys=(("gitlab-oauth.", 1), ("bearer.", 1))),
    Tool(("poetry", "config"), -1, keys=(("http-basic.", 2), ("pypi-token.", 1))),
    Tool(("bw", "unlock"), 0, valued=frozenset({"--passwordenv", "--passwordfile", "--session"}), words_ok=False),
    Tool(("bw", "login"), 1, valued=frozenset({"--passwordenv", "--passwordfile", "--method", "--code", "--session"})),
    Tool(("networksetup", "-setairportnetwork"), 2),
    Tool(("networksetup", "-addpreferredwirelessnetworkatindex"), 4),
    Tool(("htpasswd",), -1, valued=frozenset({"-C", "-r"})),
    Tool(("mysqladmin",), -1, valued=frozenset({"-u", "-h", "-P", "-S", "--user", "--host", "--port", "--socket"})),
)
_COMMANDS = frozenset(t.words[0] for t in _TOOLS)
_START_RE = lazyre.compile(
    r"(?:^|(?<=[\s`'\"(;|&$:]))(?:sudo[ \t]+)?(?P<cmd>mc|composer|poetry|bw|networksetup|htpasswd|mysqladmin)"
    r"(?:\.exe)?(?=[ \t])"
)
_TOKEN_RE = lazyre.compile(r"'(?P<q1>[^'\n]*)'|\"(?P<q2>[^\"\n]*)\"|(?P<v>[^\s'\"]+)")
_ENDS = frozenset({"|", "||", "&&", ";", ">", ">>", "<", "&", "#"})
_FUNCTION_TEXT = """
    a an the is are was be it its this that to for from with and or but if as so of in on at by you your my our
    asks ask prompts prompt then when which will would can could should must not no first
    """
_FUNCTION = frozenset(_FUNCTION_TEXT.split())
"""Words that tell an operand run is a sentence about the command ("bw unlock asks for ...")."""
_P4_RE = lazyre.compile(
    r"(?:^|(?<=[\s`'\"(;|&$:]))p4(?:\.exe)?[ \t][^\n|;&]*?(?<=[ \t])-P[ \t]*(?P<value>[^\s'\"]{4,128})"
)
_IOS_RE = lazyre.compile(
    r"(?im)(?:^|(?<=[\s:>#]))(?P<head>enable[ \t]+(?:secret|password)(?:[ \t]+level[ \t]+\d{1,2})?|"
    r"username[ \t]+\S{1,64}(?:[ \t]+(?:privilege[ \t]+\d{1,2}|view[ \t]+\S+|algorithm-type[ \t]+\S+))*[ \t]+"
    r"(?:secret|password)|(?:tacacs-server|radius-server)(?:[ \t]+host[ \t]+\S+)?[ \t]+key|wpa-psk[ \t]+ascii|"
    r"key-string|snmp-server[ \t]+community)"
    r"[ \t]+(?:(?P<type>[0-9])[ \t]+)?(?!level\b)(?P<value>[^\s'\"]{1,128})(?P<after>[ \t]+\S+)?"
)
_IOS_AFTER_RE = lazyre.compile(r"(?i)[ \t]+(?:ro|rw|view|\d{1,4}|ipv6|level|timeout|port)\b")
_SNMP_DEFAULTS = frozenset({"public", "private"})
_IOS_WORDS = frozenset({"mode", "string", "strings", "type", "types", "value", "encryption", "admin", "cisco"})
"""Words after a device config's password keyword that name the setting, or the vendors' factory defaults."""
_PLAIN_RE = lazyre.compile(r"[a-z]+")


def _literal(value: str, tool: Tool | None = None) -> bool:
    """Whether ``value`` is written out: not a variable, a placeholder, a documented default or (when the tool says)
    a plain word."""
    if not _pw_value_ok(value) or value.endswith("$") or value.lower() in _FUNCTION:
        return False
    if tool is None:
        return True
    return value not in tool.defaults and (tool.words_ok or not _PLAIN_RE.fullmatch(value))


def _tokens(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """The shell words of ``text[start:end]`` as ``(start, end, text)``, without quotes, up to a pipe, ``;``, ``&&``,
    a redirection or a comment."""
    out: list[tuple[int, int, str]] = []
    for m in _TOKEN_RE.finditer(text, start, end):
        group = next(g for g in ("q1", "q2", "v") if m.group(g) is not None)
        word = m.group(group)
        if group == "v" and (word in _ENDS or word.startswith(("|", ";", "&&", ">", "#", "`"))):
            break
        s, e = m.start(group), m.end(group)
        if group == "v":
            cut = word.rstrip(".,;)`")
            if word.endswith((";", "`")):
                out.append((s, s + len(cut), cut))
                break
            e, word = s + len(cut), cut
        out.append((s, e, word))
    return out


def _operands(tokens: list[tuple[int, int, str]], tool: Tool) -> list[tuple[int, int, str]] | None:
    """The operands after ``tool``'s words in ``tokens`` (options skipped), or None when the words are not there."""
    i, want = 0, 1
    while want < len(tool.words):
        if i >= len(tokens):
            return None
        word = tokens[i][2]
        if word == tool.words[want]:
            want += 1
        elif not word.startswith("-"):
            return None
        i += 1
    operands = []
    skip = False
    for token in tokens[i:]:
        word = token[2]
        if skip:
            skip = False
        elif word.startswith("-") and len(word) > 1 and not word[1:].isdigit():
            skip = word in tool.valued
        else:
            operands.append(token)
    return operands


def _secret(tool: Tool, operands: list[tuple[int, int, str]], flags: list[str]) -> tuple[int, int, str] | None:
    """The operand holding ``tool``'s secret, if the line has one."""
    index = tool.secret
    if tool.words == ("htpasswd",):
        if not any(f.startswith("-") and not f.startswith("--") and "b" in f for f in flags):
            return None  # without -b htpasswd prompts for the password
        index = 1 if any(f.startswith("-") and "n" in f for f in flags) else 2
    elif tool.words == ("mysqladmin",):
        at = next((k for k, op in enumerate(operands) if op[2] == "password"), None)
        if at is None:
            return None
        operands, index = operands[at + 1 :], 0
    elif tool.keys:
        if not operands:
            return None
        first = operands[0][2].lower()
        index = next((at for prefix, at in tool.keys if first.startswith(prefix) and len(first) > len(prefix)), -1)
    if index < 0 or index >= len(operands):
        return None
    if any(op[2].lower() in _FUNCTION for op in operands[: index + 1]):
        return None  # a sentence about the command
    return operands[index]


def _tool_spans(text: str) -> Iterator[Span]:
    for m in _START_RE.finditer(text):
        line_end = text.find("\n", m.end())
        tokens = _tokens(text, m.end(), len(text) if line_end < 0 else line_end)
        flags = [t[2] for t in tokens if t[2].startswith("-")]
        for tool in _TOOLS:
            if tool.words[0] != m.group("cmd"):
                continue
            operands = _operands(tokens, tool)
            if operands is None:
                continue
            got = _secret(tool, operands, flags)
            if got is not None and _literal(got[2], tool):
                yield got[0], got[1], "password"
                break


def _ios_spans(text: str) -> Iterator[Span]:
    for m in _IOS_RE.finditer(text):
        kind, value, head = m.group("type"), m.group("value"), m.group("head").lower()
        if kind is not None and kind not in "07":
            continue  # 5, 8, 9: a one-way hash
        if (head.startswith("snmp") and value.lower() in _SNMP_DEFAULTS) or value.lower() in _IOS_WORDS:
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        config_line = not text[line_start : m.start()].strip() or text[line_start : m.start()].rstrip().endswith(
            (":", "#", ">")
        )
        after = m.group("after")
        shaped = kind is not None or after is None or bool(_IOS_AFTER_RE.match(after))
        from .speech import _ok

        if not _literal(value):
            continue
        if (config_line and shaped) or kind is not None or _ok(value, min_len=6):
            yield m.start("value"), m.end("value"), "password"


def spans(text: str) -> Iterator[Span]:
    """``(start, end, "password")`` of each secret in a tool's documented operand slot or a device config's.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the value's span (without quotes).
    """
    low = text.lower()
    if any(cmd in low for cmd in _COMMANDS):
        yield from _tool_spans(text)
    if "p4" in low and "-P" in text:
        for m in _P4_RE.finditer(text):
            if _literal(m.group("value")):
                yield m.start("value"), m.end("value"), "password"
    if any(word in low for word in ("secret", "password", "key", "community", "psk")):
        yield from _ios_spans(text)
