"""The registry's files under ``.git/memrepo`` that hold entry text or quote it (docs/architecture.md §5).

First what is rebuilt from the work tree (forget and compaction reach it at once),
then what is kept until compaction (it may quote text a later forget removes).
:mod:`.registry` joins these rows with the others, in this order.
"""

from __future__ import annotations

from .derived import Derived, Event, Fate, Where

_F, _C, _P, _K, _D = Event.FORGET, Event.CLEAR, Event.PURGE, Event.COMPACT, Event.COMPACTED
_S = Where.STATE
_MADE_WHEN_NEEDED = "made again when first needed"

TEXT_FILES: tuple[Derived, ...] = (
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
)
"""The state folder's files that can hold entry text, in the order forget and compaction walk them."""
