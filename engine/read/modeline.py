"""The line that says which recall answered, one wording on every surface (docs/architecture.md §4).

Plain strings only: the prompt hook's quick path imports it, and it loads no pydantic nor click.
"""

from __future__ import annotations

from datetime import date, datetime


def vector_share(covered: float) -> str:
    """The share of entries with a vector, as every front end says it: ``37%``, ``under 1%``, ``over 99%``.

    Some vectors but under 1% is never ``0%`` (that is for none: then recall is lexical), and not all is
    never ``100%`` (breaker4 F3: the first minute of a build said "hybrid ... 0% of entries have vectors").
    """
    if 0 < covered < 0.01:
        return "under 1%"
    if 0.99 < covered < 1:
        return "over 99%"
    return f"{covered:.0%}"


def recall_mode_line(mode: str, covered: float | None = None, note: str | None = None, via: str | None = None) -> str:
    """The one line that says which recall answered, the same words on every surface (docs/architecture.md §4).

    The MCP server's ``memory_recall`` and the prompt hook (itself or through the recall door) start their
    answer with it, so at the same state of the vectors they say the same thing.

    Args:
        mode: ``"hybrid"`` or ``"lexical"``.
        covered: the share of entries with a vector (0.0-1.0); None leaves it out.
        note: why semantic recall was wanted and not used (``semantic vectors are being built``, a model's
            failure), or None.
        via: the warm process that answered through the recall door (``the MCP server``), or None.

    Returns:
        str: ``(hybrid recall[ via X]: lexical and semantic, 37% of entries have vectors)``,
        ``(lexical recall[ via X]: note)`` or ``(lexical recall[ via X])``.
    """
    at = f" via {via}" if via else ""
    if mode == "hybrid":
        share = "" if covered is None else f", {vector_share(covered)} of entries have vectors"
        return f"(hybrid recall{at}: lexical and semantic{share})"
    return f"(lexical recall{at}: {note})" if note else f"(lexical recall{at})"


def waiting_block(building: str) -> str:
    """The prompt hook's one line while a large repo's index builds and no hit could be looked for (B6-10).

    A small repo's hook answers from a scan and says so (``(lexical recall from a scan of the files; index
    building: ...)``); a large one's (over the hook's scan limit) answers nothing meanwhile, and says why.

    Args:
        building: how far the build got (``index building: 1,000 of 20,000 files``).

    Returns:
        str: a fenced block of that one line, as the hook's ``additionalContext``.
    """
    return (
        f"<memory_recall>\n(no recall for this prompt yet: the memory repo is too large to scan within the prompt "
        f"hook while its recall index is built; {building}; the memory_recall tool answers meanwhile)\n"
        "</memory_recall>\n"
    )


def since_mark(hit: object) -> str:
    """The context block's mark for a recall hit a newer line replaces or a newer agent line corrects (its
    ``replaced_by`` or ``since``, a line of its file: :func:`.recallnewer.marks_of`), else "": every front end
    shows it after the hit's text (docs/recall.md).

    The block hides a replaced line; recall still lists it under its replacement, so it says so: unmarked, the
    agent got two contradicting lines of the user's ("Always run the full test suite before a deploy" under "Run
    only the fast tests before a deploy now", breaker11 B11-7). A line past its ``until:`` date (:func:`past`) is
    marked "(past: it held until <date>)": the block leaves it out, recall still finds it (issue 30)."""
    replaced = getattr(hit, "replaced_by", None)
    ended = past(getattr(hit, "meta", None) or {})
    ended_mark = f" (past: it held until {ended})" if ended else ""
    if replaced:
        return f" (replaced by L{replaced})" + ended_mark
    since = getattr(hit, "since", None)
    return (f" (an agent line since says: L{since})" if since else "") + ended_mark


def today_iso() -> str:
    """Today's local date as ``YYYY-MM-DD``: the day an ``until:`` date is compared with (the date it was written
    from is the local one too, :func:`memrepo.engine.format.relativedates.dated`)."""
    return date.today().isoformat()


def past(meta: dict[str, str], today: str | None = None) -> str | None:
    """The ``until:`` date of an entry whose statement no longer holds (the date is before ``today``), else None.

    "I'm on call this week" is kept as "... the week of 2026-11-30" with ``until: 2026-12-06``: from 2026-12-07
    on it is past. The context block leaves such a line out and recall marks it (docs/architecture.md §4); the
    line stays in its file. A value that is not a real ``YYYY-MM-DD`` date is never past ("2026-00-00", "1999-01-01
    (typo, forever)"); a full ISO timestamp is read as the local day of its instant ("2026-12-05T23:30:00-08:00" is
    2026-12-06 in UTC), breaker22 B22-4.
    """
    value = str(meta.get("until", "")).strip()
    try:
        if len(value) == 10 and value[4] + value[7] == "--":
            day = date.fromisoformat(value)
        elif len(value) > 10 and value[10] in "T ":
            stamp = datetime.fromisoformat(value)
            day = (stamp.astimezone() if stamp.tzinfo else stamp).date()
        else:
            return None
    except ValueError:
        return None
    until = day.isoformat()
    return until if until < (today or today_iso()) else None
