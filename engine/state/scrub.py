"""Walk the derived-state registry after text left the memory (docs/architecture.md §5).

Forget, compaction and purge call :func:`walk` with their event. It goes
through :data:`.registry.REGISTRY` in order and runs the action each entry
names for that event: no caller knows a cache by name. An entry whose fate
is :attr:`~.registry.Fate.KEPT` or :attr:`~.registry.Fate.STALE` has no
action; a test checks that every other fate has one.
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memrepo.engine.format import entries as fmt
from memrepo.engine.format.layout import CHECKPOINTS_DIR, PENDING_DIR

from .registry import REGISTRY, Derived, Event, Fate

FORGOTTEN_MIN_CHARS = 8
"""Removed lines shorter than this (after folding) are not used to spot forgotten text in state files."""


@dataclass
class Scope:
    """What one walk works on. Each event fills the fields its actions read."""

    root: Path
    """The memory repo's work tree."""
    paths: list[str] | None = None
    """FORGET: the files the forget rewrote; None for every file."""
    index: Any = None
    """The recall index this process has open (a :class:`~memrepo.engine.read.recall.RecallIndex`), or None."""
    git: Any = None
    """COMPACT: the :class:`~memrepo.engine.git.compact.GitCompactor` that still reads the old objects."""
    commit: str | None = None
    """COMPACT: the commit whose files are kept."""
    gone_refs: set[str] = field(default_factory=set)
    """COMPACT: the refs compaction deleted (a dream's branch among them makes its record stale)."""
    stale_reason: str = ""
    """COMPACT: why a live dream record becomes stale."""
    workspace_id: str | None = None
    """PURGE: the purged workspace's id (its checkpoint scope)."""
    state_dir: Path | None = None
    """The engine's state folder; None for ``<root>/.git/memrepo``."""
    _forgotten: set[str] | None = None

    @property
    def state(self) -> Path:
        """The engine's state folder, ``.git/memrepo/``."""
        return self.state_dir if self.state_dir is not None else self.root / ".git" / "memrepo"

    def forgotten(self) -> set[str]:
        """The forgotten lines (:func:`forgotten_texts`), read from the old objects once per walk."""
        if self._forgotten is None:
            self._forgotten = forgotten_texts(self.git, self.commit or "")
        return self._forgotten


def _raw_lines(data: bytes) -> list[str]:
    """The lines of a blob or state file as written (none for a file that is not UTF-8)."""
    try:
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return []


def _folded(raw: str) -> str | None:
    """An entry line's text without metadata, or another line, folded; None when too short to count."""
    entry = fmt.parse_entry(raw)
    folded = fmt.normalize_text(entry.text if entry is not None else raw)
    return folded if len(folded) >= FORGOTTEN_MIN_CHARS else None


def forgotten_texts(git: Any, keep_commit: str) -> set[str]:
    """Lines in any old blob that are in no file of ``keep_commit``: the text being forgotten.

    Entry lines count by their text without metadata, folded
    (:func:`memrepo.engine.format.entries.normalize_text`), so a quote of an entry in a
    state file is found whatever its metadata said. Each distinct line is
    parsed once: a history of small edits repeats almost every line in many
    blobs (20,000 files and 2,000 commits: 3 million lines, parsed one by one
    for 53 s), and a line written exactly as a current one folds the same.

    Args:
        git: a :class:`~memrepo.engine.git.compact.GitCompactor` that still reads the old objects.
        keep_commit: the commit whose files are kept.
    """
    current_raw: set[str] = set()
    for data in git.tree_blobs(keep_commit):
        current_raw.update(_raw_lines(data))
    old_raw: set[str] = set()
    for data in git.iter_old_blobs():
        old_raw.update(_raw_lines(data))
    old_raw -= current_raw
    current = {f for f in map(_folded, current_raw) if f is not None}
    return {f for f in map(_folded, old_raw) if f is not None} - current


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)


def quotes_forgotten(data: bytes, forgotten: set[str]) -> bool:
    """Whether a state file's bytes quote any forgotten text (JSON is read as its string values)."""
    text = data.decode("utf-8", errors="replace")
    with contextlib.suppress(ValueError):
        text = "\n".join(_strings(json.loads(text)))
    haystack = fmt.normalize_text(text)
    return any(f in haystack for f in forgotten)


Action = Callable[[Scope], Counter[str]]


def _clear_context_blocks(scope: Scope) -> Counter[str]:
    from memrepo.engine.read import contextcache

    contextcache.clear(scope.state)  # waits for the renders under way, then removes the folder
    return Counter()


