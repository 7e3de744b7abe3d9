"""Where a user's message takes back what they said before it ("Just kidding", "never mind", "don't store it"; split
from :mod:`.remembering`, docs/architecture.md §7). Pure text: no file, no repo.
"""

from __future__ import annotations

import re

from .pasted import readable

_DONT_KEEP_IT_RE = re.compile(r"(?:don['’]?t|do\s+not)\s+(?:save|remember|store|keep|record|memori[sz]e)\b", re.I)


def retraction_scope(text: str, at: int | None) -> int:
    """Where the retraction at ``at`` starts to take back: the start of its own sentence for a "don't store it" that
    ends a sentence of its own words ("And my AWS secret is X, don't store it.": that sentence only; breaker23
    B23-6), else the message's start ("Remember that X. Just kidding.").

    Args:
        text: a user's message.
        at: where :func:`retraction` found the retraction, or None.

    Returns:
        int: the position; requests from there up to ``at`` are taken back.
    """
    if at is None or not _DONT_KEEP_IT_RE.match(readable(text), at):
        return 0
    shown = readable(text)
    start = max(shown.rfind(mark, 0, at) for mark in ".!?\n") + 1
    own = re.sub(r"^\W*(?:and|but|also|oh|btw|plus)\b", "", shown[start:at]).strip(" ,;:-—–")
    return start if len(own.split()) >= 2 else 0


_RETRACT_RE = re.compile(
    r"(?:^|(?<=[\s,.;:!?—–-]))(?:just\s+kidding|kidding|j/?k|never\s*mind|nvm|scratch\s+that|forget\s+(?:that|it|what\s+i\s+said)"
    r"|ignore\s+(?:that|it|what\s+i\s+said)|disregard\s+(?:that|it)|not\s+really|that['’]s\s+(?:wrong|not\s+(?:right|true))"
    r"|that\s+is\s+(?:wrong|not\s+(?:right|true))|(?:don['’]?t|do\s+not)\s+(?:save|remember|store|keep|record|memori[sz]e)"
    r"\s+(?:that|this|it)(?:\s+one)?(?:\s+(?:in|to)\s+(?:your\s+|the\s+)?memory)?|(?:delete|remove|erase)\s+(?:that|it|this)\s+from"
    r"\s+(?:your\s+|the\s+)?memory|(?:ignore|disregard)\s+what\s+i\s+said\s+about\s+[^,.;:!?]{1,40}|never\s*mind\s+(?:about\s+)?the"
    r"\s+[^,.;:!?]{1,40}?\s+(?:thing|part|bit|one|note))(?=\s*(?:[,.;:!—–-]|$))",
    re.IGNORECASE,
)
"""Words that take back what was said before them ("Just kidding", "never mind", "scratch that", "forget that,", "That's
wrong.", "Don't save that", "Never mind the CDN thing", B17-12): what the user said before is not kept (B9-6, B9-8)."""


def retraction(text: str) -> int | None:
    """Where a message takes back what was said before (:data:`_RETRACT_RE`), or None.

    Args:
        text: a user's message (code and quotes are not read).

    Returns:
        int | None: the position of the first retraction, in characters.
    """
    found = _RETRACT_RE.search(readable(text))
    return found.start() if found else None


__all__ = ["retraction", "retraction_scope"]
