"""Why a checkpoint batch did not finish: a passing cause, or writes a block kept (split from :mod:`.checkpoint`).

A batch that failed for a passing cause (another git process's lock, another write's lock) is retried and never
counted toward parking; a batch whose new lines a block kept in the pen is done (breaker27 B27-7).
"""

from __future__ import annotations

from memrepo.engine.errors import BlockedError

from .distill import AddOp, Operation
from .types import CheckpointResult


def passing(reason: str | None) -> bool:
    """Whether a batch failed for a passing cause: a :class:`~memrepo.engine.errors.BusyError` (another git
    process holds its lock file, another write holds the write lock), gone by itself (B26-6)."""
    return bool(reason) and str(reason).startswith("BusyError")


def kept_write(reason: str | None) -> bool:
    """Whether a batch's write was kept while the repo was blocked (a merge, a hand edit's question): in the pen,
    applied once the block is gone, so never a failure toward parking (breaker27 B27-7)."""
    return bool(reason) and str(reason).startswith(("BlockedError: kept: ", "HandEditQuestion: kept: "))


def after_kept(result: CheckpointResult, kept: list[tuple[Operation, BlockedError]]) -> None:
    """A batch some of whose writes a block kept: done when every kept one is a new line (the pen writes it whole);
    else raises the first block (the batch stays pending as ``busy``: a supersede's or revise's removal of the
    old line is not in the pen, the retry after the block makes it; breaker27 B27-7)."""
    if not kept:
        return
    if not all(isinstance(op, AddOp) for op, _exc in kept):
        raise next(exc for op, exc in kept if not isinstance(op, AddOp))
    result.status = "distilled"
    result.notes.append(
        f"{len(kept)} write{'s' * (len(kept) != 1)} kept while the memory repo is blocked"
        " (.git/memrepo/pen): applied once the block is gone"
    )
