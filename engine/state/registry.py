"""Every file memrepo derives from the memory, and what removing text does to it (docs/architecture.md §5).

The memory is the work tree and its history. Everything else memrepo keeps
is derived: indexes, kept renders, buffers, records, locks. Each can hold
text a person later forgets, so each is listed here, once. An entry says
what the file holds, whether that can be entry text, who rebuilds it, and
what forget, clear, compaction and purge do to it.

Forget, compaction and purge walk this list (:mod:`.scrub`); none names a
cache of its own. A test writes through every front door and fails when a
path under ``.git/memrepo/`` matches no entry here.

The rows live in :mod:`.registryfiles` (files that can hold entry text) and
:mod:`.registrymarks` (locks, markers, counters); the few outside the state
folder are here. The words (:class:`Event`, :class:`Fate`, :class:`Where`,
:class:`Derived`) live in :mod:`.derived` and are re-exported here.
"""

from __future__ import annotations

from pathlib import Path

from .derived import Derived, Event, Fate, Where
from .registryfiles import TEXT_FILES
from .registrymarks import MARKS

__all__ = ["REGISTRY", "Derived", "Event", "Fate", "Where", "entry_for", "markdown_table", "unlisted"]

_F, _C, _D = Event.FORGET, Event.CLEAR, Event.COMPACTED

_ELSEWHERE: tuple[Derived, ...] = (
    # -- outside the memory repo -----------------------------------------------------------------------
    Derived(
        "config-valid",
        Where.USER_CACHE,
        "configpath.py",
        "the digest of the config file last validated; no memory text",
        False,
        "the next full load of the settings",
    ),
    Derived(
        "session-repos.json",
        Where.USER_CACHE,
        "agents/sessionrepos.py",
        "which memory repo each agent session's hooks used: session ids and repo paths, no memory text",
        False,
        "the next hook of each session (until then a dream reads every session, as before the file)",
    ),
    # -- in memory (a running app, MCP server or write server) -----------------------------------------
    Derived(
        "ReadCaches context blocks",
        Where.MEMORY,
        "read/readcache.py",
        "context blocks by workspace, keyed by HEAD and the files' stamps",
        True,
        "the next context read",
        {_F: Fate.STALE, _C: Fate.STALE, _D: Fate.STALE},
    ),
    Derived(
        "RecallIndex rows",
        Where.MEMORY,
        "read/recall.py",
        "rows of the open recall index, dropped when the file's data_version moves",
        True,
        "the next recall",
        {_F: Fate.STALE, _C: Fate.STALE, _D: Fate.STALE},
    ),
    Derived(
        "StatusCache",
        Where.MEMORY,
        "git/statuscache.py",
        "the last status scan's flags by path",
        False,
        "the next status",
    ),
    Derived(
        "WorkspaceIndex",
        Where.MEMORY,
        "read/workspaceindex.py",
        "workspace id to file, by stamp",
        False,
        "the next look-up",
    ),
    Derived(
        "redact_text cache",
        Where.MEMORY,
        "redaction/__init__.py",
        "redacted texts by text (least recently used, 8,000,000 characters)",
        True,
        "the next redaction",
    ),
    Derived(
        "clean memo",
        Where.MEMORY,
        "redaction/memo.py",
        "the open memo's digests",
        False,
        "the next redaction",
        {_D: Fate.REMOVED},
    ),
)
"""What lives outside the state folder: the user's cache folder, then a running process's memory."""

REGISTRY: tuple[Derived, ...] = TEXT_FILES + MARKS + _ELSEWHERE
"""Every derived thing, in the order forget and compaction walk them."""


def entry_for(rel: str, where: Where = Where.STATE) -> Derived | None:
    """The entry a path under ``where`` belongs to, or None when the registry does not list it."""
    for derived in REGISTRY:
        if derived.where == where and derived.matches(rel):
            return derived
    return None


def unlisted(state: Path) -> list[str]:
    """Paths under the state folder ``state`` that no entry lists, sorted (empty when all are known).

    A folder counts as listed when an entry names a path inside it.
    """
    out = []
    for path in sorted(state.rglob("*")):
        rel = path.relative_to(state).as_posix()
        if path.is_dir() and not path.is_symlink():
            if not any(d.where is Where.STATE and d.name.startswith(f"{rel}/") for d in REGISTRY):
                out.append(rel)
        elif entry_for(rel) is None:
            out.append(rel)
    return out


TABLE_START = "<!-- derived-state:start (generated: python -m memrepo.engine.state.registry) -->"
TABLE_END = "<!-- derived-state:end -->"

_EVENT_COLUMNS = (
    (Event.FORGET,),
    (Event.CLEAR,),
    (Event.COMPACT, Event.COMPACTED),
    (Event.PURGE, Event.COMPACT, Event.COMPACTED),
)
"""The table's event columns: forget, clear, compaction (both steps), purge (its own step, then compaction)."""


def _cell(derived: Derived, events: tuple[Event, ...]) -> str:
    fates = [derived.fate(e) for e in events if derived.fate(e) is not Fate.KEPT]
    return ", ".join(dict.fromkeys(fates)) or Fate.KEPT


def _shown_name(derived: Derived) -> str:
    if derived.where is Where.MEMORY:
        return f"{derived.name} (in memory)"
    if derived.where is Where.USER_CACHE:
        return f"`~/.cache/memrepo/{derived.name}`"
    return f"`{derived.name}`"


def markdown_table() -> str:
    """The registry as the Markdown table docs/architecture.md shows (a test keeps the two equal)."""
    head = ["path", "owner", "holds", "entry text", "rebuilt by", "forget", "clear", "compaction", "purge"]
    rows = ["| " + " | ".join(head) + " |", "| " + " | ".join(["---"] * len(head)) + " |"]
    for d in REGISTRY:
        cells = [_shown_name(d), f"`{d.owner}`", d.holds, "yes" if d.entry_text else "no", d.rebuilt_by]
        cells += [_cell(d, events) for events in _EVENT_COLUMNS]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(markdown_table())
