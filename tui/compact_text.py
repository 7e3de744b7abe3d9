"""What a compaction takes away, in words for people: shared by the CLI question and the app's dialog.

No Textual and no click here, so both can import it cheaply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memrepo.engine.models import CompactPreview


def size_text(n: int) -> str:
    """Bytes as KB or MB with one decimal."""
    return f"{n / (1024 * 1024):.1f} MB" if n >= 1024 * 1024 else f"{n / 1024:.1f} KB"


def loss_summary(preview: CompactPreview) -> str:
    """What a compaction will take away (docs/architecture.md §5): undo history, pending dreams, other refs, worktrees.

    The question asked before compacting, so it speaks of what will happen;
    the report afterwards (``compacted: ...``) speaks of what did.

    Args:
        preview: from ``compact_preview()``.

    Returns:
        str: a few lines, ``\\n``-separated.
    """
    dropped = max(preview.commits - 1, 0)
    if dropped:
        lines = [
            f"Compaction will keep the current files as one commit and drop the other {dropped:,} "
            f"commit{'s' * (dropped != 1)}: undo history will be lost."
        ]
    else:
        lines = [
            "The history is one commit already; compaction will still rewrite the object "
            "database so only that commit's objects remain."
        ]
    other = [r for r in preview.refs if r not in preview.dream_branches]
    branches = [r.removeprefix("refs/heads/") for r in preview.dream_branches]
    if branches:  # only branches that exist are named
        n = len(branches)
        shown = ", ".join(branches[:5]) + (f" and {n - 5} more" if n > 5 else "")
        lines.append(
            f"{n} dream review branch{'es' * (n != 1)} will be deleted and "
            f"{'their dreams' if n != 1 else 'its dream'} marked stale: {shown}."
        )
    if preview.pending_without_branch:
        k = preview.pending_without_branch
        lines.append(
            f"{k} other dream run{'s' * (k != 1)} still open (applied, or marked running) will be marked stale; "
            f"{'they have' if k != 1 else 'it has'} no review branch."
        )
    if other:
        shown = ", ".join(r.removeprefix("refs/heads/").removeprefix("refs/") for r in other[:5])
        more = f" and {len(other) - 5} more" if len(other) > 5 else ""
        lines.append(f"{len(other)} other ref{'s' * (len(other) != 1)} will be deleted: {shown}{more}.")
    if preview.worktrees:
        lines.append(f"{preview.worktrees} linked worktree{'s' * (preview.worktrees != 1)} will be pruned.")
    if preview.remote:
        lines.append(
            f"The sync remote {preview.remote} keeps the old history until it is replaced: "
            "its history will be replaced too (a forced update)."
        )
    lines.append(f".git is {size_text(preview.git_bytes)} now, before compacting.")
    return "\n".join(lines)
