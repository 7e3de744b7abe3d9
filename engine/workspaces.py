"""Retire dead workspaces: list, archive, restore and purge workspace files (issue 8, DSH seed).

A workspace whose project folder is gone keeps its file in ``workspaces/``
until someone archives it: :func:`archive` moves ``workspaces/<x>.md`` to
``archived/workspaces/<x>.md`` and drops its ``[[workspaces/<x>]]`` link from
MEMORY.md's index, in one commit. Recall and the recall index skip
``archived/``, and the context block only ever reads ``workspaces/``, so an
archived workspace reaches no agent; the app still shows the file.
:func:`restore` moves it back and relinks it (one commit); :func:`purge`
deletes it and compacts the history, so its text leaves every byte under
``.git`` (DESIGN.md §5). The global files are never archived.

The functions take a :class:`~engine.store.MemoryStore` and use its writer
helpers under its write lock; :class:`MemoryStore` exposes them as methods.
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import entryformat as fmt
from .errors import FormatError, MemrepoError, RefError
from .gitstore import format_message
from .models import Action, CompactProgress, Origin, WorkspaceInfo, WriteResult
from .paths import normalize_workspace

if TYPE_CHECKING:
    from collections.abc import Callable

    from .store import MemoryStore

WORKSPACES = "workspaces"
ARCHIVED = "archived"
"""Archived files keep their path under this folder: ``archived/workspaces/<x>.md``."""
MEMORY_MD = "MEMORY.md"
INDEX_HEADING = "## Index"


def scan(store: MemoryStore, folder: str, archived: bool = False) -> list[WorkspaceInfo]:
    """The workspace files directly in ``folder`` with the workspace their first entries name.

    A symlinked folder or file is never followed (it could lead out of the repo).

    Args:
        store: the store.
        folder: repo-relative folder (``workspaces`` or ``archived/workspaces``).
        archived: what to set ``WorkspaceInfo.archived`` to.

    Returns:
        list[WorkspaceInfo]: sorted by file; files naming no workspace are left out.
    """
    from .store import clean_text

    out: list[WorkspaceInfo] = []
    base = store.root / folder
    if not base.is_dir() or base.is_symlink():
        return out
    for full in sorted(base.glob("*.md")):
        if full.is_symlink():
            continue
        try:
            with full.open("rb") as fh:
                head = fh.read(2048)
            parsed = fmt.parse(head.rsplit(b"\n", 1)[0] if len(head) == 2048 else head, full.name)
        except (OSError, FormatError):
            continue
        for _, entry in parsed.entries()[:3]:
            ws_id = entry.meta.get("workspace")
            if ws_id:
                path = entry.meta.get("path") or None
                out.append(WorkspaceInfo(
                    id=ws_id, file=f"{folder}/{full.name}", path=path, label=clean_text(entry.text),
                    exists=os.path.isdir(path) if path else None, archived=archived,
                ))
                break
    return out


def list_workspaces(store: MemoryStore) -> list[WorkspaceInfo]:
    """Every workspace file, active ones first, then archived ones, each sorted by file.

    Returns:
        list[WorkspaceInfo]: with ``exists`` (is the project folder still
        there; None when the file names no path) and ``archived``.
    """
    return scan(store, WORKSPACES) + scan(store, f"{ARCHIVED}/{WORKSPACES}", True)


@dataclass(frozen=True, slots=True)
class Resolved:
    """A workspace as :func:`resolve_workspace` read it.

    Attributes:
        id: the workspace id (``ws-`` and 8 hex characters).
        file: its repo-relative file, or None when no file names it yet.
        path: the absolute project folder when it was given as a path
            (or the ``path:`` of the file found), else None.
        slug: the file name (without ``.md``) a new file for it would start from.
        label: its name for a new file's first entry (``Workspace <label>``).
        given_as: ``id``, ``path`` or ``name``: how the value was read.
    """

    id: str
    file: str | None
    path: str | None
    slug: str
    label: str
    given_as: str


class AmbiguousWorkspaceError(RefError):
    """A workspace name matches more than one workspace file; the message lists them."""


def _name_key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


def _matches_name(info: WorkspaceInfo, key: str) -> bool:
    """Whether ``info``'s file name or its first entry's name is ``key`` (case-folded)."""
    stem = info.file.rsplit("/", 1)[-1].removesuffix(".md")
    label = _name_key(info.label)
    return key in (stem.casefold(), label, label.removeprefix("workspace "))


def resolve_workspace(store: MemoryStore, workspace: str, archived: bool = False) -> Resolved:
    """Read a workspace given to ``remember``, ``context``, ``recall``, ``clear`` or ``workspaces``.

    In this order: a ``ws-`` id; a folder path (absolute, ``~``, ``.``-relative
    or holding a separator; it need not exist); a workspace file
    (``workspaces/x.md`` or ``x.md``); otherwise a name. A name is first read
    as the workspace it keys (``remember --workspace billing`` made one),
    then matched, case-insensitively, against each workspace file's name and
    the name in its first entry (``Workspace <name>``). A plain name never
    depends on the current folder.

    Args:
        store: the store.
        workspace: the value as the user or agent gave it.
        archived: look among the archived files (``archived/workspaces/``)
            instead of the active ones.

    Returns:
        Resolved: with ``file`` None when no file matches (a new folder, an
        unknown id, or a name no workspace has yet).

    Raises:
        RefError: the value is empty.
        AmbiguousWorkspaceError: a name matches two or more workspace files
            (the message lists them and says to pass the folder path or id).
    """
    from .store import clean_text

    value = workspace.encode("utf-8", "replace").decode("utf-8").strip()  # lone surrogates
    if not value:
        raise RefError("give a workspace: its project folder path, ws- id or name (see `memrepo workspaces`)")
    ws_id, slug, abs_path = normalize_workspace(value)
    given_as = "id" if ws_id == value.lower() else "path" if abs_path else "name"
    label = clean_text(os.path.basename(abs_path) if abs_path else value) or ws_id
    infos: list[WorkspaceInfo] | None = None
    if archived:
        infos = scan(store, f"{ARCHIVED}/{WORKSPACES}", True)
        found = next((w.file for w in infos if w.id == ws_id), None)
    else:
        found = store._find_workspace_file(ws_id)  # cached: the fast path for agents' folders
    if found is not None:  # a name's own workspace comes first (DESIGN.md §2: names key workspaces)
        return Resolved(ws_id, found, abs_path, slug, label, given_as)
    if given_as != "name" and not value.endswith(".md"):
        return Resolved(ws_id, None, abs_path, slug, label, given_as)
    if infos is None:
        infos = scan(store, WORKSPACES)
    if value.endswith(".md"):  # a file, as `memrepo workspaces` lists it
        stem = value.rsplit("/", 1)[-1]
        file = next((w for w in infos if w.file == value or w.file.rsplit("/", 1)[-1] == stem), None)
        if file is not None:
            return Resolved(file.id, file.file, file.path, slug, label, "name")
        if given_as != "name":
            return Resolved(ws_id, None, abs_path, slug, label, given_as)
    key = _name_key(value)
    matches = [w for w in infos if _matches_name(w, key)]
    if len({w.id for w in matches}) > 1:
        listed = ", ".join(f"{w.file} ({w.id}, {w.path or 'no path'})" for w in matches)
        raise AmbiguousWorkspaceError(
            f"workspace name {value!r} matches {len(matches)} workspaces: {listed}; "
            "pass the project folder path, the ws- id or the file name instead"
        )
    if matches:
        return Resolved(matches[0].id, matches[0].file, matches[0].path, slug, label, "name")
    if not archived:
        # An archived workspace keeps its id: a write by its name starts a file
        # with that id, which `workspaces restore` merges back.
        gone = [w for w in scan(store, f"{ARCHIVED}/{WORKSPACES}", True) if w.id == ws_id or _matches_name(w, key)]
        if len({w.id for w in gone}) == 1:
            return Resolved(gone[0].id, None, gone[0].path, slug, label, given_as)
    return Resolved(ws_id, None, None, slug, label, given_as)


def unknown_name_error(workspace: str) -> RefError:
    """The error for a workspace name that names no workspace file (context, recall, clear).

    Args:
        workspace: the name as given.

    Returns:
        RefError: one line saying to pass the project folder path or a name from ``memrepo workspaces``.
    """
    return RefError(
        f"no workspace is named {workspace.strip()!r}: pass the project folder path "
        "(`.` for the current one) or a ws- id or name from `memrepo workspaces`"
    )


def resolve(store: MemoryStore, workspace: str, archived: bool) -> WorkspaceInfo:
    """Find the workspace file meant by ``workspace`` among active or archived files.

    Args:
        store: the store.
        workspace: as for :func:`resolve_workspace`: a ``ws-`` id, a project
            folder path, a file (``workspaces/x.md``, ``x.md``) or a name.
        archived: look among archived files (True) or active ones (False).

    Returns:
        WorkspaceInfo: the match.

    Raises:
        RefError: no such workspace file (the message says where it looked).
        AmbiguousWorkspaceError: a name matches two or more files.
    """
    found = resolve_workspace(store, workspace, archived)
    if found.file is not None:
        infos = scan(store, f"{ARCHIVED}/{WORKSPACES}" if archived else WORKSPACES, archived)
        info = next((w for w in infos if w.file == found.file), None)
        if info is not None:
            return info
    where = "archived/workspaces/" if archived else "workspaces/"
    raise RefError(f"no workspace file in {where} matches {workspace!r} (see `memrepo workspaces`)")


def _relink(store: MemoryStore, link: str, add: bool, read: dict[str, bytes | None]) -> bytes | None:
    """MEMORY.md's bytes with the ``[[link]]`` index line added or removed, or None when unchanged."""
    index = store._read_for_write(MEMORY_MD, read)
    if index is None:
        return None
    present = [i + 1 for i, ln in enumerate(index.lines)
               if link in fmt.extract_links(ln.text) and fmt.is_link_line(ln.text.lstrip(" \t-*+"))]
    if add:
        if present:
            return None
        index.append_entry(fmt.Entry("", "-", f"[[{link}]]"), after_section=INDEX_HEADING)
    else:
        if not present:
            return None
        for number in reversed(present):
            index.remove_line(number)
    return index.render()


