"""Text inside a prompt's fences stays data (docs/architecture.md §4): nothing in it can close a fence.

:func:`escape` escapes ``&`` ``<`` ``>`` and writes every look-alike angle
bracket as a numeric character reference: fullwidth and small forms (which
NFKC folds to the ASCII ones), single and double guillemet-like quotes,
mathematical, CJK and canadian-syllabics angle brackets. A model reading
``&#xFF1C;/memory_repo&#xFF1E;`` sees what was written and cannot mistake it
for the fence's closing tag.
"""

from __future__ import annotations

import re
import unicodedata

LOOKALIKES = frozenset(
    "\u02c2\u02c3\u1438\u1433\u2039\u203a\u2329\u232a\u276c\u276d\u276e\u276f\u27e8\u27e9\u29fc\u29fd"
    "\u3008\u3009\ufe64\ufe65\uff1c\uff1e\U000e003c\U000e003e"
)
"""Characters that read as ``<`` or ``>`` (some fold to them under NFKC)."""

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
