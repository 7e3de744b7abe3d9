"""What the context block's budgets leave out of the user's own lines: a write's warning, Health's row (docs/architecture.md §4, §9)."""

from __future__ import annotations

from pathlib import Path

from .context import LESSONS_BUDGET, MEMORY_BUDGET, NAMED_MAX, READ_MAX, _section_lines, context_files


def budget_misses(path: str, data: bytes | None) -> list[int]:
    """The user's lines of MEMORY.md or lessons.md that a block leaves out for its budget (docs/architecture.md §4).

    Lines a newer line replaces are not counted (they are meant to be out). The block of no workspace
    is judged: a workspace's block may rank a line naming it higher.

    Args:
        path: ``MEMORY.md`` or ``lessons.md`` (any other path: []).
        data: the file's bytes (None: missing).

    Returns:
        list[int]: the line numbers left out, in file order.
    """
    from memrepo.engine.format.layout import LESSONS_MD, MEMORY_MD

    if path not in (MEMORY_MD, LESSONS_MD):
        return []
    cf = next(f for f in context_files(lambda rel: data if rel == path else None, False, None, None) if f.path == path)
    return _section_lines(cf, None)[6]


def budget_left_out(root: Path) -> str | None:
    """What Health says of the user's lines MEMORY.md and lessons.md leave out of the block (docs/architecture.md §9).

    Args:
        root: the repo's work tree.

    Returns:
        str | None: the files, how many lines each leaves out and which, and the fixes; None when all fit.
    """
    from memrepo.engine.files.regularfile import read_work_file
    from memrepo.engine.format.layout import LESSONS_MD, MEMORY_MD

    left = []
    for rel in (MEMORY_MD, LESSONS_MD):
        try:
            missed = budget_misses(rel, read_work_file(root / rel, READ_MAX))
        except OSError:
            continue
        if missed:
            left.append(f"{rel} {len(missed)} ({' '.join(f'L{n}' for n in missed[:6])}{' …' * (len(missed) > 6)})")
    if not left:
        return None
    return f"{'; '.join(left)}; move lines to a topic file and link it, forget what is done, or let a dream condense the file"


def budget_warning(path: str, data: bytes | None) -> str | None:
    """What a write to ``path`` says when the user's lines there fall outside the block's budget, or None.

    Args:
        path: the file written.
        data: its bytes after the write.

    Returns:
        str | None: one line naming the lines left out and the fixes (docs/architecture.md §4, §9).
    """
    missed = budget_misses(path, data)
    if not missed:
        return None
    from memrepo.engine.format.layout import MEMORY_MD

    budget = MEMORY_BUDGET if path == MEMORY_MD else LESSONS_BUDGET
    what = "pinned lines" if path == MEMORY_MD else "of the user's rules"
    named = " ".join(f"L{n}" for n in missed[:NAMED_MAX]) + (" …" if len(missed) > NAMED_MAX else "")
    fix = (
        "move lines to a topic file and link it, forget what is done, or let a dream condense MEMORY.md"
        if path == MEMORY_MD
        else "merge or forget rules that overlap, or let a dream condense lessons.md"
    )
    return (
        f"{path} is past its {budget}-token context budget: {len(missed)} {what} ({named}) are left out of "
        f"the context block, the oldest first (the block names them; recall finds them): {fix}"
    )