def _prune_archived(store: MemoryStore, rel: str) -> None:
    """Remove folders under ``archived/`` left empty by moving or deleting ``rel``."""
    folder = (store.root / rel).parent
    top = store.root / ARCHIVED
    while folder == top or top in folder.parents:
        try:
            folder.rmdir()
        except OSError:
            return  # not empty (or gone): stop
        folder = folder.parent


def _move(store: MemoryStore, info: WorkspaceInfo, dest: str, add_link: bool, summary: str,
          origin: Origin, action: Action) -> WriteResult:
    src = info.file
    with store.lock.hold(action.value):
        store._commit_hand_edits_locked(None)
        if (store.root / dest).exists():
            raise MemrepoError(f"{dest} already exists: move or delete it first, then retry")
        read: dict[str, bytes | None] = {}
        index = _relink(store, src.removeprefix(f"{ARCHIVED}/")[: -len(".md")], add_link, read)
        (store.root / dest).parent.mkdir(parents=True, exist_ok=True)
        os.replace(store.root / src, store.root / dest)
        _prune_archived(store, src)
        paths = [src, dest]
        if index is not None:
            store._write_files({MEMORY_MD: index}, read)
            paths.append(MEMORY_MD)
        store._workspaces.pop(info.id, None)
        store.note_changed(paths)
        commit = store.git.commit_paths(sorted(paths), format_message(summary, {"Origin": origin, "Task": None}))
    return WriteResult(action=action, path=dest, commit=commit)


