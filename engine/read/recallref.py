"""A recall query that is an entry's ref gives that entry (breaker8 B8-8; docs/architecture.md §4).

An agent or a person pastes a ref as a query: ``repo:workspaces/tidepool.md#L7``, or without ``repo:`` as the
context block prints it (``projects/acme.md#L12``). Searched as words it found "No entry answers" and an outdated
line as the nearest. Every way in asks this one function: the store (MCP ``memory_recall``, the app) and a new
process (``memrepo recall``, the recall door, the prompt hook). The entry comes from the recall index, so a ref
gives only what recall could show anyway: no dot folder, no ``archived/``, no symlink, nothing outside the repo.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memrepo.engine.errors import RefError
from memrepo.engine.format.paths import safe_relpath

if TYPE_CHECKING:
    from .recall import RecallIndex

REF_QUERY_RE = re.compile(r"(?:repo:)?([^#\s]+\.md)#L(\d+)")
"""A query that is an entry ref, with or without ``repo:`` (``workspaces/tidepool.md#L7``)."""

REF_KEY = (1.0, 1.0, 0)
"""The sort key ``(score, confidence, rank)`` of the entry a ref names: an answer, whatever the minimum."""


def ref_item(index: RecallIndex, query: str) -> tuple[int, tuple] | None:
    """The indexed entry a ref-shaped query names, as a search result ``(item id, sort key)``.

    Args:
        index: the recall index, synced by the caller.
        query: the query as given; spaces around it are ignored.

    Returns:
        tuple[int, tuple] | None: the entry's item id and :data:`REF_KEY`; None when the query is no ref,
        its path is unsafe, or no indexed entry is on that line (a heading, past the end): then it is searched
        as words.
    """
    m = REF_QUERY_RE.fullmatch(query.strip())
    if m is None:
        return None
    try:
        path = safe_relpath(m.group(1))
    except RefError:
        return None
    line = int(m.group(2))
    for iid, row in index.file_entries(path).items():
        if row[0] == line:
            return iid, REF_KEY
    return None
