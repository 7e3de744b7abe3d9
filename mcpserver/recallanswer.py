"""``memory_recall``'s answer: the hits as lines an agent reads, with the notes around them (docs/architecture.md §7).

Taken out of :mod:`.server` (at 480 lines): the tool there checks its arguments and calls :func:`recall_answer`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memrepo.engine import NEAREST_LINE, fence_safe, since_mark
from memrepo.engine.errors import MemrepoError, RefError

from . import tooling
from .refbinding import canonical
from .tooling import Session, elsewhere_line

if TYPE_CHECKING:
    from memrepo.engine.models import RecallMode


async def recall_answer(
    repo: Any, session: Session, query: str, where: str | None, limit: int, detail: str, counted: Callable[[], None]
) -> str:
    """What ``memory_recall`` answers for ``query`` in the workspace ``where``.

    Args:
        repo: the open :class:`memrepo.engine.repo.repo.MemoryRepo`.
        session: the MCP session (its lexical note is said once; the refs shown are bound in it).
        query: what to look for.
        where: the workspace (a folder or a name); None searches every file (a session in ~, / or /tmp).
        limit: the most hits.
        detail: ``line`` or ``full`` (the section around each hit).
        counted: called once recall answered (the session's read counter).

    Returns:
        str: the hits, one a line with its ref and who wrote it, after the notes that apply (the nearest entries
        when none answers, the recall mode, other workspaces' files, a scan while the index builds, a file not
        UTF-8, a merge conflict); "No memory matches ..." when there is no hit.
    """
    hits = await repo.recall(query, where, limit, 16_000, detail, related=True)
    counted()
    changed = ""
    named = _named_ref(query)
    if named is not None:  # a ref as the query: that entry, or why there is none (breaker30 B30-14)
        try:
            entries = (await repo.read_file(canonical(named)[0])).entries
        except (MemrepoError, OSError):
            entries = []
        changed = session.refs.changed_note(named, entries)
        if not any(entry.ref == named for entry in entries):  # never the nearest entries to "repo me md L17"
            return f"{changed}No entry is on {named} (forgotten, or the file changed? recall it by its words)."
        if not any(hit.ref == named for hit in hits):
            return f"{changed}{named} is outside what memory_recall searches here: read it with memory_read."
    session.refs.saw_entries(hits)  # each ref shown, bound to its entry (docs/agents.md; breaker30 B30-11)
    how = session.note_once(mode_line(await repo.recall_mode()))
    other = await elsewhere_line(repo, query, where) if where is not None and (not hits or not hits[0].answer) else ""
    if not hits:
        from memrepo.engine.redaction import redact_text

        said = f"No memory matches {redact_text(query)!r}" + (" here: " + other if other else ".")
        return "\n".join(x for x in (said, tooling.conflict_note(repo.root, query), how) if x)
    out = [line for line in (changed.rstrip("\n"), how, other) if line]
    if not hits[0].answer:  # nothing answers confidently: the nearest entries (docs/architecture.md §4)
        out.insert(0, NEAREST_LINE)
    if hits[0].scan:  # the index's first build runs: the files were scanned (docs/architecture.md §4)
        out.append(f"Answered by a scan of the files while the recall index builds ({hits[0].scan}).")
    out.extend(x for x in (tooling.not_utf8_note(repo.root, hits), tooling.conflict_note(repo.root, query)) if x)
    for hit in hits:
        tag = (" [unreviewed]" if hit.unreviewed else "") + ("" if hit.answer else " [nearest, not an answer]")
        # Escaped as the context block is (docs/architecture.md §4): a line can neither close nor open
        # a <memory_repo> fence the agent has seen, nor pass for the block's own header.
        out.append(f"{hit.ref} ({hit.by}){tag}: {fence_safe(hit.text)}{since_mark(hit)}")
        if hit.section:
            out.extend(f"    {fence_safe(line)}" for line in hit.section.splitlines())
    return "\n".join(out)


REF_QUERY_RE = re.compile(r"(?:repo:)?[^#\s]+\.md#L\d+")
"""A query that is an entry ref, as the engine's recall reads one (docs/agents.md: ``repo:`` may be left out)."""


def _named_ref(query: str) -> str | None:
    """``repo:<path>#L<n>`` when ``query`` is an entry ref, else None."""
    if not REF_QUERY_RE.fullmatch(query.strip()):
        return None
    try:
        rel, number = canonical(query)
    except RefError:
        return None
    return f"repo:{rel}#L{number}"


def mode_line(mode: RecallMode) -> str:
    """The line a recall result starts with when semantic recall is on (docs/architecture.md §4); empty when off."""
    from memrepo.engine.read.modeline import recall_mode_line

    if mode.mode == "hybrid" or mode.note:
        return recall_mode_line(mode.mode, mode.covered, model_note(mode.note))
    return ""


EXTRA_NOTE = "matches words, not meaning: the semantic extra is not installed (`memrepo health` says how to add it)"
"""The lexical note an agent gets for a missing semantic extra: the install commands are for the user, and a
Codex user's every ``codex exec`` is a new session told again (breaker30 B30-10: 260 characters in 15 of 15)."""


def model_note(note: str | None) -> str | None:
    """``note`` for the agent: :data:`EXTRA_NOTE` for the missing extra, any other reason as it is."""
    return EXTRA_NOTE if note and note.startswith("the semantic extra is not installed") else note
