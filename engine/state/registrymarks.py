"""The registry's locks, markers, counters and journals under ``.git/memrepo`` (docs/architecture.md §5).

None holds entry text but ``oldinodes/``, which forget, clear, purge and compaction remove.

:mod:`.registry` walks these rows after :data:`.registryfiles.TEXT_FILES`.
"""

from __future__ import annotations

from .derived import Derived, Event, Fate, Where

_F, _C, _P, _D = Event.FORGET, Event.CLEAR, Event.PURGE, Event.COMPACTED
_S = Where.STATE
_MADE_WHEN_NEEDED = "made again when first needed"

MARKS: tuple[Derived, ...] = (
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
)
"""The state folder's locks, markers, counters and journals, in walk order."""
