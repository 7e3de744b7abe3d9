"""Workspace resolution: which file holds a workspace, read from the files' first entries.

A workspace file names its workspace in its first entries (``workspace:
ws-<hash>``, docs/architecture.md §2). :class:`WorkspaceIndex` keeps the map
from workspace id to file, checked against each file's mtime and size and
rebuilt on a miss, so renamed and hand-made files are found; its
:meth:`~WorkspaceIndex.resolve` reads a workspace as the user or an agent gave
it (an id, a folder path, a file or a name). Every writer and reader that
needs a workspace's file asks this one index.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from memrepo.engine.errors import FormatError, RefError
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.format.entrytext import clean_text
from memrepo.engine.format.layout import ARCHIVED_WORKSPACES, WORKSPACES
from memrepo.engine.format.paths import normalize_workspace

if TYPE_CHECKING:
    from memrepo.engine.models import WorkspaceInfo


def workspace_id_of(path: Path) -> str | None:
    """The ``workspace:`` id named in the first entries of a workspace file, or None."""
    try:
        head = read_work_file(path, 2048)  # never blocks on a FIFO
    except OSError:
        return None
    return workspace_id_in(head, path.name)


def workspace_id_in(data: bytes, name: str) -> str | None:
    """The ``workspace:`` id named in the first entries of ``data`` (a workspace file's bytes, or its first
    2,048 of them; ``name``: its file name), or None."""
    head = data[:2048]
    from memrepo.engine.format import entries as fmt  # here: a look-up through the map parses no file

    try:
        parsed = fmt.parse(head.rsplit(b"\n", 1)[0] if len(head) == 2048 else head, name)
    except FormatError:
        return None
    for _, entry in parsed.entries()[:3]:
        if entry.meta.get("workspace"):
            return entry.meta["workspace"]
    return None


class Row(NamedTuple):
    """One workspace file as :func:`scan_rows` found it (the fields of :class:`~.models.WorkspaceInfo`)."""

    id: str
    file: str
    path: str | None
    label: str
    archived: bool = False

    @property
    def exists(self) -> bool | None:
        """Whether the project folder exists now (None without a ``path:``); a stat, so only asked when shown."""
        return os.path.isdir(self.path) if self.path else None


def scan_rows(root: Path, folder: str, archived: bool = False, refresh: bool = True) -> list[Row]:
    """:func:`scan` as plain rows: the resolver matches names on these without building models.

    Args:
        root: the work tree.
        folder: repo-relative folder (``workspaces`` or ``archived/workspaces``).
        archived: the rows are archived files.
        refresh: check the active files' map against the files first (False: the caller
            just did, in this same look-up).
    """
    out: list[Row] = []
    if folder == WORKSPACES and not archived:  # the active ones: from the map kept beside the recall index
        from .workspacemap import workspace_map

        for file, known_id, folder_path, text in workspace_map(root).entries(refresh):
            out.append(Row(known_id, file, folder_path, clean_text(text)))
        return out
    base = root / folder
    if not base.is_dir() or base.is_symlink():
        return out
    for full in sorted(base.glob("*.md")):
        if full.is_symlink():
            continue
        try:
            head = read_work_file(full, 2048)  # never blocks on a FIFO
            from memrepo.engine.format import entries as fmt

            parsed = fmt.parse(head.rsplit(b"\n", 1)[0] if len(head) == 2048 else head, full.name)
        except (OSError, FormatError):
            continue
        for _, entry in parsed.entries()[:3]:
            ws_id = entry.meta.get("workspace")
            if ws_id:
                path = entry.meta.get("path") or None
                out.append(Row(ws_id, f"{folder}/{full.name}", path, clean_text(entry.text), archived))
                break
    return out


def scan(root: Path, folder: str, archived: bool = False) -> list[WorkspaceInfo]:
    """The workspace files directly in ``folder`` with the workspace their first entries name.

    A symlinked folder or file is never followed (it could lead out of the repo).

    Args:
        root: the work tree.
        folder: repo-relative folder (``workspaces`` or ``archived/workspaces``).
        archived: what to set ``WorkspaceInfo.archived`` to.

    Returns:
        list[WorkspaceInfo]: sorted by file; files naming no workspace are left out.
    """
    from memrepo.engine.models import WorkspaceInfo  # here, not at import: the resolver matches on plain rows

    return [
        WorkspaceInfo(id=r.id, file=r.file, path=r.path, label=r.label, exists=r.exists, archived=r.archived)
        for r in scan_rows(root, folder, archived)
    ]


def list_workspaces(root: Path) -> list[WorkspaceInfo]:
    """Every workspace file, active ones first, then archived ones, each sorted by file.

    Returns:
        list[WorkspaceInfo]: with ``exists`` (is the project folder still
        there; None when the file names no path) and ``archived``.
    """
    return scan(root, WORKSPACES) + scan(root, ARCHIVED_WORKSPACES, True)


class Resolved(NamedTuple):
    """A workspace as :meth:`WorkspaceIndex.resolve` read it.

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


