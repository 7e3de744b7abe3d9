"""The vendor rule (:mod:`.context`) with names of words read as names (issue 32 round 23, docs/architecture.md §3).

A value made of words, numbers, versions and model codes is no vendor's key, whatever vendor name stands before it:
a package's platform (``google-cloud-sdk (468.0.0-x86_64-linux-gnu)``), a hardware model
(``nvidia ... asus-zephyrus-ga402x-nvidia``), a URL-encoded name (``workflows/CodeQL%20scan/badge.svg``). It is read
by :func:`.codenames.words_ok`; a password's label, slot or role around it (:func:`.codenames._labelled`, a
secret word included) or a symbol glued after it (``AcmeCorpDeploy2024!``) still makes it a secret. The check lives
here, not in :mod:`.context`, because :mod:`.codenames` reads :mod:`.context` (no import cycles in the engine).
"""

from __future__ import annotations

from collections.abc import Iterator

from . import context
from .codenames import _labelled as labelled_name
from .codenames import words_ok

_GLUED = frozenset("!#$%&*^@")
"""A symbol glued after a name's shape makes a password of it (breaker18 B18-4)."""


def a_name(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a name of words and nothing around it names it a password.

    Args:
        text: the whole text.
        start: the value's first character (after a URL escape's ``%`` when the value starts inside one).
        end: just past the value's last character.

    Returns:
        bool: True when :func:`.codenames.words_ok` reads the value (with the ``%`` it starts after) as a name, no
        symbol is glued after it and no password's label, slot, role or secret word stands around it.
    """
    start -= text[start - 1 : start] == "%"
    if text[end : end + 1] in _GLUED:
        return False
    return words_ok(text[start:end], context.VENDORS) and not labelled_name(text, start, end, vendor=False)


def spans(text: str) -> Iterator[context.Span]:
    """:func:`.context.spans` of ``text``, names of words (:func:`a_name`) left out of its vendor findings."""
    return context.spans(text, a_name=a_name)
