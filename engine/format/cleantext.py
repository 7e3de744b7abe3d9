"""Clean text in, clean text out (docs/architecture.md §3): what invisible characters become.

:func:`clean_in` is the first step of the write policy and of every way out
(recall, ``show``): every Default_Ignorable_Code_Point character (tag
characters used for ASCII smuggling, zero-width characters, bidi controls,
variation selectors, Hangul fillers, a stray U+FEFF ...) and the interlinear
annotation controls are removed; CR, VT, FF, NEL and the Unicode
line and paragraph separators become a space, so words never run together.
"""

from __future__ import annotations

import re

_BREAK_RE = re.compile("[\r\x0b\x0c\x85\u2028\u2029]")
"""CR, VT, FF, NEL and the Unicode line and paragraph separators: a space on write, so words never run together."""
IGNORABLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b\u200c\u200e\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff"
)
"""Unicode's Default_Ignorable_Code_Point characters (DerivedCoreProperties.txt, Unicode 15.1) as a regex class,
less the zero-width joiner (U+200D, below), plus the interlinear annotation controls U+FFF9-FFFB: none of
them is seen, so any of them can hide or split text (U+3164 HANGUL FILLER, variation selectors, U+034F ...)."""
_INVISIBLE_RE = re.compile(f"[{IGNORABLE}]|(?<![\u2600-\u27bf\U0001f000-\U0001faff\ufe0f])\u200d")
"""Every default-ignorable character: removed on write. The zero-width joiner stays inside an emoji sequence."""


def strip_ignorable(text: str) -> str:
    """``text`` without its default-ignorable characters (the zero-width joiner kept inside an emoji sequence)."""
    return _INVISIBLE_RE.sub("", text)


def clean_in(text: str) -> str:
    """``text`` as written: invisible characters removed, line-breaking controls turned into spaces.

    The writer's ``clean_text`` then drops what controls remain and folds whitespace
    (docs/architecture.md §3: clean text in, clean text out).
    """
    return _INVISIBLE_RE.sub("", _BREAK_RE.sub(" ", text))
