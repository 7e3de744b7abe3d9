"""Every file memrepo derives from the memory, and what removing text does to it (docs/architecture.md §5).

The memory is the work tree and its history. Everything else memrepo keeps
is derived: indexes, kept renders, buffers, records, locks. Each can hold
text a person later forgets, so each is listed here, once. An entry says
what the file holds, whether that can be entry text, who rebuilds it, and
what forget, clear, compaction and purge do to it.

Forget, compaction and purge walk this list (:mod:`.scrub`); none names a
cache of its own. A test writes through every front door and fails when a
path under ``.git/memrepo/`` matches no entry here.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path


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


_F, _C, _P, _K, _D = Event.FORGET, Event.CLEAR, Event.PURGE, Event.COMPACT, Event.COMPACTED
_S = Where.STATE
_MADE_WHEN_NEEDED = "made again when first needed"

REGISTRY: tuple[Derived, ...] = (
    # -- rebuilt from the work tree: forget and compaction reach them at once --------------------------
    Derived(
        "context-cache/",
        _S,
        "read/contextcache.py",
        "context blocks a new process rendered, by key; `.part-*`: each file's section of them and its lines' cleaned text; `.wanted`: the workspace ids last asked for",
        True,
        "the next `memrepo context` or SessionStart hook (read/coldread.py)",
        {_F: Fate.REMOVED, _C: Fate.STALE, _D: Fate.REMOVED},
    ),
    Derived(
        "context-cache.lock",
        _S,
        "read/contextcache.py",
        "a lock: renders shared, the clear exclusive",
        False,
        _MADE_WHEN_NEEDED,
    ),
    Derived(
        "workspaces.sqlite",
        _S,
        "read/workspacemap.py",
        "the workspace map: workspace id, file, folder and origin remote of each workspace file",
        False,
        "the next look-up of a workspace, from the workspace files",
        {_D: Fate.SCRUBBED},
    ),
    Derived("workspaces.sqlite-journal", _S, "read/workspacemap.py", "SQLite's journal of the map", False, "SQLite"),
    Derived(
        "recall.sqlite",
        _S,
        "read/recallkeys.py",
        "the recall index: each entry's text, terms and metadata; `shown`: its redacted text",
        True,
        "any recall: files whose stamps moved are read again (read/recall.py)",
        {_F: Fate.SCRUBBED, _C: Fate.STALE, _D: Fate.SCRUBBED},
    ),
    Derived("recall.sqlite-journal", _S, "read/recallkeys.py", "SQLite's journal of the index", True, "SQLite"),
    Derived(
        "recall-build.progress",
        _S,
        "read/recallbuild.py",
        "a first build's count of files read so far, while it runs; no text",
        False,
        "the next first build of the recall index",
    ),
    Derived(
        "vectors.sqlite",
        _S,
        "read/semantic_store.py",
        "hybrid recall's vectors (int8), keyed by recall item and a digest of the text embedded; no text",
        True,
        "the MCP server or the app, in the background (read/semantic_build.py)",
        {_F: Fate.SCRUBBED, _C: Fate.STALE, _D: Fate.SCRUBBED},
    ),
    Derived("vectors.sqlite-journal", _S, "read/semantic_store.py", "SQLite's journal of the vectors", True, "SQLite"),
    Derived(
        "redaction-clean.bin",
        _S,
        "redaction/memo.py",
        "salted digests of texts the secret detector found nothing in; no text",
        False,
        "any redaction that loads the detector",
        {_D: Fate.REMOVED},
    ),
    # -- kept until compaction: they may quote text a later forget removes -----------------------------
    Derived(
        "dreams/*",
        _S,
        "dreams/record.py",
        "dream records: each operation with the lines it quotes; a prompt or log beside them",
        True,
        "nothing: each dream writes its own",
        {_K: Fate.QUOTES_DROPPED},
    ),
    Derived(
        "dream-state.json",
        _S,
        "dreams/record.py",
        "the last run, HEAD, the task cursor and each examined file's path with its size and mtime; no text",
        False,
        _MADE_WHEN_NEEDED,
    ),
    Derived(
        "pending/*.json",
        _S,
        "write/keptwrites.py",
        "writes kept while the work tree was blocked, one candidate each (0600 in a 0700 folder)",
        True,
        "nothing: the next write, `commit-hand-edits` or a long-running process once the block goes applies and deletes them",
        {_K: Fate.QUOTES_DROPPED},
    ),
    Derived(
        "commit-journal",
        _S,
        "write/commitjournal.py",
        "while a kept write's commit is made: its message, a SHA-256 of each new file and the records it consumes",
        True,
        "nothing: each such commit writes its own; the next write lock's holder finishes one a kill left",
    ),
    Derived(
        "checkpoints/*.json",
        _S,
        "checkpoints/buffers.py",
        "an agent's buffered messages, one file per scope, redacted",
        True,
        "nothing: the next checkpoint hook buffers again",
        {_P: Fate.REMOVED, _K: Fate.QUOTES_DROPPED},
    ),
    Derived("checkpoints.lock", _S, "checkpoints/buffers.py", "the checkpoint buffers' lock", False, _MADE_WHEN_NEEDED),
    Derived(
        "checkpoint-tombstones.json",
        _S,
        "checkpoints/buffers.py",
        "forgotten session ids and times",
        False,
        _MADE_WHEN_NEEDED,
    ),
    Derived(
        "checkpoint-scope-tombstones.json",
        _S,
        "checkpoints/buffers.py",
        "purged scopes and their message ids",
        False,
        _MADE_WHEN_NEEDED,
    ),
    # -- no text: locks, markers, counters, journals ---------------------------------------------------
    Derived("write.lock", _S, "files/lock.py", "the cross-process write lock", False, _MADE_WHEN_NEEDED),
    Derived(
        "write.holder", _S, "files/lock.py", "who holds the write lock: pid, purpose, time", False, _MADE_WHEN_NEEDED
    ),
    Derived(
        "sync.holder",
        _S,
        "files/lock.py",
        "who runs a sync: pid, purpose, time, a local-path remote's git folder",
        False,
        _MADE_WHEN_NEEDED,
    ),
    Derived("dream.holder", _S, "files/lock.py", "who runs a dream: pid, purpose, time", False, _MADE_WHEN_NEEDED),
    Derived("dream.lock", _S, "files/lock.py", "the dream lock (one dream at a time)", False, _MADE_WHEN_NEEDED),
    Derived(
        "held.json",
        _S,
        "read/heldread.py",
        (
            "the files a hand-edit question about lost entries waits on, with a hash of the save, of each line a"
            " stale copy drops and of each forgotten line it brings back; no text"
        ),
        False,
        "the next status or write that judges the hand edit",
    ),
    Derived(
        "index-behind.json",
        _S,
        "git/indexlag.py",
        "the paths whose git index entry a write left behind HEAD while git held index.lock; file names only",
        False,
        "nothing: the next write that gives up writes it; the next memrepo command catches up and deletes it",
    ),
    Derived(
        "salvaged.json",
        _S,
        "files/oldinode.py",
        "for each file salvage merged an old inode's text into, a hash of the merged bytes; no text",
        False,
        "the next salvage, or the next status or write that judges the file",
    ),
    Derived(
        "oldinodes/",
        _S,
        "files/oldlinks.py",
        (
            "a hard link to each file's inode memrepo renamed over in the last seconds (`<dev>-<ino>.old`) and the"
            " bytes it built on (`.base`): an editor's save into it outlives a killed writer"
        ),
        True,
        "the next write that replaces a file; each is removed when its watch ends",
        {_F: Fate.REMOVED, _C: Fate.REMOVED, _P: Fate.REMOVED, _D: Fate.REMOVED},
    ),
    Derived(
        "reads.json",
        _S,
        "read/readcount.py",
        "how many reads and sessions used memory; counts only",
        False,
        _MADE_WHEN_NEEDED,
    ),
    Derived(
        "vectors.lock",
        _S,
        "read/semantic_build.py",
        "the vectors' build lock (one build at a time)",
        False,
        _MADE_WHEN_NEEDED,
    ),
    Derived("reads.lock", _S, "read/readcount.py", "the read counter's lock", False, _MADE_WHEN_NEEDED),
    Derived(
        "recall.sock*",
        _S,
        "read/recalldoor.py",
        "a warm process's recall door (a unix socket, mode 0600), and `recall.sock.missed`, the inode of a door that"
        " missed an asker's budget (askers skip it 30 s); no text",
        False,
        "the MCP server, when it starts",
    ),
    Derived("sync.json", _S, "sync/remoteset.py", "the last sync's time and result; no text", False, _MADE_WHEN_NEEDED),
    Derived("sync-move.json", _S, "git/remote.py", "a move of main under way: two commit ids", False, "nothing"),
    Derived("compact.json", _S, "history/compact.py", "a compaction under way: pid, start, step", False, "nothing"),
    Derived(
        "compact-pack/",
        _S,
        "history/compact.py",
        "the new pack while compaction writes it: the current files only",
        True,
        "nothing: removed when compaction ends",
    ),
    Derived("compact-config/", _S, "history/compact.py", "the pack writer's settings", False, "nothing"),
    Derived(
        "hooks-notice-shown", _S, "git/checks.py", "that the no-hooks notice was shown once", False, _MADE_WHEN_NEEDED
    ),
    Derived(
        "secrets-allow.json", _S, "redaction/allow.py", "salted hashes of values a person allowed", False, "nothing"
    ),
    Derived(
        "secrets-allow.salt", _S, "redaction/allow.py", "the allow-list's salt (16 random bytes)", False, "nothing"
    ),
    Derived(
        "forgotten-lines.json",
        _S,
        "write/forgotlines.py",
        "keyed hashes (HMAC-SHA256) of the lines memrepo removed in the 30 days before a compaction (50,000 at most), with expiry times; no text",
        False,
        "nothing: each compaction writes it; dropped when every hash expired",
    ),
    Derived(
        "forgotten-lines.key",
        _S,
        "write/forgotlines.py",
        "the hashes' key (32 random bytes, 0600), apart from them",
        False,
        "the next compaction that records a removal",
    ),
    Derived(
        "watch-armed",
        _S,
        "repo/watch.py",
        "the polling watcher's canary: a time stamp, no text",
        False,
        _MADE_WHEN_NEEDED,
    ),
    Derived("imports/*.txt", _S, "importers/run.py", "digests of the items each import format wrote", False, "nothing"),
    Derived(
        "hook-offsets.json",
        _S,
        "cli/agent.py",
        "where each session's transcript was read up to",
        False,
        _MADE_WHEN_NEEDED,
    ),
    Derived(
        "hook-retry/",
        _S,
        "cli/hookretry.py",
        "empty files naming hook checkpoints a full disk kept from the buffer (event, session, transcript path)",
        False,
        _MADE_WHEN_NEEDED,
    ),
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
