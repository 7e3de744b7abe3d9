"""Recall of reviewed entries only: the prompt hook's ranking leaves the inbox out (docs/architecture.md §7).

The prompt hook puts recall's best lines in the agent's prompt unasked. The inbox holds what no one reviewed
yet (an untrusted task's writes, a proposed correction), never injected into a prompt, as the context block
leaves inbox.md out (breaker29 B29-8). Cutting inbox hits after the ranking left the hook fewer lines than it
has places when inbox lines ranked first: three inbox lines above the reviewed answer left it none. So recall
asked with ``reviewed`` ranks without them: each search of the index (:attr:`.recall.RecallIndex.leave_out`),
of a scan of the files (:attr:`.recallscan.Scan.leave_out`) and of the vectors skips inbox.md, and the places
go to the next reviewed lines. Recall the agent asks for (``memory_recall``, ``memrepo recall``) still lists
inbox hits, marked unreviewed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from memrepo.engine.format.layout import INBOX_MD

if TYPE_CHECKING:
    from .recall import RecallIndex


@contextmanager
def ranked_without_inbox(index: RecallIndex, reviewed: bool) -> Iterator[RecallIndex]:
    """While open, every search of ``index`` leaves inbox.md's entries out when ``reviewed`` (else as it was).

    Args:
        index: the open recall index (one thread uses it, docs/architecture.md §1).
        reviewed: leave the inbox out; False changes nothing.

    Yields:
        RecallIndex: ``index``; its :attr:`~.recall.RecallIndex.leave_out` is put back on leaving.
    """
    before = index.leave_out
    if reviewed:
        index.leave_out = INBOX_MD
    try:
        yield index
    finally:
        index.leave_out = before


def scan_leave_out(options: dict[str, object]) -> str | None:
    """The file a scan of the files leaves out for recall's ``options``: inbox.md when ``reviewed`` is asked."""
    return INBOX_MD if options.get("reviewed") else None