def _scrub_workspace_map(scope: Scope) -> Counter[str]:
    from memrepo.engine.read.workspacemap import scrub_workspace_map

    scrub_workspace_map(scope.root)
    return Counter()


def _scrub_recall_index(scope: Scope) -> Counter[str]:
    from memrepo.engine.read.recallfile import scrub_recall

    scrub_recall(scope.root, scope.index, scope.paths)
    return Counter()


def _scrub_vectors(scope: Scope) -> Counter[str]:
    """Vectors leave with their entries' text; after compaction the file is rewritten whole."""
    from memrepo.engine.read.semantic_store import scrub_vectors

    scrub_vectors(scope.root, whole=scope.paths is None)
    return Counter({"vectors.sqlite": 1})


def _forget_clean_memo(scope: Scope) -> Counter[str]:
    from memrepo.engine.redaction.memo import forget_memo

    forget_memo(scope.state)  # digests of texts since gone, with the history they were in
    return Counter()


def _scrub_dream_records(scope: Scope) -> Counter[str]:
    from memrepo.engine.dreams.files import scrub_all

    stale, scrubbed, others = scrub_all(scope.state, scope.gone_refs, scope.stale_reason)
    for path in others:
        path.unlink(missing_ok=True)
    return Counter(stale_dreams=stale, scrubbed_dreams=scrubbed, removed_state_files=len(others))


def _drop_pending_quotes(scope: Scope) -> Counter[str]:
    """Drop pending writes whose text was in the old history and is in no current file.

    A pending write is a memory not yet written: it is kept unless it was
    forgotten, or cleared, after being queued. The old objects are read only
    when such files exist.
    """
    from memrepo.engine.models import Candidate

    folder = scope.state / PENDING_DIR
    pending = sorted(folder.glob("*")) if folder.is_dir() else []
    dropped = 0
    for path in pending:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if path.suffix == ".json":
            try:
                cand = Candidate.model_validate_json(data)
                data = "\n".join(v for v in (cand.text, cand.subject, cand.source, cand.origin_text) if v).encode()
            except ValueError:
                pass
        if quotes_forgotten(data, scope.forgotten()):
            path.unlink(missing_ok=True)
            dropped += 1
    return Counter(dropped_pending=dropped)


def _orphan_buffers(scope: Scope, buffers: list[Path]) -> set[Path]:
    """Checkpoint buffers of workspace scopes whose workspace file no longer exists.

    A ``ws-`` scope counts when no active or archived workspace file names it
    but an old blob does: its file was deleted by hand or by a purge (a
    workspace not yet written to keeps its buffer, and so does a purged
    workspace's new conversation once the old history is gone).
    """
    from memrepo.engine.read.workspaceindex import list_workspaces

    folder = scope.state / CHECKPOINTS_DIR
    scoped = {p: p.stem for p in buffers if p.parent == folder and p.suffix == ".json" and p.stem.startswith("ws-")}
    if not scoped:
        return set()
    live = {info.id for info in list_workspaces(scope.root)}
    out: set[Path] = set()
    unknown = {p: s.encode() for p, s in scoped.items() if s not in live}
    if unknown:
        for blob in scope.git.iter_old_blobs():
            for p, needle in list(unknown.items()):
                if needle in blob:
                    out.add(p)
                    del unknown[p]
            if not unknown:
                break
    return out


def _drop_buffer_quotes(scope: Scope) -> Counter[str]:
    """Delete checkpoint buffers that quote forgotten text, or whose workspace file is gone.

    Buffers are read generically: any file under ``checkpoints/`` counts.
    """
    folder = scope.state / CHECKPOINTS_DIR
    buffers = [p for p in sorted(folder.rglob("*")) if p.is_file()] if folder.is_dir() else []
    removed = 0
    orphans = _orphan_buffers(scope, buffers)
    for path in buffers:
        if path not in orphans:
            try:
                data = path.read_bytes()
            except OSError:
                continue
            if not quotes_forgotten(data, scope.forgotten()):
                continue
        path.unlink(missing_ok=True)
        removed += 1
    return Counter(removed_state_files=removed)


def _forget_purged_scope(scope: Scope) -> Counter[str]:
    from memrepo.engine.checkpoints.checkpoint import Checkpointer

    if scope.workspace_id is None:
        return Counter()
    Checkpointer(scope.state).forget_scope(scope.workspace_id)  # its buffered conversation goes too
    return Counter()


