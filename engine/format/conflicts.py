"""Merge-conflict regions in a memory file: the lines between git's markers are no entries
(docs/architecture.md §2, §4).

``git merge`` (or ``git stash pop``, a rebase, ``git checkout -m``) that cannot
merge a file writes both sides into it between marker lines::

    <<<<<<< HEAD
    - Uses bash shell
    =======
    - Uses zsh shell
    >>>>>>> other

Read as entries, both sides would come back as two valid, contradictory
memories. The parser treats such a region as a block whose bullets are no
entries (like fenced code, :func:`.entries.scan_blocks`): recall, the context
block and Health see neither side until the user resolves the conflict; the
context block names the region (:mod:`memrepo.engine.read.conflictnote`). A
``<<<<<<<`` never closed by ``>>>>>>>`` after a ``=======`` opens no region.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_OPEN = re.compile(r"<{7}(?: |$)")
_MIDDLE = re.compile(r"={7}[ \t]*$")
_CLOSE = re.compile(r">{7}(?: |$)")
MARKER = "<<<<<<<"
"""What a file must hold for a region to be looked for (a cheap test first)."""


def conflict_regions(texts: Sequence[str]) -> list[tuple[int, int]]:
    """The merge-conflict regions of a file's lines: (first, last) 0-based indexes, markers included.

    Args:
        texts: the lines' texts, without endings, in order.

    Returns:
        list[tuple[int, int]]: one pair per region, in order; empty for most files.
    """
    out: list[tuple[int, int]] = []
    i, n = 0, len(texts)
    while i < n:
        if not texts[i].startswith(MARKER) or not _OPEN.match(texts[i]):
            i += 1
            continue
        middle = end = None
        for k in range(i + 1, n):
            if _OPEN.match(texts[k]):
                break  # a second opener before this one closed: this one opens nothing
            if middle is None and _MIDDLE.match(texts[k]):
                middle = k
            elif middle is not None and _CLOSE.match(texts[k]):
                end = k
                break
        if end is None:
            i += 1
            continue
        out.append((i, end))
        i = end + 1
    return out


def conflicted_lines(data: bytes | None) -> list[tuple[int, int]]:
    """The merge-conflict regions of a file's bytes as 1-based line numbers (first, last); [] when none."""
    if not data or MARKER.encode() not in data:
        return []
    texts = data.decode("utf-8", "replace").split("\n")
    return [(first + 1, last + 1) for first, last in conflict_regions([t.rstrip("\r") for t in texts])]
