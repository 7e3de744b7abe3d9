"""A long message cut for the checkpoint buffer keeps its head and its tail (breaker31 B31-16).

docs/agents.md "Checkpoints": a message is buffered with at most 8,000 characters, longer ones cut and counted.
People paste a log, a stack trace or a file and write their own words before and after it ("Here is the log: ...
Remember that the pool size is 16."), so the cut drops the middle, the paste, and keeps the words at both ends:
the head, a line saying how much was cut, and the tail from a line's start.
"""

from __future__ import annotations

from memrepo.engine.write.policy import redact

TAIL_CHARS = 2_000
"""Characters of a cut message's end that are kept (its head has the rest of the limit)."""

MARGIN = 512
"""Characters read past each kept end before redacting, so a secret across the cut is still found whole."""


def cut_message(text: str, most: int) -> tuple[str, int]:
    """``text`` redacted and, when longer than ``most`` characters, cut in the middle.

    The head and the tail are each redacted with :data:`MARGIN` characters more than they keep
    (docs/architecture.md §3: secrets never reach disk); the tail starts at a line's start when one
    is in its first half, so a paste's cut line never runs into the user's words; with none there, after the
    first sentence's end in that half (a sentence cut at its head can say the opposite of what was written:
    "Do not remember that X" read as "remember that X", breaker32 B32-7), else from the next line's start, and with
    none of these the tail is dropped.

    Args:
        text: a message's text.
        most: the longest text kept (characters); at least 4 times :data:`TAIL_CHARS` for a cut with a tail.

    Returns:
        tuple[str, int]: the text (at most ``most`` characters), and 1 when it was cut (else 0).
    """
    if len(text) <= most:
        return redact(text)[0][:most], 0  # redaction never lengthens past the limit: cut anyway, to be sure
    if most < 4 * TAIL_CHARS:
        return redact(text[: most + MARGIN])[0][:most], 1
    tail = redact(text[-(TAIL_CHARS + MARGIN) :])[0][-TAIL_CHARS:]
    start = tail.find("\n", 0, TAIL_CHARS // 2)
    if start >= 0:
        tail = tail[start + 1 :]
    else:  # cut inside a line: its first sentence is a piece ("[Do not] remember that X" lost its head: B32-7)
        ends = [
            m for m in (tail.find(mark, 0, TAIL_CHARS // 2) for mark in (". ", "! ", "? ", "。", "！", "？")) if m >= 0
        ]
        line = tail.find("\n")
        tail = tail[min(ends) + 1 :].lstrip() if ends else tail[line + 1 :] if line >= 0 else ""
    gone = len(text) - len(tail)  # the head's share is counted below, once it is known
    head_room = most - len(tail) - 40  # room for the line saying what was cut
    head = redact(text[: head_room + MARGIN])[0][:head_room]
    gone -= len(head)
    return f"{head}\n\n[... {max(gone, 0):,} characters cut ...]\n\n{tail}"[:most], 1
