"""Entry-aware revert of one commit's change to a memory file (undo, docs/architecture.md §8).

A memory file is a list of independent entry lines, so undoing a commit works
line by line against the file as it is now: the lines the commit added are
taken out where they still stand, the lines it removed are put back after the
line that preceded them (or the nearest one before it that still stands, or
before the next one that does, when that neighbour was removed since). Unlike git's three-way revert, a later write that
only appended nearby does not make the undo conflict; a later change to the
very lines the commit touched does. A line the commit removed is not put
back when the file would then hold its entry (same normalized text, ``key``)
more often than it did before the commit: undo makes no new duplicate.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Callable


class RevertConflict(Exception):
    """The lines a commit touched were changed since; the message says how."""


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _find(haystack: list[bytes], block: list[bytes], near: int) -> int:
    """Index where ``block`` stands in ``haystack`` (the occurrence nearest ``near``), or -1."""
    size = len(block)
    starts = [i for i in range(len(haystack) - size + 1) if haystack[i : i + size] == block]
    return min(starts, key=lambda i: abs(i - near)) if starts else -1


def _place(result: list[bytes], new: list[bytes], j: int, shift: int) -> int:
    """Where lines the commit removed before ``new[j]`` go back in ``result``.

    After the nearest line before them that still stands; when every line
    before them is gone since (a later commit removed or moved that entry),
    before the nearest line after them that stands. Neighbours are only
    places, not lines the commit touched, so their changes never conflict.

    Raises:
        RevertConflict: no line around them stands any more.
    """
    for k in range(j - 1, -1, -1):
        anchor = _find(result, [new[k]], k + shift)
        if anchor >= 0:
            return anchor + 1
    for k in range(j, len(new)):
        anchor = _find(result, [new[k]], k + shift)
        if anchor >= 0:
            return anchor
    raise RevertConflict("no line around the removed lines stands any more")


def _drop_duplicates(
    result: list[bytes], put_back: list[bool], old: list[bytes], key: Callable[[bytes], str | None]
) -> list[bytes]:
    """``result`` without the put-back lines that would hold an entry more often than ``old`` did.

    A line the commit removed comes back only while the file has fewer
    copies of its entry than it had before the commit: undoing a forget
    whose entry was written again since adds no second copy, undoing the
    removal of a duplicate brings the duplicate back.
    """
    allowed = Counter(k for k in map(key, old) if k is not None)
    have = Counter(k for line, back in zip(result, put_back, strict=True) if not back and (k := key(line)))
    out: list[bytes] = []
    for line, back in zip(result, put_back, strict=True):
        k = key(line) if back else None
        if k is not None:
            if have[k] >= allowed[k]:
                continue
            have[k] += 1
        out.append(line)
    return out


def revert_text(
    before: bytes | None,
    after: bytes | None,
    current: bytes | None,
    key: Callable[[bytes], str | None] | None = None,
) -> bytes | None:
    """Undo the change ``before`` → ``after`` on ``current``.

    Args:
        before: the file in the commit's parent (None: the commit created it).
        after: the file in the commit (None: the commit deleted it).
        current: the file now (None: it does not exist now).
        key: a line's dedupe key (an entry's normalized text), None for a
            line that is no entry. A removed line is not put back when the
            file would hold its entry more often than before the commit.

    Returns:
        bytes | None: the file after the undo; None means delete it.

    Raises:
        RevertConflict: the file or the lines the commit touched changed since.
    """
    if after is None:
        if current is not None:
            raise RevertConflict("the file was deleted by this commit and made again since")
        return before
    if current is None:
        raise RevertConflict("the file was deleted since")
    if before is None:
        if current != after:
            raise RevertConflict("the file was made by this commit and changed since")
        return None
    old, new, cur = _lines(before), _lines(after), _lines(current)
    result = list(cur)
    put_back = [False] * len(result)  # parallel to ``result``: lines the undo puts back
    shift = 0  # how far positions in ``result`` have moved from positions in ``new``
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        removed, added = old[i1:i2], new[j1:j2]
        if added:
            at = _find(result, added, j1 + shift)
            if at < 0:
                raise RevertConflict("a line this commit wrote was changed or removed since")
        elif j1 == 0:
            at = 0
        else:
            at = _place(result, new, j1, shift)
        if removed and at > 0 and not result[at - 1].endswith(b"\n"):
            # Put back lines after a last line that has no newline: give it one.
            result[at - 1] += b"\r\n" if removed[0].endswith(b"\r\n") else b"\n"
        result[at : at + len(added)] = removed
        put_back[at : at + len(added)] = [True] * len(removed)
        shift = at + len(removed) - j2
    if key is not None:
        result = _drop_duplicates(result, put_back, old, key)
    return b"".join(result)
