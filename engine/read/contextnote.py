"""The line a context block's section that leaves entries out ends in (docs/architecture.md §4, step 4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .context import ContextFile

NAMED_MAX = 12
"""A left-out note names at most this many of the user's lines by number (the rest are counted)."""


def left_out_note(
    cf: ContextFile,
    omitted: int,
    missed: list[int],
    replaced_count: int,
    by_agents: int,
    clean: Callable[[str], str],
    links_left: int = 0,
    ended: list[int] | None = None,
    capped: int = 0,
    links_other: int = 0,
) -> str:
    """The line a section that leaves entries or index lines out ends in (docs/architecture.md §4).

    Args:
        cf: the file.
        omitted: entries not shown in all.
        missed: line numbers left out for the budget, not replaced (named when ``cf.user_first``).
        replaced_count: lines left out because a newer line replaces them.
        by_agents: the agents' entries a ``user_only`` section leaves out.
        clean: :func:`.context.sanitize_line` or a memo of it.
        links_left: index lines (``- [[...]]``) the budget left out, counted so an agent knows the
            index it sees is not the whole of it.
        ended: the line numbers of entries left out because their ``until:`` date is past (:func:`.modeline.past`),
            named when ``cf.user_first`` (a pin or a line of the user's that ended: the agent can say so).
        capped: the read cap (bytes) the file's bytes reached, or 0: only its first part was read, so the note
            says so instead of a count (breaker24 B24-11).
        links_other: of ``links_left``, the index lines a workspace's block leaves out because they lead to other
            workspaces' files only (:func:`.context._block_links`), said so: the budget did not cut them.
    """
    path = clean(cf.path)
    if capped:  # only its first part was read: the count is no total
        return (
            f"({path} is over {capped // 1024} KB: only its first part was read and its other entries are not "
            "shown; memory_read refuses a file this large and recall one over 1 MB: split it by hand)"
        )
    left = [f"{omitted} more {'entry' if omitted == 1 else 'entries'}"] if omitted else []
    if links_left:
        left.append(f"{links_left} {'' if omitted else 'more '}index {'line' if links_left == 1 else 'lines'}")
    note = f"({' and '.join(left)} in {path} not shown"
    details = []
    if cf.user_first and missed:
        named = " ".join(f"L{n}" for n in sorted(missed)[:NAMED_MAX])
        details.append(f"{len(missed)} for the budget: {named}" + (" …" if len(missed) > NAMED_MAX else ""))
    if replaced_count:
        details.append(f"{replaced_count} replaced by newer lines")
    if by_agents:
        details.append(f"{by_agents} by agents")
    if links_other:
        details.append(f"{links_other} to other workspaces' files")
    if ended:
        past = f"{len(ended)} past their until: date"
        if cf.user_first:
            past += ": " + " ".join(f"L{n}" for n in ended[:NAMED_MAX]) + (" …" if len(ended) > NAMED_MAX else "")
        details.append(past)
    if details:
        note += " (" + "; ".join(details) + ")"
    how = f"search them with recall or read {path}" if omitted else f"read {path}"
    return note + f"; {how} with memory_read)"
