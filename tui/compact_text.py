"""What a compaction takes away, in words for people: shared by the CLI question and the app's dialog.

No Textual and no click here, so both can import it cheaply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.models import CompactPreview


def size_text(n: int) -> str:
    """Bytes as KB or MB with one decimal."""
    return f"{n / (1024 * 1024):.1f} MB" if n >= 1024 * 1024 else f"{n / 1024:.1f} KB"


def loss_summary(preview: CompactPreview) -> str:
    """What a compaction will take away (DESIGN.md §5): undo history, pending dreams, other refs, worktrees.

    The question asked before compacting, so it speaks of what will happen;
    the report afterwards (``compacted: ...``) speaks of what did.

    Args:
        preview: from ``compact_preview()``.

    Returns:
        str: a few lines, ``\\n``-separated.
    """
    dropped = max(preview.commits - 1, 0)
    if dropped:
        lines = [f"Compaction will keep the current files as one commit and drop the other {dropped:,} "
                 f"commit{'s' * (dropped != 1)}: undo history will be lost."]
    else:
        lines = ["The history is one commit already; compaction will still rewrite the object "
                 "database so only that commit's objects remain."]
    other = [r for r in preview.refs if r not in preview.dream_branches]
    count = max(len(preview.dream_branches), preview.pending_dreams)
    if count:
        their = "their branches" if count != 1 else "its branch"
        lines.append(f"{count} pending dream{'s' * (count != 1)} will become stale ({their} will be deleted).")
    if other:
        shown = ", ".join(r.removeprefix("refs/heads/").removeprefix("refs/") for r in other[:5])
        more = f" and {len(other) - 5} more" if len(other) > 5 else ""
        lines.append(f"{len(other)} other ref{'s' * (len(other) != 1)} will be deleted: {shown}{more}.")
    if preview.worktrees:
        lines.append(f"{preview.worktrees} linked worktree{'s' * (preview.worktrees != 1)} will be pruned.")
    if preview.remote:
        lines.append(f"The sync remote {preview.remote} keeps the old history until it is replaced: "
                     "its history will be replaced too (a forced update).")
    lines.append(f".git is {size_text(preview.git_bytes)} now, before compacting.")
    return "\n".join(lines)
