"""Commits: the work tree's state of some paths on top of HEAD, and the index kept in step.

A git-capability module (it imports pygit2): :class:`GitCommits` is the part of
:class:`memrepo.engine.git.store.GitStore` that writes commits; callers hold the
write lock (docs/architecture.md §3).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import pygit2
from pygit2.enums import FileMode

from memrepo.engine.errors import BlockedError, BusyError, GitError
from memrepo.engine.files import lock as gitlocks
from memrepo.engine.files.indexhold import IndexHold
from memrepo.engine.files.regularfile import not_regular_kind
from memrepo.engine.format.scratch import is_scratch

from . import indexlag
from .commitfiles import (  # names tests patch here too
    _as_checked,
    _blob_fromworkdir,
    _blob_of,
    _fsync,
    _gone,
    _head_mode,
    _holds,
    _keep_committed,
    on_disk,
)
from .common import IDENTITY_EMAIL, ON_DISK, failed_message, signature, transient, write_index

LAG_COMMITS = 50
"""Commits of HEAD's first-parent line looked through for an index entry's blob: one found there is an index
that lags memrepo's commits (its write failed), not text staged by hand (:meth:`GitCommits._staged_by_hand`)."""


class GitCommits:
    """The commit-writing half of a git store (mixed into :class:`~memrepo.engine.git.store.GitStore`)."""

    root: Path
    git_dir: Path
    _repo: pygit2.Repository
    _index_pending: set[str]
    _index_as: dict[str, tuple[pygit2.Oid, int]]
    _to_sync: list[Path]
    _index_hold: IndexHold
    _index_sync_deferred: bool

    def _state_reason(self) -> str | None:
        raise NotImplementedError

    def commit_paths(
        self,
        paths: list[str],
        message: str,
        when: datetime | None = None,
        sync_index: bool = True,
        expect: dict[str, bytes | None] | None = None,
        written: dict[str, bytes | None] | None = None,
    ) -> str | None:
        """Commit the work-tree state of exactly these paths on top of HEAD.

        Builds the new tree from HEAD's tree with tree builders, touching only
        the trees on the changed paths (cheaper than ``Index.write_tree()``,
        which rewrites every tree), then updates those index entries so
        ``git status`` stays clean. A path missing from the work tree is
        removed. Other paths, staged or not, are left alone. When the new
        tree equals HEAD's (an index-only change, say) no commit is made and
        only the index is brought back in step.

        Callers hold the write lock.

        Args:
            paths: repo-relative ``/`` paths.
            message: the full commit message (see :func:`format_message`).
            when: commit time; now when None.
            sync_index: update the index before returning; False leaves it to
                :meth:`sync_index` (the caller must call it before releasing
                the write lock).
            expect: for a hand edit, the bytes each path held when it was
                checked: a path whose blob, read now, differs (an editor
                began a save since: truncated, half written) is left out,
                for the next look (docs/architecture.md §3). Carriage
                returns are ignored in the comparison (git's eol filters).
            written: for memrepo's own write, the bytes it just wrote to each
                path (None: deleted): committed as they are when the work tree
                differs now (an editor opened the new file and began a save in
                place: truncated, half written), never that save; the save is
                a hand edit for the next look (docs/architecture.md §3).

        Returns:
            str | None: the new commit's full id, or None when the tree did not change.

        Raises:
            BlockedError: a git operation is in progress, or a path is a
                symlink, FIFO, socket or device (checked before committing).
            BusyError: another git process held a lock file (or kept moving
                the branch) for :data:`~memrepo.engine.files.lock.GIT_LOCK_WAIT_S`.
            GitError: libgit2 failed (disk full, corrupt object database);
                a commit that stands although libgit2 failed after writing it
                is returned, not raised.
        """
        # Live git processes' lock files are waited for, stale ones removed
        # (the caller's write lock was taken after a settle, but a git
        # command may have started since).
        try:
            gitlocks.settle_git_locks(self.git_dir)
        except BusyError as exc:
            raise BusyError(f"{exc}; {ON_DISK}") from exc
        reason = self._state_reason()  # a lock file taken since is waited for below
        if reason is not None:
            raise BlockedError(reason)
        self.sync_index()  # a previous commit whose index update failed
        with self.holding_index():  # no git command rewrites these files between the look below and the commit
            return self._commit_held(paths, message, when, sync_index, expect, written)

    def _commit_held(
        self,
        paths: list[str],
        message: str,
        when: datetime | None,
        sync_index: bool,
        expect: dict[str, bytes | None] | None,
        written: dict[str, bytes | None] | None,
    ) -> str | None:
        """:meth:`commit_paths` once ``index.lock`` is held (:meth:`holding_index`)."""
        repo = self._repo
        paths = [p for p in dict.fromkeys(paths) if not is_scratch(p)]
        changes: dict[str, tuple[pygit2.Oid, int] | None] = {}
        # core.filemode=false (exFAT, FAT, some mounts): every file looks executable; keep HEAD's mode
        trust_x, head = self._filemode_trusted(), None
        if not trust_x:
            try:
                head = None if repo.head_is_unborn else repo.head.peel(pygit2.Commit)
            except (pygit2.GitError, KeyError):
                head = None
        for path in paths:
            full = self.root / path
            odd = not_regular_kind(full)
            if odd == "a symlink":
                raise BlockedError(f"{path} is a symlink; memrepo never writes through symlinks")
            if odd is not None and odd != "a folder":
                raise BlockedError(f"{path} is {odd}, not a file; memrepo neither reads nor commits it")
            if odd is None and full.exists():
                # From the work tree through git's filters (.gitattributes
                # eol rules), exactly as the index entry will be.
                if trust_x:
                    mode = FileMode.BLOB_EXECUTABLE if os.access(full, os.X_OK) else FileMode.BLOB
                else:
                    mode = _head_mode(head, path)
                try:
                    changes[path] = (_blob_fromworkdir(repo, path), mode)
                except (pygit2.GitError, OSError) as exc:
                    raise GitError(failed_message("commit failed", exc)) from exc
            else:
                changes[path] = None
            if expect is not None and path in expect and not _as_checked(repo, changes[path], expect[path]):
                del changes[path]  # changed since it was checked: never commit what nobody looked at
            elif written is not None and path in written and not _holds(repo, changes[path], written[path]):
                # Changed since memrepo wrote it: commit what was written, and index it (not the work tree's save).
                now = changes[path]
                made = _blob_of(repo, path, written[path], now[1] if now is not None else _head_mode(head, path))
                changes[path] = made
                if made is not None:
                    self._index_as[path] = made
            else:
                self._index_as.pop(path, None)  # as the work tree holds it: indexed from there
        if not changes:
            return None
        commit_id = None
        base: pygit2.Tree | None = None
        sig: pygit2.Signature | None = None
        delay = 0.005
        deadline = time.monotonic() + gitlocks.GIT_LOCK_WAIT_S
        while True:
            parent, tree_id = None, None
            try:
                parent = None if repo.head_is_unborn else repo.head.peel(pygit2.Commit)
                base = parent.tree if parent is not None else None
                tree_id = self._build_tree(base, {tuple(p.split("/")): c for p, c in changes.items()})
                if tree_id is None:  # every file removed: an empty root tree
                    tree_id = repo.TreeBuilder().write()
                if parent is not None and tree_id == parent.tree_id:
                    break
                sig = signature(when)
                parents = [parent.id] if parent is not None else []
                # libgit2 moves HEAD's branch only if it still points at
                # ``parent`` (under the ref's lock file).
                commit_id = repo.create_commit("HEAD", sig, sig, message, tree_id, parents)
                break
            except (pygit2.GitError, OSError) as exc:  # a held lock file comes as OSError
                # What the repo says, not what libgit2 said: the commit may
                # stand although a later step failed.
                landed = self._landed(parent, tree_id, message)
                if landed is not None:
                    commit_id = landed
                    break
                if not transient(exc) or time.monotonic() >= deadline:
                    raise GitError(failed_message("commit failed", exc)) from exc
                # Another git process holds the ref's lock file or moved the
                # branch meanwhile: wait for it, then build on its commit.
                try:
                    gitlocks.settle_git_locks(self.git_dir, wait_s=max(0.0, deadline - time.monotonic()))
                except BusyError as busy:
                    raise BusyError(f"{busy}; {ON_DISK}") from exc
                time.sleep(delay)
                delay = min(delay * 2, 0.1)
        to_sync = None if commit_id is None else on_disk(repo, self.git_dir, commit_id, list(changes))
        if commit_id is not None and parent is not None and base is not None and sig is not None and _gone(to_sync):
            # A `git gc --prune=now` beside this write deletes the objects it made before the branch named
            # them (breaker5 B5-14); they are written again, the same ids: the branch's commit is whole.
            with contextlib.suppress(pygit2.GitError, OSError, KeyError, ValueError):
                if self._write_again(changes, base, sig, message, parent.id) == commit_id:
                    to_sync = on_disk(repo, self.git_dir, commit_id, list(changes))
        if to_sync is not None:
            self._to_sync.extend(to_sync)
        if commit_id is not None and to_sync is None:
            # libgit2 moved the branch to a commit whose object a full disk never got: move it back.
            try:
                if parent is None:
                    repo.references.delete(repo.head.name)
                else:
                    repo.head.set_target(parent.id, "memrepo: the commit did not reach the disk")
            except (pygit2.GitError, OSError, KeyError) as exc:
                raise GitError(
                    f"commit {str(commit_id)[:7]} did not reach the disk and HEAD could not be moved back ({exc}); "
                    f"free some space, then run `git fsck` in {self.root}"
                ) from exc
            raise GitError(failed_message("commit failed", OSError(28, "No space left on device")))
        # The commit stands from here on; a failed index update is retried
        # before the next commit instead of reporting the write as lost.
        self._index_pending.update(changes)
        if sync_index:
            self.sync_index()
        return None if commit_id is None else str(commit_id)

    def _write_again(
        self,
        changes: dict[str, tuple[pygit2.Oid, int] | None],
        base: pygit2.Tree,
        sig: pygit2.Signature,
        message: str,
        parent: pygit2.Oid,
    ) -> pygit2.Oid | None:
        """Write the objects of a commit just made again (blobs from the work tree, trees, the commit), for
        a commit whose objects a concurrent prune deleted; libgit2 writes an object only when it is missing.

        Returns:
            the commit's id, the same as before when the work tree still holds what was committed; None
            when a file changed since (its blob differs: nothing to write the same commit from).
        """
        repo = self._repo
        for path, change in changes.items():
            if change is not None and _blob_fromworkdir(repo, path) != change[0]:
                return None
        tree_id = self._build_tree(base, {tuple(p.split("/")): c for p, c in changes.items()})
        if tree_id is None:
            tree_id = repo.TreeBuilder().write()
        return repo.create_commit(None, sig, sig, message, tree_id, [parent])

    def sync_written(self) -> None:
        """fsync what the commits made since the last call need (:func:`on_disk`); a missing file is skipped
        (an object already packed is on disk). Called once the write lock is let go, before a write is
        acknowledged."""
        todo, self._to_sync[:] = list(self._to_sync), []
        for path in dict.fromkeys(todo):
            _fsync(path)

    def _landed(self, parent: pygit2.Commit | None, tree_id: pygit2.Oid | None, message: str) -> pygit2.Oid | None:
        """HEAD's commit when it is the one just attempted (parent, tree and message match), else None.

        libgit2 can fail after the commit object and the branch were written
        (the reflog, a fsync): then the commit stands and is reported.
        """
        try:
            if self._repo.head_is_unborn:
                return None
            head = self._repo.head.peel(pygit2.Commit)
        except pygit2.GitError:
            return None
        want = [] if parent is None else [parent.id]
        if tree_id is None or head.tree_id != tree_id or head.committer.email != IDENTITY_EMAIL:
            return None
        if list(head.parent_ids) == want and head.message == message:
            return head.id
        return None

    def _filemode_trusted(self) -> bool:
        """Whether the executable bit on disk means anything (``core.filemode``, true unless set false)."""
        try:
            config = self._repo.config
            return "core.filemode" not in config or config.get_bool("core.filemode")
        except (pygit2.GitError, ValueError):
            return True

    def _staged_by_hand(self, path: str) -> bool:
        """Whether git's index holds for ``path`` a blob that is neither HEAD's nor the path's in the
        :data:`LAG_COMMITS` commits before it: text someone staged (``git add``) and has not committed, never the
        lag of memrepo's own failed index write (breaker3 F13). The status left the index entry to be put back in
        step, so the next write dropped the staged line (then only a dangling blob) without a word (breaker21
        B21-12); it is now left alone. An entry missing (``git rm --cached``) is put back as before."""
        repo = self._repo
        try:
            index = repo.index
            index.read(False)
            staged = index[path].id
            commit = repo.head.peel(pygit2.Commit)
        except (KeyError, pygit2.GitError, OSError, ValueError):
            return False
        for _ in range(LAG_COMMITS):
            with contextlib.suppress(KeyError):
                if commit.tree[path].id == staged:
                    return False
            if not commit.parents:
                break
            commit = commit.parents[0]
        return True

    @contextmanager
    def holding_index(self) -> Iterator[None]:
        """Hold git's ``index.lock`` for the block (:mod:`memrepo.engine.files.indexhold`); nested holds share it.

        An index update asked for meanwhile (:meth:`sync_index`) is made once the lock is let go.

        Raises:
            BusyError: another git process held ``index.lock`` for
                :data:`~memrepo.engine.files.lock.GIT_LOCK_WAIT_S` (nothing was done).
        """
        with self._index_hold.hold():
            yield
        if not self._index_hold.held and self._index_sync_deferred:
            self._index_sync_deferred = False
            self.sync_index()

    def sync_index(self, wait_s: float | None = None) -> None:
        """Bring the index entries of recently committed paths in step with the work tree.

        Callers hold the write lock. A live git command's ``index.lock`` is waited for
        (:func:`.common.write_index`, ``wait_s`` at most); a failure after that (a lock held longer, a full
        disk) is kept, in this process and in ``.git/memrepo/index-behind.json`` (:mod:`.indexlag`), and
        retried before the next commit or by the next memrepo command. While this process holds
        ``index.lock`` itself (:meth:`holding_index`) the update waits for it to be let go.
        """
        if not self._index_pending:
            return
        if self._index_hold.held:
            self._index_sync_deferred = True
            return
        try:
            write_index(self._repo, self._update_index_entries, wait_s)
        except (pygit2.GitError, OSError):
            indexlag.note(self.git_dir, self._index_pending)  # another process catches up if this one ends first
            return  # index.lock held by another git command past the wait, or a full disk: next time
        indexlag.clear(self.git_dir, self._index_pending)
        self._index_pending.clear()
        self._index_as.clear()

    def catch_up_index(self, paths: list[str], wait_s: float) -> bool:
        """Put back in step the entries of ``paths`` another process left behind HEAD (:mod:`.indexlag`);
        whether none is left behind now. Callers hold the write lock."""
        self._index_pending.update(indexlag.lagging(self._repo, self.root, paths, self._staged_by_hand))
        self.sync_index(wait_s)
        return not self._index_pending

    def _update_index_entries(self, index: pygit2.Index) -> None:
        """Set the pending paths' entries in ``index`` (read a moment ago): memrepo's blob, the work tree's, or none."""
        repo = self._repo
        tree = None if repo.head_is_unborn else repo.head.peel(pygit2.Commit).tree
        for path in self._index_pending:
            if path in self._index_as:  # committed from memrepo's bytes: the work tree changed since
                oid, mode = self._index_as[path]
                index.add(pygit2.IndexEntry(path, oid, FileMode(mode)))
            elif (self.root / path).is_file():
                index.add(path)  # the work tree's stat data, so the next status does not hash it
                _keep_committed(index, tree, path)
            elif path in index:
                index.remove(path)

    def _build_tree(
        self,
        base: pygit2.Tree | None,
        changes: dict[tuple[str, ...], tuple[pygit2.Oid, int] | None],
    ) -> pygit2.Oid | None:
        repo = self._repo
        builder = repo.TreeBuilder(base) if base is not None else repo.TreeBuilder()
        nested: dict[str, dict[tuple[str, ...], tuple[pygit2.Oid, int] | None]] = {}
        for parts, change in changes.items():
            if len(parts) == 1:
                name = parts[0]
                if change is None:
                    if builder.get(name) is not None:
                        builder.remove(name)
                else:
                    builder.insert(name, change[0], change[1])
            else:
                nested.setdefault(parts[0], {})[parts[1:]] = change
        for name, sub in nested.items():
            existing = base[name] if base is not None and name in base else None
            sub_base = existing if isinstance(existing, pygit2.Tree) else None
            sub_id = self._build_tree(sub_base, sub)
            if sub_id is None:
                if builder.get(name) is not None:
                    builder.remove(name)
            else:
                builder.insert(name, sub_id, FileMode.TREE)
        if len(builder) == 0:
            return None  # an emptied folder disappears from its parent
        return builder.write()
