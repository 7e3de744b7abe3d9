"""A value a sibling key names a secret: the value of a name/value pair (issue 32, round 21).

Many formats hold a setting as two keys of one block, a ``name`` naming it and a ``value`` holding it, so the value's
own key says nothing of what it is and its sibling does (docs/architecture.md §3, evidence.py):

- a Kubernetes container's env entry (``- name: DB_PASSWORD`` / ``value: <run>``) and an ECS task's
  ``environment`` list (``{"name": …, "value": …}``), Terraform's ``env { name = … value = … }``;
- CloudFormation's parameters as the CLI takes them (``ParameterKey`` / ``ParameterValue``), SSM's
  ``Name`` / ``Value``, a key/value store's ``Key`` / ``Value``.

:func:`named_by_sibling` says whether a run that a shape rule found under such a ``value`` key has a sibling naming
a secret in its block: the lines around the value's, up to a line opening or closing a block (``{``, ``}``, ``[``,
``]``, a YAML list item's ``- ``), comment and blank lines skipped, either order (``value`` first or ``name``
first). A numbered pair keeps to its number (``name1`` names ``value1``). The name must name a secret by a word
(:data:`.context.SECRET_WORDS`, split in any case style: ``DBPassword``, ``TEST_PASSWORD_1``) with nothing after that
word saying the value is something else (a public label such as ``id``, or a ``path``, ``file``, ``url`` ...).

It is evidence for a run another rule found (:mod:`.evidence`), and with a sibling naming a password it finds the
value itself (:func:`password_spans`, run by :mod:`.configs`): a password may be a plain word (``RandomP@ssw0rd``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from . import lazyre

_OWN_KEY_RE = lazyre.compile(
    r"(?<![\w-])[\"']?(?P<key>(?i:parameter|default)?(?i:value)(?P<n>\d{0,2}))[\"']?[ \t]*[:=][ \t]*[\"']?$"
)
"""The value's own key right before it on its line (``"value": "``, ``value = "``, ``ParameterValue: ``)."""
_PAIR_RE = lazyre.compile(
    r"(?:^|[{,\s])[\"']?(?P<key>[A-Za-z][A-Za-z0-9_]{0,40})[\"']?[ \t]*[:=][ \t]*"
    r"(?P<q>[\"']?)(?P<name>[A-Za-z/][\w./-]{0,100})(?P=q)[ \t]*(?=[,}\]]|$)"
)
"""One ``key: name`` pair of a line, a whole value after the key (a JSON object may hold several on a line)."""
_NAME_KEY_RE = lazyre.compile(r"(?i)(?:parameter)?(?:name|key)(?P<n>\d{0,2})")
"""A sibling key naming the value's setting (``name``, ``Name``, ``key``, ``ParameterKey``, ``ParameterName``)."""
_ITEM_RE = lazyre.compile(r"[ \t]*-[ \t]+\S")
"""A YAML list item's first line (``- name: DB_PASSWORD``): the top of its block."""
_COMMENT_RE = lazyre.compile(r"[ \t]*(?:#|//|/\*|\*|$)")
_KEY_WORD_RE = lazyre.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
_NOT_THE_SECRET = frozenset(
    {"path", "file", "files", "filename", "dir", "url", "uri", "endpoint", "host", "port", "name", "type", "length"}
    | {"len", "size", "format", "user", "username", "ref", "arn", "version", "expiry", "expires", "ttl", "policy"}
)
"""Words after a secret word in a name that make the value something about the secret (``DB_PASSWORD_FILE``,
``API_KEY_NAME``, ``TOKEN_URL``), not the secret."""
_PASSWORD_WORDS = frozenset({"password", "passwd", "pwd", "passphrase", "pass"})
"""Words naming a password, whose value may be a plain word (:mod:`.configs`)."""
_VALUE_RE = lazyre.compile(
    r"(?m)(?<![\w-])[\"']?(?i:parameter)?(?i:value)\d{0,2}[\"']?[ \t]*[:=][ \t]*"
    r"(?P<q>[\"']?)(?P<value>[^\s\"',{}\[\]]{3,128})(?P=q)[ \t]*(?=[,}\]]|$|[ \t]#)"
)
"""A pair's ``value`` and what it holds, up to the end of its line, its object or a comment."""
WINDOW = 8
"""Lines looked at each way from the value's for its siblings."""


