"""The derived-state registry's words: events, fates, places and one entry (docs/architecture.md §5).

An entry (:class:`Derived`) says what a file memrepo derives from the memory holds,
whether that can be entry text, who rebuilds it, and what each :class:`Event`
does to it (a :class:`Fate`). The entries themselves are listed in :mod:`.registry`.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from enum import StrEnum


class Event(StrEnum):
    """A change that takes text out of the memory."""

    FORGET = "forget"
    """One entry removed by its own commit (``forget``)."""
    CLEAR = "clear"
    """Many entries removed in one commit (``clear workspace``, ``clear global``, ``purge task``)."""
    PURGE = "purge"
    """A workspace's file deleted, then the history compacted (``purge_workspace``)."""
    COMPACT = "compact"
    """Inside compaction, after the refs moved, while the old objects can still be read."""
    COMPACTED = "compacted"
    """After compaction: what is rebuilt from the work tree alone."""


class Fate(StrEnum):
    """What an event does to a derived file."""

    KEPT = "kept"
    """Left as it is: it holds no entry text, or the text stays until compaction."""
    STALE = "stale"
    """Left, but no longer matches its inputs: the next read rebuilds or drops it."""
    SCRUBBED = "scrubbed"
    """Brought up to date now: the removed text leaves it."""
    REMOVED = "removed"
    """Deleted now."""
    QUOTES_DROPPED = "quotes dropped"
    """Each file in it that quotes forgotten text is deleted (or its record scrubbed)."""


class Where(StrEnum):
    """Where a derived thing lives."""

    STATE = ".git/memrepo"
    """The engine's state folder inside the memory repo's ``.git``."""
    MEMORY = "process memory"
    """A cache held by a running process; it ends with the process."""
    USER_CACHE = "user cache folder"
    """The user's cache folder (``~/.cache/memrepo``): not inside any memory repo."""


@dataclass(frozen=True)
class Derived:
    """One thing memrepo derives from the memory, and what removing text does to it."""

    name: str
    """A path under :attr:`where` (``*`` matches within one path part), or a cache's name in memory."""
    where: Where
    owner: str
    """The module that writes it (``read/recallkeys.py``)."""
    holds: str
    """What it holds, in a few words."""
    entry_text: bool
    """Whether it can hold an entry's text (then forgetting must reach it)."""
    rebuilt_by: str
    """Who makes it again when it is missing."""
    fates: dict[Event, Fate] = field(default_factory=dict)
    """What each event does; an event not named leaves it :attr:`Fate.KEPT`."""

    def fate(self, event: Event) -> Fate:
        """What ``event`` does to this file; :attr:`Fate.KEPT` when the entry names no fate for it."""
        return self.fates.get(event, Fate.KEPT)

    def matches(self, rel: str) -> bool:
        """Whether ``rel`` (a path under :attr:`where`) is this entry: the name itself, or a file in its folder."""
        if self.name.endswith("/"):
            return rel.startswith(self.name)
        return fnmatch.fnmatchcase(rel, self.name) and rel.count("/") == self.name.count("/")
