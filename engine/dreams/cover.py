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

Files new or changed since the last dream take their turn first, then the
files no dream examined as they are, then the rest, each in the rotation's
order (:func:`ranks`): what was written since the last dream is read by the
next one, however large the folder and wherever the rotation stands. Each run records every file's stamp as it
read it, and says how many files are *covered*: examined since they last
changed (:func:`covered`).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

LEFT_OUT_LISTED = 500
"""File names a run record lists as left out at most (the count is always exact)."""


def reading_order(
    files: Sequence[str], priority: Sequence[str], start_at: str | None, rank: Mapping[str, int] | None = None
) -> tuple[list[str], list[str]]:
    """The order a dream reads files in: the priority files, then the rotation, its fresh files first.

    Args:
        files: every markdown file of the folder (inbox.md excluded).
        priority: files read first, in order (only those in ``files`` count).
        start_at: where the rotation starts (the first file the last dream
            left out), or None for the first path.
        rank: each file's turn (:func:`ranks`: 0 changed since a dream last saw it, 1 never examined since it
            last changed, 2 examined since); the rotation is read by turn, each turn in its order. None: one turn.

    Returns:
        tuple: ``(order, rotation)``: every file once, and the rotation part of it in the rotation's own
        order (where the next dream starts is found in it, :func:`next_start`).
    """
    first = [f for f in dict.fromkeys(priority) if f in set(files)]
    rest = sorted(f for f in set(files) if f not in set(first))
    if start_at:
        at = next((i for i, f in enumerate(rest) if f >= start_at), 0)
        rest = rest[at:] + rest[:at]
    if rank:
        return first + sorted(rest, key=lambda f: rank.get(f, EXAMINED)), rest  # a stable sort: the rotation's order
    return first + rest, rest


CHANGED, UNEXAMINED, EXAMINED = 0, 1, 2
"""A file's turn in the rotation (:func:`ranks`)."""
NOT_EXAMINED = "-"
"""Marks the stamp of a file a dream saw but did not examine, in the dream state's ``seen``."""


def stamps(root: Path, files: Sequence[str]) -> dict[str, str]:
    """Each file's stamp, ``size:mtime_ns`` (one ``stat`` each; a file that cannot be read has none).

    Args:
        root: the work tree.
        files: repo-relative paths.

    Returns:
        dict[str, str]: path -> stamp.
    """
    out: dict[str, str] = {}
    for rel in files:
        try:
            st = os.stat(root / rel, follow_symlinks=False)
        except OSError:
            continue
        out[rel] = f"{st.st_size}:{st.st_mtime_ns}"
    return out


def ranks(now: Mapping[str, str], seen: Mapping[str, str]) -> dict[str, int]:
    """Each file's turn: :data:`CHANGED` when new or changed since the last dream saw it, :data:`UNEXAMINED`
    when seen as it is but never examined so, :data:`EXAMINED` when examined as it is.

    Args:
        now: each file's stamp now (:func:`stamps`).
        seen: the dream state's ``seen``: each file's stamp when a dream last examined it, or
            :data:`NOT_EXAMINED` and its stamp when a dream saw it without examining it.
    """
    out: dict[str, int] = {}
    for f, stamp in now.items():
        was = seen.get(f)
        if was == stamp:
            out[f] = EXAMINED
        elif was == NOT_EXAMINED + stamp:
            out[f] = UNEXAMINED
        else:
            out[f] = CHANGED
    return out


def seen_after(now: Mapping[str, str], seen: Mapping[str, str], examined: Collection[str]) -> dict[str, str]:
    """The dream state's ``seen`` after a dream that examined ``examined`` (:func:`ranks` reads it).

    A file examined gets its stamp as read; one examined earlier and unchanged keeps its stamp; any other
    gets :data:`NOT_EXAMINED` and its stamp now; a file gone is forgotten.
    """
    done = set(examined)
    return {f: stamp if f in done or seen.get(f) == stamp else NOT_EXAMINED + stamp for f, stamp in sorted(now.items())}


def covered(now: Mapping[str, str], seen: Mapping[str, str]) -> int:
    """How many files a dream examined since they last changed (their stamp is the one it read them at)."""
    return sum(1 for f, stamp in now.items() if seen.get(f) == stamp)


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


__all__ = ["LEFT_OUT_LISTED", "covered", "next_start", "ranks", "reading_order", "seen_after", "stamps"]