def archive(store: MemoryStore, workspace: str, force: bool = False, origin: Origin = "cli") -> WriteResult:
    """Move a vanished workspace's file to ``archived/`` and unlink it from the index, in one commit.

    Args:
        store: the store.
        workspace: as for :func:`resolve` (an active workspace).
        force: archive even though its project folder still exists.
        origin: the ``Origin:`` trailer.

    Returns:
        WriteResult: action ``archived``, ``path`` the archived file, the commit.

    Raises:
        RefError: no such active workspace file.
        MemrepoError: its folder still exists (without ``force``), or the archived path is taken.
        BlockedError, BusyError: as for writes.
    """
    info = resolve(store, workspace, archived=False)
    if info.exists and not force:
        raise MemrepoError(
            f"{info.path} still exists: archive only a workspace whose folder is gone, or pass --force"
        )
    name = info.file.rsplit("/", 1)[-1][: -len(".md")]
    return _move(store, info, f"{ARCHIVED}/{info.file}", False, f"Archive workspace {name}", origin,
                 Action.ARCHIVED)


def restore(store: MemoryStore, workspace: str, origin: Origin = "cli") -> WriteResult:
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
    info = resolve(store, workspace, archived=True)
    active = next((w for w in list_workspaces(store) if not w.archived and w.id == info.id), None)
    if active is not None:
        return _merge_into(store, info, active, origin)
    dest = info.file.removeprefix(f"{ARCHIVED}/")
    name = dest.rsplit("/", 1)[-1][: -len(".md")]
    return _move(store, info, dest, True, f"Restore workspace {name}", origin, Action.RESTORED)


