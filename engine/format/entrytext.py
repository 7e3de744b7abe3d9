"""Plain text as the writer puts it into a memory file: one clean line, and a short summary of it.

Every writer runs entry text and metadata values through :func:`clean_text`
(docs/architecture.md §3: no control character or bidi override ever reaches a
memory file); commit summaries use :func:`summary`.
"""

from __future__ import annotations

import re

from .cleantext import strip_ignorable

_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""C0/C1 control characters, DEL and bidi overrides: never written into a memory file."""


def clean_text(text: str) -> str:
    """One line of plain text: controls, bidi overrides and default-ignorable characters dropped, whitespace folded.

    Every write path runs through here, so no invisible character reaches a memory file (docs/architecture.md §3).
    """
    return " ".join(_CONTROL_RE.sub("", strip_ignorable(text)).split())


def summary(text: str, limit: int = 60) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis (for commit summaries)."""
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"
