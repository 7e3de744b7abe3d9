"""A forget that names a verbatim piece of exactly one line, its reason said after it (breaker31 B31-3).

"Forget what I said about emoji in commit messages, I don't mind them anymore." names "I really can't stand emoji
in commit messages" by the line's own words; its reason ("I don't mind them anymore") is no "it is over" that
:func:`.forgetforms.said_over` reads, so the topic was read whole, reason and all, no line held every word of it,
and the line was only proposed in the inbox; the meaning match (:mod:`.forgetnear`) needs the local model, which
the default install lacks. Here the topic up to its first comma, semicolon, dash or "because" names a line when its
content words (two at least; case-folded, in order, next to each other) are a run of that line's content words and
of no other listed line's. Two lines holding the piece, or a line holding only some of its words: nothing here (the
request is proposed in the inbox as before). docs/architecture.md §7, "Checkpoints".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

_HEAD_RE = re.compile(r"[,;]|\s[-–—]\s|\s(?:because|since|as)\s", re.IGNORECASE)
"""Where a topic's own words end and the reason said after them begins."""


def _run(text: str, words: Callable[[str], set[str]]) -> list[str]:
    """``text``'s content words in order (each word as ``words`` reads it alone: case-folded, a plural's "s" off)."""
    out: list[str] = []
    for token in re.findall(r"[^\W_]+(?:['’][^\W_]+)?", text):
        out.extend(sorted(words(token)))
    return out


def _holds(line: list[str], piece: list[str]) -> bool:
    n = len(piece)
    return any(line[i : i + n] == piece for i in range(len(line) - n + 1))


def piece_line(topic: str, lines: Sequence[T], words: Callable[[str], set[str]], key: Callable[[T], str]) -> T | None:
    """The one line of ``lines`` whose words hold ``topic``'s head as a run (the module docstring), or None.

    Args:
        topic: what the request names ("emoji in commit messages, I don't mind them anymore").
        lines: the listed lines (a workspace file's header line never among them).
        words: the content words of a text (:mod:`.forgetting`'s).
        key: a line's text.

    Returns:
        T | None: the line, or None when no line or several hold the piece, or it has fewer than two words.
    """
    head = _HEAD_RE.split(topic, maxsplit=1)[0]
    piece = _run(head, words)
    if len(piece) < 2 or head.strip() == topic.strip():
        return None  # a topic with no reason after it is matched whole by .forgetting already
    found = [line for line in lines if _holds(_run(key(line), words), piece)]
    return found[0] if len(found) == 1 else None  # the same text in two files: two lines, the user picks


__all__ = ["piece_line"]
