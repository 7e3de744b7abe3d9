"""Passwords placed by layout: under their label, or in a table's password column (docs/architecture.md §3).

The label rules (:mod:`.rules`, :mod:`.speech`) need the label and the value on
one line. Notes often put them apart:

- a label alone on its line, then the value alone on the next (indented or not,
  one blank line allowed between): ``Password:`` / ``  hunter2-Blue!``,
  ``**Admin password**`` / ```` `S3cr3t!pw` ````. The label line is a few words
  ending in a secret word (English, and the password words :mod:`.speech` knows
  in eight other languages), with a colon or not; the value line is one token, or
  a quoted phrase;
- a markdown table whose header names a secret column (``password``, ``pw``,
  ``secret``, ``token``, ``api key``, ``senha``, ``비밀번호`` ...): each cell of that
  column in the rows below;
- a row of a table with no header (no ``|---|`` rule row), where a cell follows an
  account name (``admin``, ``root`` ... the names :mod:`.speech`'s ``admin / <pw>``
  rule knows): ``| db | admin | S3cr3t!pw |``. Under a header, the header says
  what each column holds: ``| Host | Role | Region |`` over ``| web01 | admin |
  eu-west-1a |`` holds no password.

Each value must still read as a credential (:func:`.speech._ok`), so a column of
``see vault``, ``-`` or ``$DB_PASSWORD`` stays verbatim.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from . import lazyre
from .slotsyntax import slots_only
from .speech import _ACCOUNT_RE, _LABEL, _ok

Span = tuple[int, int, str]

_SECRET_WORD = (
    r"(?:" + _LABEL + r"|secret|token|api[ _-]?key|access[ _-]?key|private[ _-]?key|credentials?|creds|pin|"
    r"passcode|senha|clave|contrase[ñn]a|(?:recovery|backup)[ _-]?codes?)"
)
"""A word naming a secret: :mod:`.speech`'s password words in nine languages, and the English names of keys."""
_LABEL_LINE = (
    r"(?im)^[ \t]*(?:[-*+>][ \t]+|#{1,6}[ \t]+)?(?:\*\*|__)?"
    r"(?P<label>(?:[\w'’.-]+[ \t]+){0,3}" + _SECRET_WORD + r")s?"
    r"(?:[ \t]+\([\w .-]{1,24}\))?"
    r"(?:\*\*|__)?[ \t]*(?:[:：=][ \t]*)?(?:\*\*|__)?[ \t]*\r?\n(?:[ \t]*(?:[-=]{3,}[ \t]*)?\r?\n)?"
    r"[ \t]*(?:[-*+>][ \t]+)?"
    r"(?:(?P<q>[`'\"])(?P<quoted>[^\n`'\"]{4,128})(?P=q)|(?P<value>[^\s`'\"]{4,128}))[ \t]*(?:\r?\n|$)"
)
"""A label alone on its line (a note in brackets after it: ``stripe key (prod)``), then the value alone on the next
(or after one blank line, or a setext heading's underline)."""
_NOTE_RE = lazyre.compile(r"(?<![ \t])[ \t]+\([\w .-]{1,24}\)$")
_ENDINGS = (
    *(
        "password",
        "passwort",
        "passwd",
        "passphrase",
        "passcode",
        "passe",
        "pw",
        "pwd",
        "pass",
        "mdp",
        "senha",
        "clave",
    ),
    *("contraseña", "contrasena", "kennwort", "secret", "token", "key", "credentials", "credential", "creds", "pin"),
    *(
        "passwords",
        "secrets",
        "tokens",
        "keys",
        "пароль",
        "パスワード",
        "暗証番号",
        "密码",
        "密碼",
        "口令",
        "비밀번호",
        "비번",
    ),
    *("암호", "passe", "palavra-passe"),
)
"""How a label line ends, lower case (:data:`_LABEL_LINE` is tried only on such a line)."""
_ROW_RE = lazyre.compile(r"(?m)^[ \t]*\|(?P<cells>.*)\|[ \t]*$")
_RULE_ROW_RE = lazyre.compile(r"[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*(?::?-{3,}:?)?[ \t]*")
_HEADER = r"(?i)^[ \t*_`]*(?:[\w.'’-]+[ \t]+){0,2}" + _SECRET_WORD + r"s?[ \t*_`]*$"
"""A table header cell naming a secret column (compiled on first use, as :data:`_LABEL_LINE` is)."""
_NOT_VALUE_RE = lazyre.compile(r"(?i)^(?:n/?a|none|null|-+|—|yes|no|true|false|set|unset|required|optional|see\b.*)$")


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled once, on first use: both embed :mod:`.speech`'s password words (~14 ms to compile)."""
    return re.compile(pattern)


