"""The context block names a file's merge-conflict regions (docs/architecture.md §4).

While ``git merge`` waits on a conflict, the work tree holds both sides of
it between marker lines. The parser reads no entry between the markers
(:mod:`memrepo.engine.format.conflicts`), so the agent is never given both
sides as two valid memories; the file's section header says which lines are
left out and why, so the block (stamped with HEAD's commit, its line numbers
the work tree's, as ``memory_read`` shows them) describes what was read.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.engine.format.conflicts import conflicted_lines

if TYPE_CHECKING:
    from .context import ContextFile

SHOWN_MAX = 3
"""Regions named in a header at most (the rest are counted)."""
HELD_LABEL = "a hand edit waits for an answer; shown as committed"
"""The header of a file read from HEAD while a hand edit that loses entries waits (:mod:`.heldread`)."""


def conflict_note(data: bytes | None) -> str:
    """``merge conflict at L5-L11: ...`` for a file's bytes with conflict markers, else ""."""
    regions = conflicted_lines(data)
    if not regions:
        return ""
    where = ", ".join(f"L{first}-L{last}" for first, last in regions[:SHOWN_MAX])
    if len(regions) > SHOWN_MAX:
        where += f" and {len(regions) - SHOWN_MAX} more"
    return f"merge conflict at {where}: its lines are left out until the conflict is resolved"


def label_conflicts(files: list[ContextFile], held: Collection[str] = ()) -> list[ContextFile]:
    """``files``, each conflicted file's header label saying so, and each file in ``held`` (read from HEAD while a
    hand edit that loses entries waits for an answer, :mod:`.heldread`) saying it is shown as committed."""
    out = []
    for cf in files:
        note = HELD_LABEL if cf.path in held else conflict_note(cf.data)
        out.append(replace(cf, label=f"{cf.label}; {note}" if cf.label else note) if note else cf)
    return out


def merge_conflict_line(root: Path) -> str | None:
    """One line naming the memory files with unresolved conflict regions while git waits on a conflict, else None.

    Recall finds neither side of a conflict (its lines are no entries): said beside the hits, or beside "no
    memory matches", so the agent knows what it did not find (docs/architecture.md §4). Never raises. Reads
    git's index only while a merge, cherry-pick, revert or rebase is in progress, and only the conflicted files.
    """
    from memrepo.engine.files.regularfile import read_work_file
    from memrepo.engine.git.mergestate import conflicted_paths

    named = []
    for rel in conflicted_paths(root):
        try:
            regions = conflicted_lines(read_work_file(Path(root) / rel))
        except OSError:
            continue
        if regions:
            named.append(f"{rel} ({', '.join(f'L{a}-L{b}' for a, b in regions[:SHOWN_MAX])})")
    if not named:
        return None
    return f"a merge conflict in {', '.join(named)}: the lines between its markers are left out until it is resolved"
