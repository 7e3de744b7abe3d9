"""Keys known by a vendor's or a library's documented format, where no label stands before them (docs/architecture.md §3).

Issue 32 round 26, classes read on ``notes5-tune`` (its held half was not read). A key passed straight to the
code that uses it has no secret word before it: ``deepl.Translator("…")``, ``Fernet(b'…')``. Each is taken by its
documented shape only, so nothing else of that shape is touched:

- a DeepL API key for the free API: a UUID followed by ``:fx`` (DeepL's docs: "Free API keys end in ``:fx``"),
  anywhere; a UUID alone is an id and is left to the other rules;
- a Fernet key: 32 bytes in URL-safe base64, 43 characters and ``=`` (the ``cryptography`` package's docs:
  "A URL-safe base64-encoded 32-byte key"), on a line that names Fernet (``Fernet(…)``, ``FERNET_KEY``,
  ``MultiFernet``). A Fernet token (ciphertext, ``gAAAAA…``) is longer and is not taken.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator

from . import lazyre
from .spanends import line_at

Span = tuple[int, int, str]

_DEEPL_RE = lazyre.compile(r"(?<![0-9A-Za-z-])(?P<v>[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}:fx)(?![\w-])", flags=0)
_FERNET_KEY_RE = lazyre.compile(r"(?<![A-Za-z0-9_=-])(?P<v>[A-Za-z0-9_-]{43}=)(?![A-Za-z0-9_=-])")


def _decodes_to_32(value: str) -> bool:
    """Whether ``value`` is URL-safe base64 of exactly 32 bytes."""
    try:
        return len(base64.urlsafe_b64decode(value)) == 32
    except (binascii.Error, ValueError):
        return False


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of each DeepL key and each Fernet key on a line naming Fernet.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: ``deepl-key`` and ``fernet-key`` spans; nothing for a text holding neither ``:fx`` nor Fernet.
    """
    if ":fx" in text:
        for m in _DEEPL_RE.finditer(text):
            yield m.start("v"), m.end("v"), "deepl-key"
    if "ernet" in text or "ERNET" in text:
        for m in _FERNET_KEY_RE.finditer(text):
            if "fernet" in line_at(text, m.start()).lower() and _decodes_to_32(m.group("v")):
                yield m.start("v"), m.end("v"), "fernet-key"
