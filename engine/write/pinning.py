"""Pin and unpin an entry already written: move a user line into MEMORY.md or out of it (docs/architecture.md §3).

A pin is a user line of MEMORY.md: every session's context block shows it (``memrepo remember --pin``). Pinning
an entry of me.md, lessons.md or a workspace file moves it there; unpinning moves a MEMORY.md line to the file
``remember`` without ``--pin`` would pick for it (lessons.md for a lesson, me.md for the rest; a workspace
line pinned is a global pin, so it does not go back to its workspace). Only ``by: user`` lines are pinned, as
with ``--pin``. One :class:`~memrepo.engine.write.writer.Transaction` and one commit ("Pin: ..." /
"Unpin: ..."): the line is written where it goes by the :class:`~memrepo.engine.write.remember.EntryWriter`
(the write policy, dedupe, a ``subject:`` replace, the 4 KB limit of MEMORY.md), its ``added:`` date and
metadata kept, then removed from where it was, last, so a crash leaves a duplicate, never a lost line.
"""

from __future__ import annotations

from datetime import date

from memrepo.engine.errors import BusyError, LimitError, RefError
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.entrytext import clean_text, summary
from memrepo.engine.format.layout import INBOX_MD, MEMORY_MD, is_workspace_file
from memrepo.engine.format.paths import parse_ref
from memrepo.engine.models import KIND_RE, Action, Candidate, Origin, WriteResult

from .remember import EntryWriter, Target, trailers
from .rewrites import entry_at_ref
from .writer import ChangedMeanwhile, Transaction


def _date(value: str | None) -> str | None:
    """``value`` when it is a YYYY-MM-DD date (a hand-typed ``added:`` may not be), else None (today)."""
    try:
        return date.fromisoformat((value or "").strip()).isoformat()
    except ValueError:
        return None


def _candidate(entry: fmt.Entry, pinned: bool, origin: Origin) -> Candidate:
    """The write an entry becomes when it is pinned (``pinned``) or unpinned: its text, kind and metadata kept."""
    meta = entry.meta
    kind = meta.get("kind") or "fact"
    return Candidate(
        text=entry.text,
        kind=kind if KIND_RE.fullmatch(kind) else "fact",
        subject=meta.get("subject"),
        supersedes=(meta.get("supersedes") or "")[:200] or None,
        source=meta.get("source"),
        task=meta.get("task"),
        via="inbox" if meta.get("via") == "inbox" else "dream" if meta.get("via") == "dream" else None,
        added=_date(meta.get("added")),
        by="user",
        pin=pinned,
        origin=origin,
    )


def _entry(tx: Transaction, ref: str, pinned: bool, expect: str | None) -> tuple[str, fmt.MemoryFile, int, fmt.Entry]:
    """The entry at ``ref``, checked: a user line, in the right file for the move, still the line meant.

    Raises:
        RefError: no entry there, not the user's, already where asked, the inbox, a workspace's header
            line, or (with ``expect``) the line now holds other text.
    """
    rel, number = parse_ref(ref)
    if rel == INBOX_MD:
        raise RefError(f"{ref} is in {INBOX_MD}: accept it first (Move to… MEMORY.md pins it)")
    if pinned and rel == MEMORY_MD:
        raise RefError(f"{ref} is pinned already (a line of {MEMORY_MD})")
    if not pinned and rel != MEMORY_MD:
        raise RefError(f"{ref} is not pinned: pins are the user lines of {MEMORY_MD}")
    parsed, entry = entry_at_ref(tx, ref, expect)
    if fmt.is_link_line(entry.text):
        raise RefError(f"line {number} of {rel} is not an entry ({ref})")
    if is_workspace_file(rel) and entry.meta.get("workspace"):
        raise RefError(f"{ref} is the line naming the workspace {entry.meta['workspace']}, not a memory")
    if entry.by != "user":  # a line with no by: is the user's, as the format reads it (a line typed by hand)
        raise RefError(
            f"{ref} is not the user's own line (by: {entry.meta.get('by') or 'none'}): only your own lines are "
            "pinned, as with remember --pin"
        )
    return rel, parsed, number, entry


def pin(
    entries: EntryWriter, ref: str, pinned: bool = True, origin: Origin = "tui", expect: str | None = None
) -> WriteResult:
    """Move the user entry at ``ref`` into MEMORY.md (``pinned``) or out of it, in one commit.

    See :meth:`MemoryStore.pin`.
    """
    from . import policy

    with entries.writer.transaction("pin" if pinned else "unpin") as tx:
        rel, parsed, number, entry = _entry(tx, ref, pinned, expect)
        decision = policy.decide(_candidate(entry, pinned, origin), clean_text)
        if decision.candidate is None:
            return WriteResult(action=Action.REFUSED, reason=decision.reason, redacted=decision.redacted)
        cand = decision.candidate
        route = Target(MEMORY_MD) if pinned else entries.route(cand.model_copy(update={"pin": False}))
        try:
            result = entries.stage(tx, cand, route)
        except LimitError as exc:
            return WriteResult(action=Action.REFUSED, path=route.path, reason=str(exc))
        parsed.remove_line(number)
        tx.write(rel, parsed.render())  # last: a crash between the two leaves a duplicate, never no line
        verb = "Pin" if pinned else "Unpin"
        try:
            commit = tx.commit(f"{verb}: {summary(cand.text)}", trailers(origin, None, "user"))
        except ChangedMeanwhile as exc:
            raise BusyError(f"{exc.path} changed on disk while memrepo moved {ref}; retry") from exc
    action = Action.PINNED if pinned else Action.UNPINNED
    return result.model_copy(update={"action": action, "commit": commit, "redacted": decision.redacted})
