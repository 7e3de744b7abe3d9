"""Text inside a prompt's fences stays data (docs/architecture.md §4): nothing in it can close a fence.

:func:`escape` escapes ``&`` ``<`` ``>`` and writes every character of their
class as a numeric character reference: whatever reads as ``<``, ``>`` or ``/``
(:data:`.fencechars.LOOKALIKES`, generated from Unicode's confusables data, NFKC
and the Unicode names of angle brackets, guillemets, chevrons, ordering relations
and slashes: ``«`` ``《`` ``⟪`` ``❰`` ``≺`` ``≤`` ``∕`` ...), and anything whose
NFKC form holds ``<``, ``>`` or ``&``. A model reading
``&#xAB;&#x2215;memory_repo&#xBB;`` sees what was written and cannot mistake it
for the fence's closing tag.
"""

from __future__ import annotations

import re
import unicodedata

from .fencechars import LOOKALIKES as _CLASS

LOOKALIKES = _CLASS | {"\U000e003c", "\U000e003e"}
"""Every character that reads as ``<``, ``>`` or ``/``, and the tag characters for ``<`` and ``>`` (removed on
write, escaped here should a hand edit hold them)."""

_ESCAPE_RE = re.compile("[&<>]|[^\\x00-\\x7f]")
_ASCII = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def _one(m: re.Match[str]) -> str:
    c = m.group(0)
    if c in _ASCII:
        return _ASCII[c]
    if c in LOOKALIKES or any(x in unicodedata.normalize("NFKC", c) for x in "<>&"):
        return f"&#x{ord(c):X};"
    return c


def escape(text: str) -> str:
    """``text`` with ``&`` ``<`` ``>`` and their look-alikes escaped (line breaks kept)."""
    return _ESCAPE_RE.sub(_one, text)
