"""A line the user asked to keep that is over the entry limit waits in the inbox, in parts (breaker31 B31-17).

docs/memory-repo.md "Limits": an entry holds at most 500 characters, and a line you said in a session that a limit
refuses waits in the inbox, yours, ``waits:`` naming the limit. A longer "Remember that ..." is cut at its
sentences (else its clauses, else its words) into parts that fit, each written to the inbox with a ``waits:``
saying which part it is, so nothing said is lost and accepting the parts keeps all of it.
"""

from __future__ import annotations

from memrepo.engine.errors import BlockedError
from memrepo.engine.format.limits import ENTRY_MAX_CHARS
from memrepo.engine.models import Candidate, WriteResult
from memrepo.engine.write.ports import MemoryAccess

PART_CHARS = ENTRY_MAX_CHARS - 20
"""Most characters of one part (a margin under the entry limit for the writer's clean-up of the text)."""

_MARKS = (". ", "; ", ", ", " ")
"""Where a part may end, best first: a sentence, a clause, a word."""


def parts(text: str, most: int = PART_CHARS) -> list[str]:
    """``text`` cut into parts of at most ``most`` characters, at the last sentence, clause or word end that leaves
    a part of at least a third of ``most`` (else cut at ``most``); the parts hold every word, in order.

    Args:
        text: one statement.
        most: the longest part (characters).

    Returns:
        list[str]: one part when ``text`` fits.
    """
    out: list[str] = []
    rest = text.strip()
    while len(rest) > most:
        head = rest[: most + 1]  # a mark right after the limit still ends a fitting part
        cut = most
        for mark in _MARKS:
            at = head.rfind(mark)
            if at >= most // 3:
                cut = at + len(mark.rstrip())
                break
        out.append(rest[:cut].rstrip(" ,;"))
        rest = rest[cut:].strip()
    return [*out, rest] if rest else out


def waits_for(part: int, count: int) -> str:
    """The ``waits:`` of part ``part`` (from 1) of ``count``: the limit, and the way out."""
    return (
        f"part {part} of {count} of one line you said, over the {ENTRY_MAX_CHARS}-character entry limit: "
        "accept the parts, or shorten it"
    )


def in_parts(store: MemoryAccess, cand: Candidate) -> WriteResult | None:
    """Write ``cand`` to the inbox in parts when its text is over the entry limit; None when it fits.

    Every part is written (a write the blocked work tree keeps for later does not stop the others).

    Returns:
        WriteResult | None: the first part's result (None: the text fits, nothing written).

    Raises:
        BlockedError: the first kept-for-later refusal, after every part was tried; any other as the writer's.
    """
    if len(cand.text) <= ENTRY_MAX_CHARS:
        return None
    pieces = parts(cand.text)
    results: list[WriteResult] = []
    blocked: BlockedError | None = None
    for n, piece in enumerate(pieces, 1):
        try:
            results.append(store.remember(cand.model_copy(update={"text": piece, "waits": waits_for(n, len(pieces))})))
        except BlockedError as exc:
            if not exc.kept:
                raise
            blocked = blocked or exc
    if blocked is not None:
        raise blocked
    return results[0]