def _drop_old_links(scope: Scope) -> Counter[str]:
    """Remove every linked old inode (:mod:`memrepo.engine.files.oldlinks`): each holds a file as it was before
    a write, forgotten text included. A process still watching one sees its link gone and stops (it never merges
    that inode again). An ``oldinodes`` that is a symlink or a file is removed itself, never followed (breaker19
    B19-5: ``rmtree`` refused the symlink silently and the forgotten text stayed where it led); counted as
    ``removed_state_files``.

    A link whose inode another process still holds open for writing stays, with its base: an editor that opened
    the file before the forget's own rename (vim ``backupcopy=yes``, nano, a script) saves into that inode, and
    with the link gone no process merged the save, which was lost with no word (breaker21 B21-10; the same save
    after a ``remember`` was merged). The text it holds is what that editor holds; salvage merges its save against
    the base (the forgotten line stays out, the user's new lines go in) and then removes the link."""
    import os
    import shutil
    import stat

    from memrepo.engine.files import oldlinks
    from memrepo.engine.files.oldinode import held_for_writing

    folder = scope.state / oldlinks.LINKS_DIR
    try:
        mode = os.lstat(folder).st_mode
    except OSError:
        return Counter()
    if not stat.S_ISDIR(mode):
        folder.unlink()  # the symlink itself (what it leads to is not memrepo's); an error is reported
        return Counter(removed_state_files=1)
    held = set()
    for name in os.listdir(folder):
        key = name.removesuffix(".old")
        if key == name or not oldlinks.ours(folder, key):
            continue
        fd = oldlinks.open_link(scope.state, key)
        if fd is None:
            continue
        try:
            if held_for_writing(fd):
                held.add(key)
        finally:
            os.close(fd)
    if not held:
        shutil.rmtree(folder)  # an error is reported rather than a success with the text left
        return Counter()
    for name in os.listdir(folder):
        if name not in {f"{key}.{end}" for key in held for end in ("old", "base")}:
            path = folder / name
            if stat.S_ISDIR(os.lstat(path).st_mode):
                shutil.rmtree(path)
            else:
                path.unlink()
    return Counter()


ACTIONS: dict[tuple[str, Event], Action] = {
    ("oldinodes/", Event.FORGET): _drop_old_links,
    ("oldinodes/", Event.CLEAR): _drop_old_links,
    ("oldinodes/", Event.PURGE): _drop_old_links,
    ("oldinodes/", Event.COMPACTED): _drop_old_links,
    ("context-cache/", Event.FORGET): _clear_context_blocks,
    ("context-cache/", Event.COMPACTED): _clear_context_blocks,
    ("workspaces.sqlite", Event.COMPACTED): _scrub_workspace_map,
    ("recall.sqlite", Event.FORGET): _scrub_recall_index,
    ("recall.sqlite", Event.COMPACTED): _scrub_recall_index,
    ("vectors.sqlite", Event.FORGET): _scrub_vectors,
    ("vectors.sqlite", Event.COMPACTED): _scrub_vectors,
    ("redaction-clean.bin", Event.COMPACTED): _forget_clean_memo,
    ("clean memo", Event.COMPACTED): _forget_clean_memo,
    ("dreams/*", Event.COMPACT): _scrub_dream_records,
    ("pending/*.json", Event.COMPACT): _drop_pending_quotes,
    ("checkpoints/*.json", Event.COMPACT): _drop_buffer_quotes,
    ("checkpoints/*.json", Event.PURGE): _forget_purged_scope,
}
"""The action of each (entry, event) whose fate is neither kept nor stale."""

ACTING = frozenset({Fate.SCRUBBED, Fate.REMOVED, Fate.QUOTES_DROPPED})
"""Fates that need an action when their event happens."""


def walk(event: Event, scope: Scope) -> Counter[str]:
    """Run, in registry order, every action ``event`` calls for.

    Args:
        event: what just took text out of the memory.
        scope: the repo and what the event's actions read.

    Returns:
        Counter: what the actions did (``stale_dreams``, ``scrubbed_dreams``,
        ``dropped_pending``, ``removed_state_files``); empty for most events.
    """
    done: Counter[str] = Counter()
    for derived in REGISTRY:
        if derived.fate(event) in ACTING:
            done += ACTIONS[(derived.name, event)](scope)
    return done


def actions_missing() -> list[tuple[Derived, Event]]:
    """Registry entries whose fate for an event needs an action that :data:`ACTIONS` lacks (for a test)."""
    return [(d, e) for d in REGISTRY for e in Event if d.fate(e) in ACTING and (d.name, e) not in ACTIONS]
