"""What the context block's budgets leave out of the user's own lines: a write's warning, Health's row (docs/architecture.md §4, §9)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from .context import (
    LESSONS_BUDGET,
    MEMORY_BUDGET,
    READ_MAX,
    WORKSPACE_BUDGET,
    ContextFile,
    _section_lines,
    context_files,
)
from .contextnote import NAMED_MAX

_RULE_KIND_RE = re.compile(rb"kind:\s*(?:rule|decision|correction)\b", re.IGNORECASE)
"""A workspace file that holds none of these has no line of the user's that outranks the rest: not judged."""

WORKSPACES_NAMED = 3
"""Health names at most this many workspace files whose rules or decisions are left out (the rest counted)."""


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


def me_misses(data: bytes | None) -> list[int]:
    """The user's lines of me.md that a block leaves out for its budget (``[context] me_md`` on; docs/architecture.md §4).

    Args:
        data: me.md's bytes (None: missing).

    Returns:
        list[int]: the line numbers left out, in file order (replaced lines not counted).
    """
    from memrepo.engine.format.layout import ME_MD

    cf = next(f for f in context_files(lambda rel: data if rel == ME_MD else None, True, None, None) if f.path == ME_MD)
    return _section_lines(cf, None)[6]


def workspace_misses(path: str, data: bytes | None) -> list[int]:
    """The user's rules, decisions and corrections of a workspace file that its own workspace's block
    leaves out for the budget (the lines that rank first there, docs/architecture.md §4).

    The workspace is the ``workspace:`` key of the file's first entry holding one (the line the writer
    opens a workspace file with); without one, the block of no workspace judges it.

    Args:
        path: the workspace file (``workspaces/<name>.md``).
        data: its bytes (None: missing).

    Returns:
        list[int]: the line numbers left out, in file order; [] for a file with no rule, decision or correction.
    """
    if not data or not _RULE_KIND_RE.search(data):
        return []
    from memrepo.engine.errors import FormatError
    from memrepo.engine.format import entries as fmt
    from memrepo.engine.format.paths import normalize_workspace
    from memrepo.engine.format.terms import fold

    from .contextselect import RULE_KINDS

    try:
        parsed = fmt.parse(data[:READ_MAX], path)
    except FormatError:
        return []  # Health's own rows say the file is not readable
    entries = dict(parsed.entries())
    key = next((e.meta["workspace"].strip() for e in entries.values() if e.meta.get("workspace", "").strip()), "")
    ws = normalize_workspace(key)[0] if key else None
    names = (fold(ws), fold(path.rsplit("/", 1)[-1].removesuffix(".md"))) if ws else ()
    cf = ContextFile(path, data, WORKSPACE_BUDGET, f"workspace {ws}" if ws else "")
    missed = _section_lines(cf, ws, names)[6]
    return [n for n in missed if entries[n].meta.get("kind", "").strip().casefold() in RULE_KINDS]


def budget_left_out(root: Path, me_md: bool = True, paths: Iterable[str] = ()) -> str | None:
    """What Health says of the user's lines the block's files leave out for their budgets (docs/architecture.md §9):
    every file a block draws from. MEMORY.md's and lessons.md's lines of the user's, me.md's (with
    ``[context] me_md``), and each workspace file's rules, decisions and corrections (in its own block).

    Args:
        root: the repo's work tree.
        me_md: ``[context] me_md`` (off: me.md is in no block, so nothing of it is left out).
        paths: repo-relative files; the workspace files among them are judged (Health hands in those that
            hold a rule, decision or correction of the user's, from its one pass over the files).

    Returns:
        str | None: the files, how many lines each leaves out and which, and the fixes; None when all fit.
    """
    from memrepo.engine.files.regularfile import read_work_file
    from memrepo.engine.format.layout import LESSONS_MD, ME_MD, MEMORY_MD, WORKSPACES

    def said(rel: str, missed: list[int]) -> str:
        return f"{rel} {len(missed)} ({' '.join(f'L{n}' for n in missed[:6])}{' …' * (len(missed) > 6)})"

    left = []
    for rel in (MEMORY_MD, *([ME_MD] if me_md else []), LESSONS_MD):
        try:
            data = read_work_file(root / rel, READ_MAX)
        except OSError:
            continue
        missed = me_misses(data) if rel == ME_MD else budget_misses(rel, data)
        if missed:
            left.append(said(rel, missed))
    spaces = []
    for rel in sorted(p for p in paths if p.startswith(f"{WORKSPACES}/") and p.endswith(".md")):
        try:
            missed = workspace_misses(rel, read_work_file(root / rel, READ_MAX))
        except OSError:
            continue
        if missed:
            spaces.append(said(rel, missed))
    left += spaces[:WORKSPACES_NAMED]
    if len(spaces) > WORKSPACES_NAMED:
        left.append(f"{len(spaces) - WORKSPACES_NAMED} more workspace files")
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
