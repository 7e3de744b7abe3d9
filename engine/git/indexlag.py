"""The paths whose git index entry memrepo left behind HEAD, kept on disk until a later process catches up.

After a commit memrepo brings git's index in step (:meth:`.commit.GitCommits.sync_index`). A live git command's
``index.lock`` is waited for :data:`~memrepo.engine.files.lock.GIT_LOCK_WAIT_S` (3 s); a git holding it longer
(``git commit -a`` with its editor open) made memrepo give up, and the entries kept the old blobs: ``git status``
said "MM", and a plain ``git commit`` by hand of anything else committed the old text back (the line memrepo had
just written left HEAD). The retry lived in the process's memory only, so a CLI command that gave up left it for
the next memrepo write to the same path.

The paths are now noted in ``.git/memrepo/index-behind.json`` (file names only), and the next memrepo command
or the write server's idle tick catches up (:meth:`memrepo.engine.repo.store.MemoryStore.catch_up_index`): each
noted entry whose work tree file still matches HEAD is brought back to HEAD; one staged by hand is left.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path

import pygit2
from pygit2.enums import FileStatus

from memrepo.engine.files.atomic import atomic_write

from .common import disk_blob_id

NAME = "index-behind.json"
"""The file under ``.git/memrepo`` naming the paths left behind."""


def _path(git_dir: Path) -> Path:
    return Path(git_dir) / "memrepo" / NAME


def noted(git_dir: Path) -> list[str]:
    """The paths left behind (empty when none: one ``stat``-like open, for every command)."""
    try:
        data = json.loads(_path(git_dir).read_text("utf-8"))
    except (OSError, ValueError):
        return []
    return sorted({p for p in data if isinstance(p, str) and p}) if isinstance(data, list) else []


def note(git_dir: Path, paths: Iterable[str]) -> None:
    """Add ``paths`` to the ones left behind (never raises: the in-process retry still holds them)."""
    with contextlib.suppress(OSError):
        both = sorted(set(noted(git_dir)) | set(paths))
        atomic_write(_path(git_dir), json.dumps(both).encode("utf-8"), Path(git_dir))


def clear(git_dir: Path, paths: Iterable[str]) -> None:
    """Drop ``paths`` from the ones left behind; the file goes with the last."""
    with contextlib.suppress(OSError):
        left = sorted(set(noted(git_dir)) - set(paths))
        if left:
            atomic_write(_path(git_dir), json.dumps(left).encode("utf-8"), Path(git_dir))
        else:
            _path(git_dir).unlink(missing_ok=True)


def lagging(repo: pygit2.Repository, root: Path, paths: Iterable[str], by_hand: Callable[[str], bool]) -> list[str]:
    """Of ``paths``, those whose index entry differs from HEAD while the work tree file matches HEAD, and whose
    entry ``by_hand`` does not call someone's own ``git add`` (:meth:`.commit.GitCommits._staged_by_hand`)."""
    try:
        tree = repo.head.peel(pygit2.Commit).tree
    except (pygit2.GitError, KeyError, ValueError):
        return []
    changed = FileStatus.INDEX_NEW | FileStatus.INDEX_MODIFIED | FileStatus.INDEX_DELETED
    out = []
    for path in paths:
        try:
            flags = repo.status_file(path)
        except (KeyError, pygit2.GitError, OSError):  # in neither the index nor the work tree: nothing behind
            continue
        try:
            in_head: str | None = str(tree[path].id)
        except KeyError:  # a deletion memrepo committed: the entry goes when the file is gone here too
            in_head = None
        if flags & changed and disk_blob_id(repo, root / path) == in_head and not by_hand(path):
            out.append(path)
    return out
