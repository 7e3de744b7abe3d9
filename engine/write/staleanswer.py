"""The question a stale save raises, and its "put back" answer (docs/architecture.md §3).

:mod:`.stalesave` finds what a save drops and :mod:`.stalerevived` what it brings
back; :func:`stale_question` words the question ``status()``, Health and the app
show, and :func:`put_back` makes the file the "put back" answer commits.
"""

from __future__ import annotations

from memrepo.engine.format.merge import merge_entries
from memrepo.engine.models import HandEditQuestion

from .staleedits import mark_rivals
from .stalesave import _entry_lines
from .stalewords import put_back_words, stale_named, stale_title


def stale_question(
    rel: str, committed: bytes, now: bytes, dropped: list[str], revived: list[str] | None = None
) -> HandEditQuestion:
    """The question a save that drops ``dropped`` or brings back ``revived`` raises (docs/architecture.md §3)."""
    from memrepo.engine.write.settle import bytes_seen

    revived = revived or []
    count = len(_entry_lines(committed, rel))
    q = HandEditQuestion(
        path=rel,
        entries_before=count,
        entries_now=len(_entry_lines(now, rel)),
        seen=bytes_seen(now),
        dropped=dropped,
        revived=revived,
    )
    q.message = (
        f"{rel}: {stale_title(dropped, revived)} (an editor's copy from before?): {stale_named(dropped, revived)}; "
        "memrepo keeps the committed text "
        f"until you decide: `memrepo commit-hand-edits --yes {rel}` commits the save as it is, "
        f"`memrepo commit-hand-edits --put-back {rel}` keeps the save {put_back_words(dropped, revived)}"
    )
    return q


def put_back(rel: str, committed: bytes, now: bytes, dropped: list[str], revived: list[str] | None = None) -> bytes:
    """``now`` with the ``dropped`` lines put back where HEAD has them and the ``revived`` lines left out.

    The base is HEAD without the dropped lines (the file as the editor had it): the save's own edits and
    memrepo's entries both stand; the entries memrepo removed stay removed. A dropped line and a line of the
    save that carry the same ``subject`` are two values of one thing (the user's edit of the agent's line, and
    memrepo's ``--subject`` rewrite of it meanwhile): both are kept with one ``conflict:`` key for the user to
    pick (the Inbox pane, :mod:`memrepo.engine.sync.conflicts`), never as two current entries (breaker10 B10-2).

    Raises:
        FormatError: a version is not text.
    """
    gone = set(dropped)
    lines = committed.splitlines(keepends=True)
    base = b"".join(line for line in lines if line.rstrip(b"\r\n").decode("utf-8", "replace") not in gone)
    merged = merge_entries(base, committed, now).data
    out = set(revived or [])
    merged = mark_rivals(merged, committed, dropped, out)
    if not out:
        return merged
    kept = merged.splitlines(keepends=True)
    return b"".join(line for line in kept if line.rstrip(b"\r\n").decode("utf-8", "replace") not in out)
