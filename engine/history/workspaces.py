"""Retire dead workspaces: archive, restore and purge workspace files (docs/architecture.md §2).

A workspace whose project folder is gone keeps its file in ``workspaces/``
until someone archives it: :func:`archive` moves ``workspaces/<x>.md`` to
``archived/workspaces/<x>.md`` and drops its ``[[workspaces/<x>]]`` link from
MEMORY.md's index, in one commit. Recall and the recall index skip
``archived/``, and the context block only ever reads ``workspaces/``, so an
archived workspace reaches no agent; the app still shows the file.
:func:`restore` moves it back and relinks it (one commit); :func:`purge`
deletes it and compacts the history, so its text leaves every byte under
``.git`` (docs/architecture.md §5). The global files are never archived.

Each change is one :class:`~memrepo.engine.write.writer.Transaction`; finding the
files is the :class:`~memrepo.engine.read.workspaceindex.WorkspaceIndex`'s job.
"""

from __future__ import annotations

from collections.abc import Callable

from memrepo.engine.errors import MemrepoError, RefError, SyncError
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.layout import ARCHIVED, INDEX_HEADING, MEMORY_MD, link_of
from memrepo.engine.models import Action, CompactProgress, CompactResult, Origin, WorkspaceInfo, WriteResult
from memrepo.engine.read.workspaceindex import (
    AmbiguousWorkspaceError,
    Resolved,
    WorkspaceIndex,
    list_workspaces,
    scan,
    unknown_name_error,
)
from memrepo.engine.write.remember import trailers
from memrepo.engine.write.rewrites import drop_index_link
from memrepo.engine.write.writer import Transaction, Writer, retrying

__all__ = [
    "AmbiguousWorkspaceError",
    "Resolved",
    "archive",
    "list_workspaces",
    "purge",
    "restore",
    "scan",
    "unknown_name_error",
]

Compact = Callable[[Callable[[CompactProgress], None] | None, bool], CompactResult]
"""The store's compaction: ``compact(progress, replace_remote)``."""


def _relink(tx: Transaction, link: str, add: bool) -> None:
    """Stage MEMORY.md with the ``[[link]]`` index line added or removed (nothing when already so)."""
    index = tx.read(MEMORY_MD)
    if index is None:
        return
    if add:
        present = [
            ln
            for ln in index.lines
            if link in fmt.extract_links(ln.text) and fmt.is_link_line(ln.text.lstrip(" \t-*+"))
        ]
        if present:
            return
        index.append_entry(fmt.Entry("", "-", f"[[{link}]]"), after_section=INDEX_HEADING)
    elif not drop_index_link(index, link):
        return
    tx.write(MEMORY_MD, index.render())


def _prune_archived(writer: Writer, rel: str) -> None:
    """Remove folders under ``archived/`` left empty by moving or deleting ``rel``."""
    folder = (writer.root / rel).parent
    top = writer.root / ARCHIVED
    while folder == top or top in folder.parents:
        try:
            folder.rmdir()
        except OSError:
            return  # not empty (or gone): stop
        folder = folder.parent


def _move(
    writer: Writer,
    index: WorkspaceIndex,
    info: WorkspaceInfo,
    dest: str,
    add_link: bool,
    summary: str,
    origin: Origin,
    action: Action,
) -> WriteResult:
    src = info.file

    def change(tx: Transaction) -> str | None:
        tx.move(src, dest)
        _relink(tx, link_of(src.removeprefix(f"{ARCHIVED}/")), add_link)
        return tx.commit(summary, trailers(origin))

    with writer.transaction(action.value) as tx:
        commit = retrying(tx, change)
        _prune_archived(writer, src)
        index.drop(info.id)
    return WriteResult(action=action, path=dest, commit=commit)


def archive(
    writer: Writer, index: WorkspaceIndex, workspace: str, force: bool = False, origin: Origin = "cli"
) -> WriteResult:
    """Move a vanished workspace's file to ``archived/`` and unlink it from the index, in one commit.

    Args:
        writer: the store's writer.
        index: the store's workspace index.
        workspace: as for :meth:`WorkspaceIndex.info` (an active workspace).
        force: archive even though its project folder still exists.
        origin: the ``Origin:`` trailer.

    Returns:
        WriteResult: action ``archived``, ``path`` the archived file, the commit.

    Raises:
        RefError: no such active workspace file.
        MemrepoError: its folder still exists (without ``force``), or the archived path is taken.
        BlockedError, BusyError: as for writes.
    """
    info = index.info(workspace, archived=False)
    if info.exists and not force:
        raise MemrepoError(f"{info.path} still exists: archive only a workspace whose folder is gone, or pass --force")
    name = info.file.rsplit("/", 1)[-1][: -len(".md")]
    return _move(
        writer, index, info, f"{ARCHIVED}/{info.file}", False, f"Archive workspace {name}", origin, Action.ARCHIVED
    )