def _name_key(text: str) -> str:
    from .workspacemap import name_key

    return name_key(text)


def _matches_name(info: Row, key: str) -> bool:
    """Whether ``info``'s file name or its first entry's name is ``key`` (case-folded)."""
    stem = info.file.rsplit("/", 1)[-1].removesuffix(".md")
    label = _name_key(info.label)
    return key in (stem.casefold(), label, label.removeprefix("workspace "))


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


class WorkspaceIndex:
    """The map from workspace id to its file in ``workspaces/``, for one work tree (one thread).

    Args:
        root: the work tree.
        quick: a one-shot look-up that trusts the map while the ``workspaces/``
            folder's mtime has not moved (the prompt hook; docs/architecture.md §4).
    """

    def __init__(self, root: Path, quick: bool = False) -> None:
        self.root = root
        self.quick = quick
        self._files: dict[str, str] = {}
        self._stamps: dict[str, tuple[tuple[int, int], str | None]] = {}
        self._map_checked = False
        """The active files' map was checked against the files during the look-up under way."""
        self._missed = False
        """A look-up missed the cache before: the next miss loads every id (a long-lived process)."""

    def _id_at(self, rel: str) -> str | None:
        """:func:`workspace_id_of` for ``rel``, remembered until the file's mtime or size moves."""
        full = self.root / rel
        stamp = _stamp(full)
        if stamp is None:
            return None
        known = self._stamps.get(rel)
        if known is not None and known[0] == stamp:
            return known[1]
        found = workspace_id_of(full)
        self._stamps[rel] = (stamp, found)
        return found

    def find_file(self, ws_id: str) -> str | None:
        """The active file of workspace ``ws_id``, or None.

        The map is checked against the file on every hit (its mtime and size,
        then its first entries if they moved) and against every file on a
        miss; the first miss reads only this id's row, a later one every id.
        """
        cached = self._files.get(ws_id)
        if cached is not None and self._id_at(cached) == ws_id:
            return cached
        from .workspacemap import workspace_map

        self._map_checked = True
        if not self._missed:  # a one-shot look-up (a new process): this id's row alone
            self._missed = True
            found = workspace_map(self.root).file_of(ws_id, quick=self.quick)
            if found is not None:
                self._files[ws_id] = found
            return found
        self._files = workspace_map(self.root).ids()  # files re-read only when their stamp moved
        return self._files.get(ws_id)

    def learn(self, ws_id: str, rel: str) -> None:
        """Record that ``rel`` is now the file of ``ws_id`` (a writer just made it)."""
        self._files[ws_id] = rel

    def drop(self, ws_id: str) -> None:
        """Forget the file of ``ws_id`` (a writer moved or deleted it)."""
        self._files.pop(ws_id, None)

    def scan(self, archived: bool = False) -> list[WorkspaceInfo]:
        """The active (or archived) workspace files: :func:`scan` of this work tree."""
        return scan(self.root, ARCHIVED_WORKSPACES if archived else WORKSPACES, archived)

    def _rows(self, archived: bool = False) -> list[Row]:
        # The map was checked against every file by find_file in this same look-up: once is enough.
        refresh = archived or not self._map_checked
        return scan_rows(self.root, ARCHIVED_WORKSPACES if archived else WORKSPACES, archived, refresh)

    def resolve(self, workspace: str, archived: bool = False) -> Resolved:
        """Read a workspace given to ``remember``, ``context``, ``recall``, ``clear`` or ``workspaces``.

        In this order: a ``ws-`` id; a folder path (absolute, ``~``, ``.``-relative
        or holding a separator; it need not exist); a workspace file
        (``workspaces/x.md`` or ``x.md``); otherwise a name. A name is first read
        as the workspace it keys (``remember --workspace billing`` made one),
        then matched, case-insensitively, against each workspace file's name and
        the name in its first entry (``Workspace <name>``). A plain name never
        depends on the current folder.

        Args:
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
        value = workspace.encode("utf-8", "replace").decode("utf-8").strip()  # lone surrogates
        if not value:
            raise RefError("give a workspace: its project folder path, ws- id or name (see `memrepo workspaces`)")
        ws_id, slug, abs_path = normalize_workspace(value)
        given_as = "id" if ws_id == value.lower() else "path" if abs_path else "name"
        label = clean_text(os.path.basename(abs_path) if abs_path else value) or ws_id
        infos: list[Row] | None = None
        self._map_checked = False
        if archived:
            infos = self._rows(archived=True)
            found = next((w.file for w in infos if w.id == ws_id), None)
        else:
            found = self.find_file(ws_id)  # cached: the fast path for agents' folders
        if found is not None:  # a name's own workspace comes first (docs/architecture.md §2: names key workspaces)
            return Resolved(ws_id, found, abs_path, slug, label, given_as)
        if given_as == "path" and abs_path is not None and not archived and not value.endswith(".md"):
            same = self.same_project(abs_path)
            if same is not None:
                return Resolved(same[1], same[0], abs_path, slug, label, given_as)
        if given_as != "name" and not value.endswith(".md"):
            return Resolved(ws_id, None, abs_path, slug, label, given_as)
        key = _name_key(value)
        if infos is None and not value.endswith(".md"):
            # A name among the active files: the map's name indexes, not a pass over every row.
            from .workspacemap import workspace_map

            named = workspace_map(self.root).named(key, refresh=not self._map_checked)
            infos = [Row(known_id, file, folder_path, clean_text(text)) for file, known_id, folder_path, text in named]
        if infos is None:
            infos = self._rows()
        if value.endswith(".md"):  # a file, as `memrepo workspaces` lists it
            stem = value.rsplit("/", 1)[-1]
            file = next((w for w in infos if w.file == value or w.file.rsplit("/", 1)[-1] == stem), None)
            if file is not None:
                return Resolved(file.id, file.file, file.path, slug, label, "name")
            if given_as != "name":
                return Resolved(ws_id, None, abs_path, slug, label, given_as)
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
            gone = [w for w in self._rows(archived=True) if w.id == ws_id or _matches_name(w, key)]
            if len({w.id for w in gone}) == 1:
                return Resolved(gone[0].id, None, gone[0].path, slug, label, given_as)
        return Resolved(ws_id, None, None, slug, label, given_as)

    def same_project(self, folder: str) -> tuple[str, str] | None:
        """(file, workspace id) of the one workspace of the same project as ``folder``, which has none of its own.

        A moved or renamed clone: its ``origin`` remote (:func:`memrepo.engine.format.gitfolder.origin_of`)
        is the one a workspace file has (docs/memory-repo.md, Workspaces). A fork or another repo has
        another remote, and a folder with no ``origin`` matches nothing. When several workspaces have the
        remote, the one whose folder is gone (the clone moved away) is taken; with none or more than one such,
        none is (two live clones of one remote keep their own files).

        Args:
            folder: the absolute project folder (a top level, :func:`~memrepo.engine.format.paths.project_root`).
        """
        from memrepo.engine.format.gitfolder import origin_of

        remote = origin_of(folder)
        if remote is None:
            return None
        from .workspacemap import workspace_map

        rows = workspace_map(self.root).same_remote(remote, refresh=not self._map_checked)
        if len({ws_id for _file, ws_id, _path in rows}) > 1:
            rows = [row for row in rows if not (row[2] and os.path.isdir(row[2]))]
        if len({ws_id for _file, ws_id, _path in rows}) != 1:
            return None
        return rows[0][0], rows[0][1]

    def file_for(self, workspace: str | None) -> tuple[str | None, str | None]:
        """(workspace id, its active file or None) for a workspace path, name or id; (None, None) for none.

        For the readers (context, recall), which never read an archived file.

        Raises:
            RefError: a name that names no workspace file, active or archived
                (a folder path or ``ws-`` id with no file yet is no error, nor
                an archived workspace: its file is None).
            AmbiguousWorkspaceError: a name that matches two or more files.
        """
        if workspace is None or not workspace.strip():
            return None, None
        found = self.resolve(workspace)
        if found.file is None and found.given_as == "name":
            archived = self.resolve(workspace, archived=True)
            if archived.file is None:
                raise unknown_name_error(workspace)
            return archived.id, None  # archived: known, but its file reaches no agent
        return found.id, found.file

    def info(self, workspace: str, archived: bool) -> WorkspaceInfo:
        """The workspace file meant by ``workspace`` among active or archived files.

        Args:
            workspace: as for :meth:`resolve`: a ``ws-`` id, a project folder
                path, a file (``workspaces/x.md``, ``x.md``) or a name.
            archived: look among archived files (True) or active ones (False).

        Raises:
            RefError: no such workspace file (the message says where it looked).
            AmbiguousWorkspaceError: a name matches two or more files.
        """
        found = self.resolve(workspace, archived)
        if found.file is not None:
            info = next((w for w in self.scan(archived) if w.file == found.file), None)
            if info is not None:
                return info
        where = "archived/workspaces/" if archived else "workspaces/"
        raise RefError(f"no workspace file in {where} matches {workspace!r} (see `memrepo workspaces`)")
