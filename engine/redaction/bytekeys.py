"""A key written as a list of byte literals under a key's name (docs/architecture.md §3).

Issue 32 round 23 (a class read on a tuning part, CredSweeper's samples). Code that embeds a symmetric key, an HMAC
secret or a password as bytes writes it as a list of numbers, which no token rule sees (no run of key characters):

- ``#define AES_KEY {0x2b, 0x7e, …}`` (a C macro, its list often continued with ``\\`` over lines);
- ``static const uint8_t hmac_key[32] = {0x.., …};``, ``byte[] secretKey = new byte[] { 0x.., … };``,
  ``val key = byteArrayOf(0x.., …)``;
- ``KEY = bytes([0x9f, …])``, ``bytearray([…])``, ``Buffer.from([…])``, ``[]byte{…}``.

The name (the macro's or the variable's) must end in a secret word: ``key``, ``secret``, ``password``/``passwd``/
``pwd``, ``token``, ``psk`` (``aes_key``, ``AESKEY``, ``secretKey``), and not name a public value (``public_key``,
``pubkey``). The list must hold 8 or more byte literals (``0x2b``, ``43``, ``053``), 4 or more of them different (a
run of zeros is a placeholder, and a short list a flag set). The literals are redacted as one ``key-bytes`` span, from
the first to the last; the brackets and the name stay.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int, str]

MIN_BYTES = 8
"""Fewest byte literals a key's list holds (a 64-bit key); shorter lists are flags, versions, magic numbers."""

_OPENER_RE = lazyre.compile(
    r"(?:#[ \t]*define[ \t]+(?P<macro>[A-Za-z_]\w{0,60})[ \t]+"
    r"|(?<![\w.])(?P<name>[A-Za-z_]\w{0,60})(?:[ \t]*\[[ \t]*\w{0,12}[ \t]*\]){0,2}"
    r"(?:[ \t]*:[ \t]*[\w.\[\]<> ]{1,40}?)?[ \t]*:?=[ \t]*)"
    r"(?:(?:bytes|bytearray|byteArrayOf|ubyteArrayOf|Buffer\.from|Uint8Array\.from|new[ \t]+Uint8Array)[ \t]*\([ \t]*"
    r"[\[{]?|(?:new[ \t]+[\w.]{1,30}[ \t]*\[[ \t]*\w{0,12}[ \t]*\][ \t]*|\[\][ \t]*(?:u?int8|byte)[ \t]*)?[\[{(])"
)
"""A key's name (a macro's, or a variable's with its array brackets and type), ``=``, a constructor, an opening bracket."""
_LITERAL_RE = lazyre.compile(r"\s*(?:\\[ \t]*\r?\n\s*)?(?P<lit>0[xX][0-9a-fA-F]{1,2}|\d{1,3})(?:[uU]?[lL]{0,2})?\s*")
_SECRET_END_RE = lazyre.compile(r"(?i)(?:key|secret|password|passwd|pwd|token|psk)s?$")
"""A secret word ending a name; it must start a word there (:func:`_secret_name`): not ``monkey``, ``hotkey``."""
_PUBLIC_RE = lazyre.compile(r"(?i)pub(?:lic)?_?key|key_?(?:id|len|length|size|bits)$")


def _secret_name(name: str) -> bool:
    """Whether ``name`` ends in a secret word that starts a word: the whole name, after ``_``/``-``, a camel-case
    capital (``secretKey``), or anywhere in an all-capitals name (``AESKEY``); and names no public value."""
    m = _SECRET_END_RE.search(name)
    if m is None or _PUBLIC_RE.search(name):
        return False
    at = m.start()
    return (
        at == 0
        or name[at - 1] in "_-"
        or (name[at].isupper() and name[at - 1].islower())
        or (name.isupper() and len(name) <= 24)
    )


def _byte(literal: str) -> int | None:
    """The value of a byte literal (hex, octal with a leading 0, or decimal), or None when it exceeds a byte."""
    if literal[:2] in ("0x", "0X"):
        value = int(literal, 16)
    elif len(literal) > 1 and literal.startswith("0") and all(c in "01234567" for c in literal):
        value = int(literal, 8)
    else:
        value = int(literal)
    return value if value <= 255 else None


def _list_end(text: str, pos: int) -> tuple[int, int, list[int]]:
    """``(first, last_end, values)``: the byte literals of the list starting at ``pos``, comma separated."""
    values: list[int] = []
    first = last_end = -1
    while True:
        m = _LITERAL_RE.match(text, pos)
        if m is None:
            break
        value = _byte(m.group("lit"))
        if value is None:
            break
        if first < 0:
            first = m.start("lit")
        values.append(value)
        last_end = m.end("lit")
        pos = m.end()
        if pos < len(text) and text[pos] == ",":
            pos += 1
        else:
            break
    return first, last_end, values


def spans(text: str) -> Iterator[Span]:
    """``(start, end, "key-bytes")`` of each list of byte literals given to a name ending in a secret word.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: from the list's first literal to its last.
    """
    if "," not in text:
        return
    low = text.lower()
    if not any(w in low for w in ("key", "secret", "passw", "pwd", "token", "psk")):
        return
    for m in _OPENER_RE.finditer(text):
        name = m.group("macro") or m.group("name")
        if not _secret_name(name):
            continue
        first, last_end, values = _list_end(text, m.end())
        if len(values) >= MIN_BYTES and len(set(values)) >= 4:
            yield first, last_end, "key-bytes"