def _cells(row: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each cell's text in a table ``row`` (between pipes, spaces trimmed), in ``row``."""
    out: list[tuple[int, int]] = []
    pos = row.index("|") + 1
    while True:
        bar = row.find("|", pos)
        if bar < 0:
            return out
        cell = row[pos:bar]
        lead = len(cell) - len(cell.lstrip())
        out.append((pos + lead, pos + len(cell.rstrip())))
        pos = bar + 1


_PIN_RE = lazyre.compile(r"(?i)(?:^|[\s*_`])pins?[\s*_`:：=]*$")
"""A label or header ending in "pin": a device's pin is named too (``| Pin | Signal |`` / ``| GPIO17 | LED |``)."""


def _value_ok(value: str, *, pin: bool = False) -> bool:
    """Whether a cell or a line's value reads as a credential: not a placeholder or a word like "n/a" or "see vault";
    under a ``pin`` label or header, 4 to 8 digits (a PIN), never a pin's name such as ``GPIO17``."""
    value = value.strip("`*_ ")
    if pin:
        return value.isdigit() and 4 <= len(value) <= 8
    return bool(value) and not _NOT_VALUE_RE.match(value) and " " not in value and _ok(value, min_len=6)


def _tables(text: str) -> Iterator[list[re.Match[str]]]:
    """The rows of each table in ``text``: runs of table rows on consecutive lines."""
    rows: list[re.Match[str]] = []
    for m in _ROW_RE.finditer(text):
        if rows and m.start() != rows[-1].end() + 1:
            yield rows  # not the line after the last row: a new table begins
            rows = []
        rows.append(m)
    if rows:
        yield rows


def _table_spans(text: str) -> Iterator[Span]:
    """Cells of a table's secret columns, and in a table without a header, cells after an account name's cell."""
    for rows in _tables(text):
        yield from _rows_spans(rows)


_NAME_CELL_RE = lazyre.compile(
    r"(?i)(?:[\w.]{0,40}[_.-])?(?:pass(?:word|wd)?|pwd|secret|token|api[_-]?key|passwort|kennwort|contrase[ñn]a|senha|"
    r"mot[ _-]de[ _-]passe|wachtwoord)"
)
_VALUE_HEADER_RE = lazyre.compile(r"(?i)value|wert|valeur|valor|valore|waarde|значение|値|值|값")
"""A two-cell row's first cell naming a password or key (``| DB_PASS | … |``, ``| WLAN-Passwort | … |``), its word
ending the name: under a ``| Key | Value |`` header (``| Name | Wert |``), the second cell is its value when it reads
as a credential (round 26; ``| DB_PASSWORD | secretKeyRef |`` and ``| Bypass | … |`` stay)."""


def _rows_spans(rows: list[re.Match[str]]) -> Iterator[Span]:
    """:func:`_table_spans` of one table's rows."""
    secret_cols: set[int] = set()
    pin_cols: set[int] = set()
    kv_table = False
    headed = any(_RULE_ROW_RE.fullmatch(m.group(0)) for m in rows)
    for m in rows:
        row, base = m.group(0), m.start()
        if _RULE_ROW_RE.fullmatch(row):
            continue
        cells = _cells(row)
        texts = [row[a:b] for a, b in cells]
        headers = {i for i, t in enumerate(texts) if _compiled(_HEADER).match(t)}
        if len(texts) == 2 and _VALUE_HEADER_RE.fullmatch(texts[1].strip("`*_ ")):
            kv_table = True  # ``| Key | Value |``, ``| Name | Wert |``: the rows below are names and their values
            continue
        if headers and not any(_value_ok(t) for t in texts):
            secret_cols = headers
            pin_cols = {i for i in headers if _PIN_RE.search(texts[i])}
            continue
        named = (
            kv_table
            and len(cells) == 2
            and _NAME_CELL_RE.fullmatch(texts[0].strip("`*_ ")) is not None
            and _ok(texts[1].strip("`*_ "), min_len=6)
        )
        for i, (a, _b) in enumerate(cells):
            after_account = bool(not headed and i > 0 and _ACCOUNT_RE.match(texts[i - 1].strip("`*_ ")))
            after_account = after_account or (named and i == 1)  # ``| DB_PASS | <pw> |``: a key/value table
            pin = i in secret_cols and i in pin_cols
            if (i in secret_cols or after_account) and _value_ok(texts[i], pin=pin):
                value = texts[i].strip("`*_ ")
                at = row.find(value, a)
                yield base + at, base + at + len(value), "password"


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of each password found by layout in ``text`` (see the module docstring).

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the value's span, without its quotes or backticks, typed ``password``.
    """
    if "\n" in text:
        for m in _label_lines(text):
            if m.group("quoted") is not None:
                value, start = m.group("quoted"), m.start("quoted")
                if not _ok(value.replace(" ", ""), min_len=6) and len(value.split()) < 3:
                    continue
            else:
                value, start = m.group("value"), m.start("value")
                if not _value_ok(value, pin=bool(_PIN_RE.search(m.group("label")))):
                    continue
            yield start, start + len(value), "password"
    if "|" in text:
        yield from _table_spans(text)
    if "," in text or "\t" in text or ";" in text:
        yield from _csv_spans(text)


_CSV_CELL_RE = lazyre.compile(r'[ \t]*"((?:[^"\n]|"")*)"[ \t]*|([^\n]*?)')


def _csv_cells(line: str, sep: str) -> list[tuple[int, int]] | None:
    """``(start, end)`` of each cell's text in a CSV/TSV ``line`` split at ``sep`` (quotes dropped), or None."""
    out: list[tuple[int, int]] = []
    pos = 0
    while True:
        m = _CSV_CELL_RE.match(line, pos)
        end = line.find(sep, pos) if m is None or m.group(1) is None else m.end()
        if m is not None and m.group(1) is not None:
            out.append((m.start(1), m.end(1)))
            if end < len(line) and line[end] != sep:
                return None  # text after a closing quote: not a CSV cell
        else:
            end = len(line) if end < 0 else end
            out.append((pos, end))
        if end >= len(line):
            return out
        pos = end + 1


_PASSWORD_HEADER = r"(?i)^[ \t*_`]*(?:[\w.'’-]+[ \t]+){0,2}" + _LABEL + r"s?[ \t*_`]*$"
"""A CSV header cell naming a password column (``password``, ``Login Password``, ``senha``): no token or key."""
_PLACEHOLDER_RE = lazyre.compile(r"\$\{?[A-Za-z_]\w*\}?|\{\{[^}]*\}\}|<[^<>]+>|\*+|x+|X+")
"""A placeholder in a password cell (``$DB_PASSWORD``, ``{{ vault_pw }}``, ``<password>``, ``****``)."""
_WORDS_ID_RE = lazyre.compile(r"[a-z]+(?:[_-](?:[a-z]+|[a-z0-9]{1,3}))+")
"""A name of lower-case words joined by ``_``/``-`` (``enable_new_checkout_flow_v2``): a flag's or a key's name."""


def _csv_value_ok(value: str, *, whole: bool, pin: bool) -> bool:
    """Whether a CSV cell is a secret: in a password column (``whole``) any value but a placeholder ("n/a", "-",
    "see vault", ``$VAR``), passphrases with spaces or dashes too (B22-9); in a token or key column, a value that
    reads as a credential and is no name of lower-case words (``enable_new_checkout_flow_v2``)."""
    if whole:
        return (
            bool(value)
            and not _NOT_VALUE_RE.match(value)
            and not (_PLACEHOLDER_RE.fullmatch(value) or slots_only(value))
        )
    return _value_ok(value, pin=pin) and (pin or not _WORDS_ID_RE.fullmatch(value))


def _csv_spans(text: str) -> Iterator[Span]:
    """Cells of a CSV/TSV export's secret columns (a password manager's ``name,url,username,password``): the header
    line names the column, every following line holding as many cells has its value there (B18-14)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    i = 0
    while i < len(lines) - 1:
        line = lines[i].rstrip("\r")
        sep = next((c for c in ("\t", ",", ";") if c in line), None)
        cells = _csv_cells(line, sep) if sep and len(line) <= 400 else None
        texts = [line[a:b].strip() for a, b in cells] if cells else []
        cols = {j for j, t in enumerate(texts) if _compiled(_HEADER).match(t)}
        if not cols or not sep or not cells or any(_value_ok(t) for t in texts):
            i += 1
            continue
        pins = {j for j in cols if _PIN_RE.search(texts[j])}
        whole = {j for j in cols if j not in pins and _compiled(_PASSWORD_HEADER).match(texts[j])}
        i += 1
        while i < len(lines):
            row = lines[i].rstrip("\r")
            got = _csv_cells(row, sep) if sep in row else None
            if not got or len(got) != len(cells):
                break
            for j in cols:
                a, b = got[j]
                value = row[a:b].strip()
                if _csv_value_ok(value, whole=j in whole, pin=j in pins):
                    at = row.find(value, a)
                    yield starts[i] + at, starts[i] + at + len(value), "password"
            i += 1


def _label_lines(text: str) -> Iterator[re.Match[str]]:
    """:data:`_LABEL_LINE`'s matches, tried only at a line that ends in a secret word (a cheap test first)."""
    pos = 0
    while True:
        nl = text.find("\n", pos)
        if nl < 0:
            return
        line = _NOTE_RE.sub("", text[pos:nl].rstrip(" \t\r")).rstrip(" \t\r*_:：=").lower()
        if line.endswith(_ENDINGS) and len(line) <= 80:
            m = _compiled(_LABEL_LINE).match(text, pos)
            if m:
                yield m
        pos = nl + 1