def named_by_sibling(text: str, start: int, *, password: bool = False) -> bool:
    """Whether the run at ``start`` is a ``value`` whose block's ``name`` (or ``key``) sibling names a secret.

    Args:
        text: the whole text the run was found in.
        start: where the run starts (after its quote, if any).
        password: the sibling must name a password (:data:`_PASSWORD_WORDS`), not any secret.

    Returns:
        bool: True when the run's own key is ``value`` (:data:`_OWN_KEY_RE`) and a sibling ``name``/``key`` of its
        block names a secret (module doc).
    """
    line_start = text.rfind("\n", 0, start) + 1
    own = _OWN_KEY_RE.search(text, max(line_start, start - 48), start)
    if own is None:
        return False
    line_end = text.find("\n", start)
    line_end = len(text) if line_end < 0 else line_end
    opened = text.rfind("{", line_start, own.start())  # an object opened on the value's line holds its pair
    closed = text.find("}", start, line_end)
    lines = [text[max(line_start, opened) : own.start()] + " " + text[start : line_end if closed < 0 else closed]]
    if opened < 0:
        lines += _block_above(text, line_start, item=_ITEM_RE.match(text, line_start) is not None)
    if closed < 0:
        lines += _block_below(text, line_end)
    words = _PASSWORD_WORDS if password else None
    return any(_names_secret(m.group("name"), words) for line in lines for m in _pairs(line, own.group("n")))


def _pairs(line: str, number: str) -> Iterator[re.Match[str]]:
    """Each ``key: name`` pair of ``line`` whose key names a setting (:data:`_NAME_KEY_RE`) of the pair ``number``."""
    for m in _PAIR_RE.finditer(line):
        key = _NAME_KEY_RE.fullmatch(m.group("key"))
        if key is not None and key.group("n") == number:
            yield m


def _block_above(text: str, line_start: int, *, item: bool) -> list[str]:
    """The lines of the value's block above its line, nearest first (module doc); none when the value's line opens a
    YAML list item."""
    out: list[str] = []
    pos = line_start
    while not item and pos > 0 and len(out) < WINDOW:
        start = text.rfind("\n", 0, pos - 1) + 1
        line = text[start : pos - 1]
        pos = start
        if _COMMENT_RE.match(line):
            continue
        if _opens_or_closes(line):
            break
        out.append(line)
        if _ITEM_RE.match(line):
            break  # ``- name: X`` opens the item the value is in
    return out


def _block_below(text: str, line_end: int) -> list[str]:
    """The lines of the value's block below its line, nearest first (module doc)."""
    out: list[str] = []
    pos = line_end
    while pos < len(text) and len(out) < WINDOW:
        end = text.find("\n", pos + 1)
        end = len(text) if end < 0 else end
        line = text[pos + 1 : end]
        pos = end
        if _COMMENT_RE.match(line):
            continue
        if _ITEM_RE.match(line) or _opens_or_closes(line):
            break
        out.append(line)
    return out


def _opens_or_closes(line: str) -> bool:
    stripped = line.strip()
    return stripped[:1] in "{}[]" or stripped[-1:] in "{[" or stripped.endswith(":")


def _names_secret(name: str, naming: frozenset[str] | None = None) -> bool:
    """Whether a setting's name names a secret (or one of ``naming``'s words) by a word, nothing after it saying the
    value is about the secret."""
    from .context import PUBLIC_LABELS, SECRET_WORDS

    naming = SECRET_WORDS if naming is None else naming
    words = [w.lower() for w in _KEY_WORD_RE.findall(name)]
    at = max((i for i, w in enumerate(words) if w in naming or w.endswith("password")), default=-1)
    if at < 0 or (at > 0 and words[at - 1] in ("public", "publishable")):
        return False
    return not any(w in PUBLIC_LABELS or w in _NOT_THE_SECRET for w in words[at + 1 :])


def password_spans(text: str, ok: Callable[[str], bool]) -> Iterator[tuple[int, int, str]]:
    """``(start, end, "password")`` of each pair's ``value`` whose sibling names a password (:func:`named_by_sibling`
    with ``password``): ``name = "TEST_PASSWORD_3"`` / ``value = "RandomP@ssw0rd"``, a weak password too, when
    ``ok`` (:mod:`.configs`' test of a password key's value: no placeholder, no word about passwords) takes it.

    Args:
        text: any text.
        ok: whether a value is a password rather than a reference or a word about it.

    Returns:
        Iterator[tuple[int, int, str]]: the value's span, without its quotes.
    """
    for m in _VALUE_RE.finditer(text):
        if ok(m.group("value")) and named_by_sibling(text, m.start("value"), password=True):
            yield m.start("value"), m.end("value"), "password"