def restore(writer: Writer, index: WorkspaceIndex, workspace: str, origin: Origin = "cli") -> WriteResult:
    """Move an archived workspace's file back to ``workspaces/`` and relink it, in one commit.

    When writes made a new active file for the same workspace since it was
    archived (it was archived with ``--force`` while an agent still worked
    there), the archived entries are merged into that file instead
    (:func:`_merge_into`): appended, duplicates reinforced, one commit.

    Returns:
        WriteResult: action ``restored``, ``path`` the active file, the commit;
        after a merge ``reason`` says how many entries were added and how many
        were already there.

    Raises:
        RefError: no such archived workspace file.
        MemrepoError: an active file already has that name (for another workspace).
        LimitError: the merged file would pass its size limit (nothing changed).
        BlockedError, BusyError: as for writes.
    """
    info = index.info(workspace, archived=True)
    active = next((w for w in index.scan() if w.id == info.id), None)
    if active is not None:
        return _merge_into(writer, index, info, active, origin)
    dest = info.file.removeprefix(f"{ARCHIVED}/")
    name = dest.rsplit("/", 1)[-1][: -len(".md")]
    return _move(writer, index, info, dest, True, f"Restore workspace {name}", origin, Action.RESTORED)


def _merge_into(
    writer: Writer, index: WorkspaceIndex, info: WorkspaceInfo, active: WorkspaceInfo, origin: Origin
) -> WriteResult:
    """Merge archived ``info``'s entries into ``active`` (same workspace id) and delete the archived file.

    Entries are appended in order with their metadata; one whose normalized
    text the active file already holds is reinforced (left once, as the
    writer does). The workspace header entry is not copied. One commit.

    Raises:
        LimitError: the merged file would pass its size limit (nothing changed).
    """
    name = active.file.rsplit("/", 1)[-1][: -len(".md")]
    counts = [0, 0]

    def change(tx: Transaction) -> str | None:
        target = tx.read(active.file)
        source = tx.read(info.file)
        if target is None or source is None:
            raise RefError(f"{active.file if target is None else info.file} could not be read")
        have = {fmt.normalize_text(e.text) for _, e in target.entries()}
        added = reinforced = 0
        for _, entry in source.entries():
            if entry.meta.get("workspace"):
                continue  # the archived file's own header entry
            key = fmt.normalize_text(entry.text)
            if key in have:
                reinforced += 1
                continue
            have.add(key)
            target.append_entry(fmt.Entry("", entry.bullet or "-", entry.text, dict(entry.meta)))
            added += 1
        counts[:] = [added, reinforced]
        tx.write(active.file, target.render())
        _relink(tx, link_of(active.file), True)
        tx.delete(info.file)
        return tx.commit(f"Restore workspace {name}: merge {added} archived entries", trailers(origin))

    with writer.transaction("restore workspace") as tx:
        commit = retrying(tx, change)
        _prune_archived(writer, info.file)
        index.drop(info.id)
    reason = f"merged into the active file: {counts[0]} added, {counts[1]} already there"
    return WriteResult(action=Action.RESTORED, path=active.file, commit=commit, reason=reason)


def purge(
    writer: Writer,
    index: WorkspaceIndex,
    compact: Compact,
    workspace: str,
    origin: Origin = "cli",
    replace_remote: bool = False,
    progress: Callable[[CompactProgress], None] | None = None,
) -> WriteResult:
    """Delete a workspace's file (archived, or active) and compact, so no byte of it stays under ``.git``.

    The workspace's checkpoint buffer (``.git/memrepo/checkpoints/<ws id>.json``)
    is deleted and its scope tombstoned (the registry's purge fate, :meth:`Checkpointer.forget_scope`), so
    a later checkpoint cannot distil the purged conversation back.

    Args:
        writer: the store's writer.
        index: the store's workspace index.
        compact: the store's compaction, run last under the same lock.
        workspace: as for :meth:`WorkspaceIndex.info`; archived files are looked up first.
        origin: the ``Origin:`` trailer of the delete commit.
        replace_remote: with a sync remote set, a person confirmed its
            history is replaced (see :meth:`MemoryStore.compact`).
        progress: compaction progress.

    Returns:
        WriteResult: action ``purged``, ``path`` the deleted file, ``commit`` the compact commit.

    Raises:
        RefError: no such workspace file.
        SyncError: a sync remote is set and ``replace_remote`` is False
            (checked first: nothing is deleted).
        BlockedError, BusyError, GitError: as for writes and compaction.
    """
    from .compact import remote_refusal, remote_url

    try:
        info = index.info(workspace, archived=True)
    except RefError:
        info = index.info(workspace, archived=False)
    if not replace_remote:
        url = remote_url(writer.root)
        if url:
            raise SyncError(remote_refusal(url))
    name = info.file.rsplit("/", 1)[-1][: -len(".md")]

    def change(tx: Transaction) -> str | None:
        if not info.archived:
            _relink(tx, link_of(info.file), False)
        tx.delete(info.file)
        return tx.commit(f"Purge workspace {name}", trailers(origin))

    with writer.transaction("purge workspace") as tx:
        retrying(tx, change)
        _prune_archived(writer, info.file)
        index.drop(info.id)
        from memrepo.engine.state.registry import Event
        from memrepo.engine.state.scrub import Scope, walk

        walk(Event.PURGE, Scope(writer.root, workspace_id=info.id, state_dir=writer.state_dir))  # its buffers go
        commit = compact(progress, replace_remote).commit
    return WriteResult(action=Action.PURGED, path=info.file, commit=commit)
