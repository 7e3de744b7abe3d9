"""What the context block says of each line of one file, for a front end that lists the file's lines (breaker31 B31-11).

The block hides a line a newer line replaces, keeps a line replaced for one of its facts marked "(replaced in part by
L<n>)", marks a user's line a newer agent line corrects, and leaves out a line past its date
(docs/architecture.md §4). The app's Files pane lists every line of a file; without these marks it showed the lines
the block hides like any other. The rule is the block's own (:func:`.contextrank.block_order`), never a copy.
"""

from __future__ import annotations

from memrepo.engine.errors import FormatError
from memrepo.engine.format import entries as fmt


def block_marks(path: str, text: str, today: str | None = None) -> dict[int, str]:
    """The context block's mark of each line of one file that has one, by line number.

    Args:
        path: the file's repo-relative path (``me.md``, ``workspaces/shop.md``).
        text: the file's whole text.
        today: ``YYYY-MM-DD`` the ``until:`` dates are compared with; default the local date.

    Returns:
        dict[int, str]: 1-based line -> "replaced by L<n>" (the block hides it; ``n`` the line shown in its place),
        "replaced in part by L<n>" (shown, its replaced part struck), "an agent line since says: L<n>", or
        "past: it held until <date>" (left out); lines without a mark are absent. An unreadable file has none.
    """
    from .contextpart import MARK
    from .contextrank import block_order
    from .contextselect import candidates
    from .contextuntil import ended
    from .modeline import past, today_iso

    today = today or today_iso()
    try:
        parsed = fmt.parse(text, path)
    except FormatError:
        return {}
    out: dict[int, str] = {}
    shown: list[tuple[int, fmt.Entry]] = []
    for number, entry in parsed.entries():
        if ended(entry, today):
            out[number] = f"past: it held until {past(entry.meta, today) or entry.meta.get('until', '').strip()}"
            continue
        shown.append((number, entry))
    gone, _order, marks = block_order(candidates(shown), False, ())
    for old, new in gone.items():
        seen = {old}
        while new in gone and new not in seen:  # the line shown in its place: the end of the chain
            seen.add(new)
            new = gone[new]
        out[old] = f"replaced by L{new}"
    for number, mark in marks.items():
        out[number] = f"an agent line since says: L{mark}" if isinstance(mark, int) else f"{MARK} L{mark[0]}"
    return out
