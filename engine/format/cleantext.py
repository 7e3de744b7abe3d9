"""Clean text in, clean text out (docs/architecture.md §3): what invisible characters become.

:func:`clean_in` is the first step of the write policy and of every way out
(recall, ``show``): tag characters (ASCII smuggling), zero-width characters,
bidi controls and stray U+FEFF are removed; CR, VT, FF, NEL and the Unicode
line and paragraph separators become a space, so words never run together.
"""

from __future__ import annotations

import re

_BREAK_RE = re.compile("[\r\x0b\x0c\x85\u2028\u2029]")
"""CR, VT, FF, NEL and the Unicode line and paragraph separators: a space on write, so words never run together."""
_INVISIBLE_RE = re.compile(
    "[\u00ad\u180e\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]"
    "|(?<![\u2600-\u27bf\U0001f000-\U0001faff\ufe0f])\u200d"
)
"""Zero-width and invisible characters, bidi controls, a stray U+FEFF and Unicode tag characters (ASCII
smuggling): removed on write. The zero-width joiner stays inside an emoji sequence."""


def clean_in(text: str) -> str:
    """``text`` as written: invisible characters removed, line-breaking controls turned into spaces.

    The writer's ``clean_text`` then drops what controls remain and folds whitespace
    (docs/architecture.md §3: clean text in, clean text out).
    """
    return _INVISIBLE_RE.sub("", _BREAK_RE.sub(" ", text))
