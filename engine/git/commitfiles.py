"""The commit's file-level helpers: blobs of work-tree files, what a commit left on disk, modes (split from
:mod:`.commit`, docs/architecture.md §3).

Pure functions over a pygit2 repository; :class:`.commit.GitCommits` calls them while it holds the write lock.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pygit2
from pygit2.enums import FileMode

from .common import staged_blob


def on_disk(repo: pygit2.Repository, git_dir: Path, commit: pygit2.Oid, paths: list[str]) -> list[Path] | None:
    """What the commit needs fsynced (its loose objects, their folders, the branch's ref), or None when its
    object is not a file on disk.

    An acknowledged write names a commit that survives a crash (docs/architecture.md §3): the commit, its
    root tree, the trees on the changed paths and their blobs, written loose by libgit2, then the ref
    (:meth:`GitCommits.sync_written` fsyncs them once the write lock is let go: a writer waiting for the
    lock does not wait for the disk too). On a full disk libgit2 1.9 can move the branch to a commit
    whose object was never written: None.

    Args:
        repo: the repository.
        git_dir: its ``.git`` folder.
        commit: the commit just made.
        paths: the repo-relative paths it changed.
    """
    loose = Path(git_dir) / "objects" / str(commit)[:2] / str(commit)[2:]
    try:
        if loose.stat().st_size == 0:
            return None
    except OSError:
        return None
    ids = {str(commit)}
    with contextlib.suppress(KeyError, ValueError, pygit2.GitError):
        tree = repo[commit].peel(pygit2.Commit).tree
        ids.add(str(tree.id))
        for path in paths:
            node: pygit2.Object = tree
            for part in path.split("/"):
                if not isinstance(node, pygit2.Tree) or part not in node:
                    break
                node = node[part]
                ids.add(str(node.id))
    files = [Path(git_dir) / "objects" / oid[:2] / oid[2:] for oid in sorted(ids)]
    with contextlib.suppress(pygit2.GitError, KeyError, ValueError):
        files.append(Path(git_dir) / repo.head.name)
    return files + sorted({path.parent for path in files})


def _gone(files: list[Path] | None) -> bool:
    """Whether an object file :func:`on_disk` listed is missing (None: the commit's own is).

    Also true for an object already in a pack (an old blob committed again): writing it again is then a no-op.
    """
    return files is None or any(p.parent.parent.name == "objects" and not p.exists() for p in files)


def _fsync(path: Path) -> bool:
    """fsync the file or folder at ``path``; False when it is not there (other errors count as done)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return False
    except OSError:
        return True
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
    return True


def _blob_fromworkdir(repo: pygit2.Repository, path: str, tries: int = 5) -> pygit2.Oid:
    """``create_blob_fromworkdir``, read again when the file grew while libgit2 read it (an editor appending)."""
    for attempt in range(tries):
        try:
            return repo.create_blob_fromworkdir(path)
        except OSError:
            if attempt == tries - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _blob_of(repo: pygit2.Repository, path: str, data: bytes | None, mode: int) -> tuple[pygit2.Oid, int] | None:
    """A blob of ``data``, what memrepo wrote to ``path``, through git's filters (:func:`staged_blob`); None
    for a removal."""
    return None if data is None else (staged_blob(repo, path, data), mode)


def _holds(repo: pygit2.Repository, change: tuple[pygit2.Oid, int] | None, data: bytes | None) -> bool:
    """:func:`_as_checked`, by the blob's id first (no read back: the usual case, the file as memrepo wrote it)."""
    if change is not None and data is not None and pygit2.hash(data) == change[0]:
        return True
    return _as_checked(repo, change, data)


def _as_checked(repo: pygit2.Repository, change: tuple[pygit2.Oid, int] | None, checked: bytes | None) -> bool:
    """Whether ``change`` (a blob made from the work tree, or None for a removal) holds ``checked``."""
    if change is None or checked is None:
        return change is None and checked is None
    blob = repo[change[0]]
    return isinstance(blob, pygit2.Blob) and blob.data.replace(b"\r", b"") == checked.replace(b"\r", b"")


def _keep_committed(index: pygit2.Index, tree: pygit2.Tree | None, path: str) -> None:
    """Put HEAD's blob back in ``path``'s index entry when :meth:`pygit2.Index.add` just read another one.

    An editor's save begun between a commit and its index update (or between a scan and the stat refresh)
    is then an unstaged change, a hand edit judged at the next look, never staged as memrepo's: a
    ``git commit`` by hand would commit it (docs/architecture.md §3). The entry put back has no stat
    data, so the next status hashes the file.
    """
    try:
        kept = tree[path] if tree is not None else None
    except KeyError:
        return
    if isinstance(kept, pygit2.Blob) and path in index and index[path].id != kept.id:
        index.add(pygit2.IndexEntry(path, kept.id, FileMode(kept.filemode)))


def _head_mode(parent: pygit2.Commit | None, path: str) -> FileMode:
    """The mode ``path`` has in ``parent``'s tree; a plain file's for a new path."""
    try:
        kept = parent.tree[path].filemode if parent is not None else FileMode.BLOB
    except KeyError:
        return FileMode.BLOB
    return FileMode.BLOB_EXECUTABLE if kept == FileMode.BLOB_EXECUTABLE else FileMode.BLOB
