"""Which parts of a user's message are their own words: code, quotes and pasted text are not
(docs/architecture.md §7).

Shared by the "remember that X" rule (:mod:`.remembering`), the rules a user states (:mod:`.standing`) and the
checkpoint's corrections and forget requests: a request inside a code span, a quote or a pasted page is none.
"""

from __future__ import annotations

import re

_CODE_RE = re.compile(r"```.*?(?:```|$)|`[^`\n]*`", re.DOTALL)
"""Code: fenced blocks and inline spans (a comment "# remember that ..." in code is no request)."""
_QUOTED_RE = re.compile(r"^\s*>.*$|\"[^\"\n]*\"|“[^”\n]*”|(?<!\w)'[^'\n]*'(?!\w)", re.MULTILINE)
"""Quoted text: a ``>`` line (a pasted email), and words in double or single quotes."""
_INTRO_LINE_RE = re.compile(
    r"\b(?:here|here['’]s|from|forward\w*|fwd|fw|pasted?|below|following|output|log|logs|readme|page|wiki|mail|e-?mail"
    r"|emailed|docs?|document|message|text|file|ticket|issue|thread|chat|slack|says|said|wrote|writes|reads|quote)\b"
    r"[^\n]*:\s*$",
    re.IGNORECASE,
)
"""A line that introduces pasted text below it ("From the ops wiki page:", "Forwarding from ops:", "Here is the
README:"); a list's own heading ("Tasks:") is not one."""


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))  # the same length: positions stay those of the user's text


def readable(text: str) -> str:
    """``text`` with code and quoted text blanked out (spaces of the same length), so a request inside them is none.

    Args:
        text: a user's message.

    Returns:
        str: the message, its code spans, fenced blocks, ``>`` lines and quotes replaced by spaces.
    """
    return _QUOTED_RE.sub(_blank, _CODE_RE.sub(_blank, text))


def pasted_lines(text: str) -> list[tuple[int, int]]:
    """The spans of a message that are pasted text, not the user's own words (breaker9 B9-7): the lines after a line
    that introduces text with a colon ("From the ops wiki page:", "Here is the README:") up to the message's last
    line (the user's own: "Summarize the page for me").

    Args:
        text: a user's message.

    Returns:
        list[tuple[int, int]]: (start, end) character spans.
    """
    lines = [(m.start(), m.end()) for m in re.finditer(r"[^\n]*", text) if text[m.start() : m.end()].strip()]
    for i, (start, end) in enumerate(lines[:-1]):
        if _INTRO_LINE_RE.search(readable(text[start:end])) and i + 1 < len(lines) - 1:
            return [(lines[i + 1][0], lines[-2][1])]
    return []


def own_short_message(text: str) -> bool:
    """Whether a message is the user's own short say (two lines or fewer, outside code, no pasted text): only
    such a message can correct a stored line without "remember" (breaker9 B9-7).

    Args:
        text: a user's message.

    Returns:
        bool: True for a message of one or two non-empty lines with no line introducing pasted text.
    """
    lines = [line for line in readable(text).splitlines() if line.strip()]
    return len(lines) <= 2 and not any(_INTRO_LINE_RE.search(line) for line in lines[:-1])
