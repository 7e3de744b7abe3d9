"""Which files a dream reads, so successive dreams cover the whole folder (docs/architecture.md §6, coverage).

One dream reads at most ``FOLDER_CAP`` characters of folder lines. The
priority files (MEMORY.md, me.md, lessons.md, then the workspace files of the
tasks read) come first in every dream; every other file takes its turn in a
rotation by path that starts where the last dream stopped: at the first file
it had to leave out. So a file is examined again only after every other file
was, and every file that fits in what the priority files leave of the cap is
examined within ``ceil(rest / room) + 1`` dreams, where ``rest`` is the size
of the other files and ``room`` what the priority files leave. A file larger
than the whole cap alone is never examined, and always listed as left out.
"""

from __future__ import annotations

from collections.abc import Sequence

LEFT_OUT_LISTED = 500
"""File names a run record lists as left out at most (the count is always exact)."""


def reading_order(files: Sequence[str], priority: Sequence[str], start_at: str | None) -> tuple[list[str], list[str]]:
    """The order a dream reads files in: the priority files, then the rotation.

    Args:
        files: every markdown file of the folder (inbox.md excluded).
        priority: files read first, in order (only those in ``files`` count).
        start_at: where the rotation starts (the first file the last dream
            left out), or None for the first path.

    Returns:
        tuple: ``(order, rotation)``: every file once, and the rotation part of it.
    """
    first = [f for f in dict.fromkeys(priority) if f in set(files)]
    rest = sorted(f for f in set(files) if f not in set(first))
    if start_at:
        at = next((i for i, f in enumerate(rest) if f >= start_at), 0)
        rest = rest[at:] + rest[:at]
    return first + rest, rest


def next_start(rotation: Sequence[str], left_out: Sequence[str], too_large: Sequence[str]) -> str | None:
    """Where the next dream's rotation starts: the first rotation file this one left out.

    Args:
        rotation: the rotation part of the order, as read.
        left_out: files this dream did not examine.
        too_large: files larger than the whole cap (they never block the rotation).

    Returns:
        str | None: a path, or None when the dream examined every rotation file it could.
    """
    skip = set(too_large)
    out = set(left_out)
    return next((f for f in rotation if f in out and f not in skip), None)


__all__ = ["LEFT_OUT_LISTED", "next_start", "reading_order"]