def _merge_into(store: MemoryStore, info: WorkspaceInfo, active: WorkspaceInfo, origin: Origin) -> WriteResult:
    """Merge archived ``info``'s entries into ``active`` (same workspace id) and delete the archived file.

    Entries are appended in order with their metadata; one whose normalized
    text the active file already holds is reinforced (left once, as the
    writer does). The workspace header entry is not copied. One commit.

    Raises:
        LimitError: the merged file would pass its size limit (nothing changed).
    """
    from .limits import check_file_size

    name = active.file.rsplit("/", 1)[-1][: -len(".md")]
    with store.lock.hold("restore workspace"):
        store._commit_hand_edits_locked(None)
        read: dict[str, bytes | None] = {}
        target = store._read_for_write(active.file, read)
        source = store._read_for_write(info.file, read)
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
        data = target.render()
        check_file_size(active.file, len(data))
        writes = {active.file: data}
        index = _relink(store, active.file[: -len(".md")], True, read)
        if index is not None:
            writes[MEMORY_MD] = index
        store._write_files(writes, read)
        (store.root / info.file).unlink()
        _prune_archived(store, info.file)
        paths = sorted({info.file, *writes})
        store._workspaces.pop(info.id, None)
        store.note_changed(paths)
        summary = f"Restore workspace {name}: merge {added} archived entries"
        commit = store.git.commit_paths(paths, format_message(summary, {"Origin": origin, "Task": None}))
    reason = f"merged into the active file: {added} added, {reinforced} already there"
    return WriteResult(action=Action.RESTORED, path=active.file, commit=commit, reason=reason)


def purge(
    store: MemoryStore,
    workspace: str,
    origin: Origin = "cli",
    replace_remote: bool = False,
    progress: Callable[[CompactProgress], None] | None = None,
) -> WriteResult:
    """Delete a workspace's file (archived, or active) and compact, so no byte of it stays under ``.git``.

    The workspace's checkpoint buffer (``.git/memrepo/checkpoints/<ws id>.json``)
    is deleted and its scope tombstoned (:meth:`Checkpointer.forget_scope`), so
    a later checkpoint cannot distil the purged conversation back.

    Args:
        store: the store.
        workspace: as for :func:`resolve`; archived files are looked up first.
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
    try:
        info = resolve(store, workspace, archived=True)
    except RefError:
        info = resolve(store, workspace, archived=False)
    if not replace_remote:
        from .compact import remote_refusal
        from .errors import SyncError
        from .sync import remote_url

        url = remote_url(store.root)
        if url:
            raise SyncError(remote_refusal(url))
    name = info.file.rsplit("/", 1)[-1][: -len(".md")]
    with store.lock.hold("purge workspace"):
        store._commit_hand_edits_locked(None)
        read: dict[str, bytes | None] = {}
        index = None if info.archived else _relink(store, info.file[: -len(".md")], False, read)
        (store.root / info.file).unlink()
        _prune_archived(store, info.file)
        paths = [info.file]
        if index is not None:
            store._write_files({MEMORY_MD: index}, read)
            paths.append(MEMORY_MD)
        store._workspaces.pop(info.id, None)
        store.note_changed(paths)
        store.git.commit_paths(paths, format_message(f"Purge workspace {name}", {"Origin": origin, "Task": None}))
        from .checkpoint import Checkpointer

        Checkpointer(store.state_dir).forget_scope(info.id)  # its buffered conversation goes too
        commit = store.compact(progress, replace_remote=replace_remote).commit
    return WriteResult(action=Action.PURGED, path=info.file, commit=commit)
