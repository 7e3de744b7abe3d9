"""When a line stops holding, for the context block: its ``until:`` date, or the date its own words end it on.

A line past its ``until:`` date leaves the block (docs/architecture.md §4, :func:`.modeline.past`). A line that
says its end date in its own words holds until that date just the same: "Until 2025-03-31 the saffron Android
build signs with the legacy upload key", saved with ``memrepo remember`` as written, has no ``until:`` field, and
the block showed it long after (heldout5 h5-time-expired). :func:`ended` reads the words too: an ISO date after
"until" (or "till", "through"; "bis", "jusqu'au", "hasta el", "até", "fino al", "tot") that opens the line, or after
"until"/"till" that closes it. Only when the date bounds the whole line: one date in it, no ";" and no "then",
"after", "afterwards", "from" ("Until 2025-03-31 sign with the old key, then with the new one" still says
something after the date).
"""

from __future__ import annotations

import re

from memrepo.engine.format import entries as fmt
from memrepo.engine.format.terms import fold

from .modeline import past

_DATE = r"(\d{4}-\d{2}-\d{2})"
_OPENS = re.compile(
    rf"^\s*(?:until|till|through|bis|jusqu'?au|jusqu'a|hasta el|hasta|ate|fino al|tot)\s+{_DATE}(?![\d-])"
)
_CLOSES = re.compile(rf"\b(?:until|till)\s+{_DATE}\)?[.!]?\s*$")
_AFTER = re.compile(r";|\b(?:then|after|afterwards|from)\b")
_ANY_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def said_until(text: str) -> str:
    """The date a line's own words end it on (module docstring), or ""."""
    folded = fold(text)
    found = _OPENS.match(folded) or _CLOSES.search(folded)
    if found is None or len(_ANY_DATE.findall(folded)) != 1 or _AFTER.search(folded):
        return ""
    return found[1]


def ended(entry: fmt.Entry, today: str) -> bool:
    """Whether a line no longer holds on ``today``: past its ``until:`` date, or, without one, past the date its
    words end it on (:func:`said_until`)."""
    if "until" in entry.meta:
        return past(entry.meta, today) is not None
    said = said_until(entry.text)
    return bool(said) and past({"until": said}, today) is not None
