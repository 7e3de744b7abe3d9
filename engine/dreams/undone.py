"""A dream's accepted review, undone with ``memrepo undo`` or the app's History pane (docs/architecture.md §6, §8).

Accept merges the review (``--no-ff``): the merge itself cannot be undone on
its own, the change it merged can. When an undo reverts that change, the
dream's record says so (status ``undone``, the Dreams pane shows it); when the
undo is undone in turn, the record is ``accepted`` again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memrepo.engine.errors import MemrepoError
from memrepo.engine.models import CommitInfo

from .record import DreamRecords


def merged_change(merge: CommitInfo, info_of: Callable[[str], CommitInfo]) -> CommitInfo | None:
    """The change a two-parent merge brought in (its second parent), or None (not such a merge, or gone).

    Args:
        merge: the merge commit.
        info_of: looks a commit up by id (raises :class:`~memrepo.engine.errors.MemrepoError` when gone).
    """
    if len(merge.parents) != 2:
        return None
    try:
        change = info_of(merge.parents[1])
    except MemrepoError:
        return None
    return change if len(change.parents) == 1 else None


def note_undo(git_dir: Path, undone: CommitInfo, info_of: Callable[[str], CommitInfo]) -> str | None:
    """Mark the dream whose accepted change ``undone`` was (or whose undo it reverted) ``undone`` (or ``accepted``).

    Args:
        git_dir: the repo's git folder (the dream records).
        undone: the commit an undo just reverted.
        info_of: looks a commit up by id.

    Returns:
        str | None: the dream id whose record changed, or None.
    """
    back = undone.trailers.get("Reverts")
    try:
        change = info_of(back) if back else undone
    except MemrepoError:
        return None
    dream_id = change.trailers.get("Dream")
    if not dream_id:
        return None
    records = DreamRecords(git_dir)
    try:
        record = records.load(dream_id)
        merge = info_of(record.merge_commit) if record.merge_commit else None
    except MemrepoError:
        return None
    merged = merged_change(merge, info_of) if merge is not None else None
    if merged is None or merged.id != change.id:
        return None
    before = record.status
    if back is None and record.status == "accepted":
        record.status = "undone"
    elif back is not None and record.status == "undone":
        record.status = "accepted"
    if record.status == before:
        return None
    records.save(record)
    return record.id


__all__ = ["merged_change", "note_undo"]
