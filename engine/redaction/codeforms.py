"""Names in code's own places: spans redaction leaves alone (issue 32, round 23; docs/architecture.md §3).

:func:`spans` adds to :func:`.public.spans`. A value sits after ``=`` or ``:``; code puts names there too, and a
name is known by where the language puts it, not by its look:

- a call: a name, or a chain of names joined by ``.``, right before ``(`` (``mdsParseX509Certificate(value)``,
  ``base64.RawURLEncoding.DecodeString(``): a value is never called;
- a member of an object or package, ``x509.KeyUsageCRLSign`` or ``cert.x509_certificate_chain_key_ids``: a lower-case
  name, ``.``, then a name whose words are joined by a case change or ``_``, the chain ending the expression
  (a space, ``,``, ``;``, ``)`` or the line's end);
- a Go declaration's type, ``ALG_KEY_ECC_X962_RAW PublicKeyAlgAndEncoding = "ecc_x962_raw"`` (a constant's
  name, its type, ``=``): the type is a name.

None is kept where a password word, a secret's name or a credential's slot stands before it on its line. Each name must be made of words (:func:`.codenames.name_ok`'s pieces: words, acronyms, numbers, one letter beside a
number), allowing one short piece that is not a word (``mds``, ``ecc``) when two or more are; a random token splits
into stray letters and consonant runs, so a key in a call's place (``fn(`` after a token) is not kept.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int]

_CALL_RE = lazyre.compile(
    r"(?<![\w$@/:.+=-])(?P<name>[A-Za-z_][A-Za-z0-9_]{2,80}(?:\.[A-Za-z_][A-Za-z0-9_]{0,80}){0,6})\("
)
_MEMBER_RE = lazyre.compile(
    r"(?<![\w$@/:.+=-])(?P<name>[a-z][a-z0-9]{1,15}(?:\.[A-Za-z_][A-Za-z0-9_]{1,80}){1,6})(?=[\s,;)\]}]|$)"
)
_GO_TYPE_RE = lazyre.compile(
    r"(?m)^[ \t]*(?:const[ \t]+|var[ \t]+)?[A-Za-z_]\w{0,80}[ \t]+(?P<name>[A-Z][A-Za-z0-9]{5,80})[ \t]*=[^=]"
)
_SECRET_NAME_RE = lazyre.compile(
    r"(?i)(?<![a-z])(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|private[_-]?key)(?![a-z])"
)
"""A secret's name on the line before a name: the name may be the secret (``password is home.Purple…``)."""
_JOINED_RE = lazyre.compile(r"[a-z][A-Z]|[A-Za-z0-9]_[A-Za-z0-9]")
"""Words joined as code joins them: a case change or ``_``."""


def _pieces(name: str) -> list[str] | None:
    """The pieces of ``name`` (split at ``.``, ``_`` and case changes), or None if a segment does not split whole."""
    from .codenames import _PIECE_RE, _SEP_RE

    out: list[str] = []
    for segment in _SEP_RE.split(name):
        found = _PIECE_RE.findall(segment)
        if "".join(found) != segment:
            return None
        out.extend(found)
    return out


def words_name(name: str) -> bool:
    """Whether ``name`` is made of words (see the module's docstring): every piece a word, an acronym of two to five
    capitals, a number of at most four digits or one letter beside a number, but one non-word piece of at most four
    letters when at least two pieces are words."""
    from .codenames import _word

    pieces = _pieces(name)
    if not pieces:
        return False
    words = odd = 0
    for i, piece in enumerate(pieces):
        if piece.isdigit():
            if len(piece) > 4:
                return False
            continue
        if len(piece) == 1:
            if not any(0 <= j < len(pieces) and pieces[j].isdigit() for j in (i - 1, i + 1)) and i:
                return False
            continue
        if _word(piece):
            words += 1
        elif len(piece) <= 4 and not piece.isupper():
            odd += 1
        else:
            return False
    return words >= 1 and (odd == 0 or (odd == 1 and words >= 2))


def _guarded(text: str, start: int, end: int) -> bool:
    """Whether a password word (in any language the speech rules read), a secret's name, a credential's slot or a
    password role stands by the name on its line: then it may be the secret itself."""
    from . import slots
    from .codenames import _AFTER_RE, _said_label

    line_start = text.rfind("\n", max(0, start - 48), start) + 1
    window = text[max(line_start, start - 48) : start]
    return bool(
        _SECRET_NAME_RE.search(window)
        or _said_label(window)
        or _AFTER_RE.search(text[end : end + 60].split("\n", 1)[0])
        or slots.credential_slot(text, start, end)
    )


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every name in a call's, a member's or a Go type's place in ``text`` (the module's
    docstring); the name only, never the arguments, and none a password word, a secret's name or a credential's
    slot stands by (``the wifi password is home.PurpleMonkeyDishwasher``, ``token = app.SigningValue``)."""
    for start, end in _places(text):
        if not _guarded(text, start, end):
            yield start, end


def _places(text: str) -> Iterator[Span]:
    """The unguarded spans of :func:`spans`."""
    if "(" in text:
        for m in _CALL_RE.finditer(text):
            name = m.group("name")
            if len(name) >= 8 and words_name(name):
                yield m.span("name")
    if "." in text:
        for m in _MEMBER_RE.finditer(text):
            name = m.group("name")
            last = name.rsplit(".", 1)[1]
            if _JOINED_RE.search(last) and words_name(name):
                yield m.span("name")
    if "=" in text:
        for m in _GO_TYPE_RE.finditer(text):
            name = m.group("name")
            if _JOINED_RE.search(name) and words_name(name):
                yield m.span("name")
