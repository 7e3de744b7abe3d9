"""The git store: open a repository, read files and status, commit (docs/architecture.md §1).

It returns plain engine models, never pygit2 objects, and turns libgit2
errors into :class:`~memrepo.engine.errors.GitError` or
:class:`~memrepo.engine.errors.BlockedError`. libgit2 runs no hooks, so nothing in
``.git/hooks`` ever runs (docs/architecture.md §3), and no ``git`` subprocess is used.

A :class:`GitStore` is not thread-safe: one worker thread owns it (docs/architecture.md §1).
"""

from __future__ import annotations

__all__ = [
    "BRANCH",
    "IDENTITY_EMAIL",
    "IDENTITY_NAME",
    "GitStore",
    "format_message",
    "libgit2_version",
    "looks_binary",
    "signature",
]

import contextlib
import os
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

import pygit2
from pygit2.enums import FileStatus, RepositoryState

from memrepo.engine.errors import BusyError, GitError
from memrepo.engine.files import lock as gitlocks
from memrepo.engine.files.atomic import TEMP_PREFIX
from memrepo.engine.files.indexhold import IndexHold
from memrepo.engine.files.regularfile import not_regular_kind, read_work_file
from memrepo.engine.format.limits import FILE_MAX_BYTES
from memrepo.engine.format.scratch import is_scratch, save_siblings
from memrepo.engine.models import RepoState, RepoStatus

from .commit import GitCommits
from .common import IDENTITY_EMAIL, IDENTITY_NAME, format_message, libgit2_version, looks_binary, signature
from .exclude import ensure_excluded
from .history import GitHistory
from .indexstat import index_looks_stale
from .mergestate import USUAL, marker_reason, merge_reason, missing_head_reason, other_branch_reason, unmerged_reason
from .statuscache import CachedScan, StatusCache
from .worktreescan import WorkTreeScan

BRANCH = "main"

MID_SAVE_WAIT_S = 2.0
"""Longest a writer waits for an editor's safe write that has a memory file renamed away (seconds)."""

MID_SAVE_FRESH_S = 30.0
"""A scratch sibling renamed or written longer ago than this (seconds) is a leftover, not a save in progress."""

STALE_INDEX_S = 0.02
"""A full status scan that took more of this thread's CPU time than this (seconds) may mean the index's
stat data is stale (a copied or restored repo): when a sample of its entries says so
(:func:`.indexstat.index_looks_stale`), refresh it once, as ``git status`` does. CPU time, not wall
time: on a busy machine (load 40 on 2 cores) a fresh scan took 0.2-0.5 s of wall time at 2,000 files."""

_STATE_REASONS = {
    RepositoryState.MERGE: USUAL,
    RepositoryState.REVERT: "a revert is in progress: finish or abort it (git revert --abort)",
    RepositoryState.REVERT_SEQUENCE: "a revert is in progress: finish or abort it (git revert --abort)",
    RepositoryState.CHERRYPICK: "a cherry-pick is in progress: finish or abort it",
    RepositoryState.CHERRYPICK_SEQUENCE: "a cherry-pick is in progress: finish or abort it",
    RepositoryState.BISECT: "a bisect is in progress: end it (git bisect reset)",
    RepositoryState.REBASE: "a rebase is in progress: finish or abort it (git rebase --abort)",
    RepositoryState.REBASE_INTERACTIVE: "a rebase is in progress: finish or abort it (git rebase --abort)",
    RepositoryState.REBASE_MERGE: "a rebase is in progress: finish or abort it (git rebase --abort)",
    RepositoryState.APPLY_MAILBOX: "git am is in progress: finish or abort it (git am --abort)",
    RepositoryState.APPLY_MAILBOX_OR_REBASE: "git am or a rebase is in progress: finish or abort it",
}

_WT_CHANGED = FileStatus.WT_MODIFIED | FileStatus.WT_DELETED | FileStatus.WT_TYPECHANGE | FileStatus.WT_RENAMED
_INDEX_CHANGED = (
    FileStatus.INDEX_NEW
    | FileStatus.INDEX_MODIFIED
    | FileStatus.INDEX_DELETED
    | FileStatus.INDEX_RENAMED
    | FileStatus.INDEX_TYPECHANGE
)


class GitStore(GitHistory, GitCommits, WorkTreeScan):
    """Owns one pygit2 ``Repository`` for one memory repo.

    Args:
        root: the work tree's top folder (holding ``.git``).

    Raises:
        GitError: ``root`` is not a git repository libgit2 can open.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        try:
            self._repo = pygit2.Repository(str(self.root))
        except (pygit2.GitError, KeyError) as exc:
            if "not owned by current user" in str(exc):
                from .checks import ownership_message

                raise GitError(f"cannot open the git repository: {ownership_message(self.root)}") from exc
            raise GitError(f"cannot open the git repository at {self.root}: {exc}") from exc
        if self._repo.is_bare or self._repo.workdir is None:
            raise GitError(f"{self.root} is a bare repository; a memory repo needs a work tree")
        self.git_dir = Path(self._repo.path)
        ensure_excluded(self.git_dir)  # a repo made by stock git too: memrepo's temp files stay out of `git add -A`
        self._refreshed = False
        self._index_pending: set[str] = set()
        self._index_as: dict[str, tuple[pygit2.Oid, int]] = {}
        self._to_sync: list[Path] = []
        self._index_hold = IndexHold(self.git_dir)
        self._index_sync_deferred = False
        self.status_cache = StatusCache()
        """The last scan's flags, kept current by the watcher's events (:mod:`.statuscache`)."""

    @classmethod
    def init(cls, root: Path) -> GitStore:
        """Create an empty repository with an unborn ``main`` branch at ``root``.

        Raises:
            GitError: libgit2 could not create it (permissions, disk).
        """
        try:
            pygit2.init_repository(str(root), initial_head=BRANCH)
        except pygit2.GitError as exc:
            raise GitError(f"cannot create a git repository at {root}: {exc}") from exc
        return cls(root)

    def close(self) -> None:
        """Release libgit2's handles on the repository (open packs, the index); later calls reopen them."""
        self._repo.free()

    # -- reading -------------------------------------------------------

    def head_id(self) -> str | None:
        """HEAD's full commit id, or None while HEAD is unborn."""
        if self._repo.head_is_unborn:
            return None
        try:
            return str(self._repo.head.target)
        except pygit2.GitError as exc:
            raise GitError(f"cannot read HEAD: {exc}") from exc

    def head_blob(self, path: str) -> bytes | None:
        """The bytes of ``path`` in HEAD's tree, or None when HEAD lacks it."""
        if self._repo.head_is_unborn:
            return None
        tree = self._repo.head.peel(pygit2.Commit).tree
        try:
            obj = tree[path]
        except KeyError:
            return None
        return obj.data if isinstance(obj, pygit2.Blob) else None

    def tracked_paths(self) -> list[str]:
        """Every path in HEAD's tree (files only), sorted."""
        if self._repo.head_is_unborn:
            return []
        out: list[str] = []

        def walk(tree: pygit2.Tree, prefix: str) -> None:
            for obj in tree:
                if obj.type_str == "tree":
                    walk(cast(pygit2.Tree, obj), f"{prefix}{obj.name}/")
                else:
                    out.append(f"{prefix}{obj.name}")

        walk(self._repo.head.peel(pygit2.Commit).tree, "")
        out.sort()
        return out

    def blocked_reason(self, live_locks: bool = True) -> str | None:
        """Why writes are blocked right now, or None (docs/architecture.md §3).

        Checks git's lock files (``index.lock`` whoever holds it, any other
        one only when nobody does: a live command holds a ref lock for
        milliseconds), a merge, rebase, revert, cherry-pick, bisect or ``git
        am`` in progress and a detached HEAD (whose commits no branch would
        keep). Cheap: a few file checks, no work-tree scan.

        Args:
            live_locks: report an ``index.lock`` a live git process holds;
                False for the write-lock holder, whose commit waits for it.
        """
        for path in gitlocks.git_lock_files(self.git_dir):
            if path.name == "index.lock" and live_locks:
                if path.exists():  # not renamed into place meanwhile
                    return gitlocks.describe_git_lock(self.git_dir, path)
            elif gitlocks.confirmed_unheld(path):
                return gitlocks.describe_git_lock(self.git_dir, path)
        return self._state_reason()

    def _state_reason(self) -> str | None:
        """Why writes are blocked, lock files aside: HEAD at a missing commit, a git operation in progress or a
        detached HEAD."""
        missing = missing_head_reason(self._repo)
        if missing is not None:
            return missing
        state = self._repo.state()
        if state == RepositoryState.MERGE:
            return merge_reason(self._repo)
        if state != RepositoryState.NONE:
            return _STATE_REASONS.get(state, f"a git operation is in progress ({state.name})")
        unmerged = unmerged_reason(self._repo)  # a `git stash pop` conflict: no MERGE_HEAD, the same state
        if unmerged is not None:
            return unmerged
        if self._repo.head_is_detached:
            return (
                "HEAD is detached (a commit is checked out, not a branch): writes would be lost; "
                f"go back with git checkout {BRANCH}"
            )
        return other_branch_reason(self._repo)

    def status(self, paths: list[str] | None = None, refresh: bool = False, watched: bool = False) -> RepoStatus:
        """Tell clean, hand-edited and blocked apart (docs/architecture.md §3).

        Args:
            paths: check only these repo-relative paths (fast path fed by the
                watcher); None, or a folder among them, scans the whole work tree.
            refresh: allowed to write fresh stat data into a stale index
                (only a caller holding the write lock passes True).
            watched: a trusted watcher reports every change to :attr:`status_cache`:
                the whole work tree's status is the last scan's, with the paths
                reported since looked at again (:mod:`.statuscache`).

        Returns:
            RepoStatus: ``changed`` lists tracked files modified or deleted by
            hand, new text files, and anything staged by hand. A new binary
            file, or a new file over the 64 KB file limit, makes it blocked.
        """
        self.let_go_of_replaced_packs()  # a long-running process keeps no pack a git gc deleted
        head = self.head_id()
        if refresh:  # the caller holds the write lock: stale lock files go now
            with contextlib.suppress(BusyError):  # a live git process's lock: the commit waits for it
                gitlocks.settle_git_locks(
                    self.git_dir, wait_s=gitlocks.STATUS_WAIT_S, killed_at=gitlocks.killed_writer_at(self.git_dir)
                )
        reason = self.blocked_reason(live_locks=not refresh)
        if reason is not None:
            return RepoStatus(state=RepoState.BLOCKED, reason=reason, head=head)
        flags = self._watched_flags(head, refresh) if watched and paths is None else self._status_flags(paths, refresh)
        saving = self._mid_save(flags)
        deadline = time.monotonic() + MID_SAVE_WAIT_S
        while saving and refresh and time.monotonic() < deadline:
            # An editor's safe write has the file renamed away for a moment:
            # the writer waits for it rather than commit a deletion.
            time.sleep(0.02)
            flags = self._status_flags(paths, refresh)
            saving = self._mid_save(flags)
        if saving and refresh:
            path, sibling = saving[0]
            return RepoStatus(
                state=RepoState.BLOCKED,
                reason=f"{path} is missing while {sibling} is there: an editor is saving it (or crashed "
                f"saving it: then rename {sibling} back to {path.rsplit('/', 1)[-1]})",
                head=head,
            )
        for path, _sibling in saving:
            flags.pop(path, None)  # a reader does not report a save in progress as a deletion
        changed: list[str] = []
        staged: list[str] = []
        for path, flag in sorted(flags.items()):
            if flag & FileStatus.IGNORED or flag == FileStatus.CURRENT:
                continue
            if is_scratch(path) and not path.rsplit("/", 1)[-1].startswith(TEMP_PREFIX):
                continue  # editors' scratch files are not memory (a killed writer's temp file is cleaned up)
            full = self.root / path
            odd = not_regular_kind(full)
            if flag & _INDEX_CHANGED and odd is None and self._as_in_head(path):
                # Only the index differs: a lag (a failed index write) is put back in step (:meth:`sync_index`);
                if not self._staged_by_hand(path):  # text never committed is someone's `git add`: left (B21-12)
                    self._index_pending.add(path)
                continue
            if flag & _INDEX_CHANGED:
                staged.append(path)
            if flag & FileStatus.WT_NEW and not flag & _INDEX_CHANGED:
                if odd is not None:
                    # A new symlink (a dangling one too), FIFO, socket or
                    # device is not memory: never committed, never blocking.
                    continue
                if looks_binary(full):
                    return RepoStatus(
                        state=RepoState.BLOCKED,
                        reason=f"new file {path} is binary; move it out of the memory repo",
                        head=head,
                    )
                try:
                    size = full.stat().st_size
                except OSError:
                    continue
                if size > FILE_MAX_BYTES:
                    return RepoStatus(
                        state=RepoState.BLOCKED,
                        reason=f"new file {path} is {size} bytes, over the {FILE_MAX_BYTES}-byte "
                        "limit; split it or move it out of the memory repo",
                        head=head,
                    )
                changed.append(path)
            elif flag & (_WT_CHANGED | _INDEX_CHANGED | FileStatus.WT_NEW):
                if odd == "a symlink":
                    return RepoStatus(
                        state=RepoState.BLOCKED,
                        reason=f"{path} was replaced by a symlink; memrepo never writes through "
                        "symlinks: put the file back",
                        head=head,
                    )
                if odd is not None and odd != "a folder":
                    return RepoStatus(
                        state=RepoState.BLOCKED,
                        reason=f"{path} was replaced by {odd}; memrepo neither reads nor commits it: put the file back",
                        head=head,
                    )
                changed.append(path)
        marked = marker_reason(self.root, changed)  # never committed: a conflict still in progress
        if marked is not None:
            return RepoStatus(state=RepoState.BLOCKED, reason=marked, head=head)
        state = RepoState.HAND_EDITED if changed else RepoState.CLEAN
        return RepoStatus(state=state, changed=changed, head=head, staged=[p for p in staged if p in changed])

    def _as_in_head(self, path: str) -> bool:
        """Whether ``path`` in the work tree is HEAD's version (both absent counts), whatever the index says."""
        try:
            data: bytes | None = read_work_file(self.root / path)
        except FileNotFoundError:
            data = None
        except OSError:
            return False
        return data == self.head_blob(path)

    def _status_flags(self, paths: list[str] | None, refresh: bool) -> dict[str, int]:
        """libgit2's status flags of the whole work tree, or of ``paths`` (see :meth:`status`)."""
        try:
            if paths is None:
                started = time.thread_time()  # libgit2's scan runs on this thread
                flags = self._scan()
                slow = time.thread_time() - started > STALE_INDEX_S
                if refresh and slow and not self._refreshed and index_looks_stale(self.git_dir, self.root):
                    self._refresh_index(flags)
                return flags
            quick = self._quick_flags(paths)
            return self._scan() if quick is None else quick
        except (pygit2.GitError, OSError) as exc:
            raise GitError(f"cannot read the work tree status: {exc}") from exc

    def _watched_flags(self, head: str | None, refresh: bool) -> dict[str, int]:
        """The whole work tree's flags from :attr:`status_cache` and the paths noted since, else a scan."""
        scan = self.status_cache.start(head)
        try:
            flags = self._flags_since(scan, refresh)
        except BaseException:
            self.status_cache.give_back(scan)
            raise
        self.status_cache.store(scan, head, flags)
        return flags

    def _flags_since(self, scan: CachedScan, refresh: bool) -> dict[str, int]:
        flags = scan.flags
        if flags is not None and not any(flags.get(path, 0) & _INDEX_CHANGED for path in scan.noted):
            unread: set[str] = set()
            try:
                quick = self._quick_flags(sorted(scan.noted), unread) if scan.noted else {}
            except (pygit2.GitError, OSError) as exc:
                raise GitError(f"cannot read the work tree status: {exc}") from exc
            if quick is not None and not unread:
                for path in scan.noted:
                    flags.pop(path, None)
                flags.update(quick)
                return flags
        return self._status_flags(None, refresh)

    def _mid_save(self, flags: dict[str, int]) -> list[tuple[str, str]]:
        """Tracked paths missing from the work tree while an editor's save holds them elsewhere.

        A safe write renames the file to a scratch name (``X~``,
        ``X___jb_old___``) or writes the new text under one
        (``X___jb_tmp___``) before the new file takes the real name.

        Returns:
            list: ``(path, the scratch sibling seen)`` pairs.
        """
        out = []
        for path, flag in flags.items():
            if not flag & FileStatus.WT_DELETED or is_scratch(path):
                continue
            full = self.root / path
            if os.path.lexists(full):
                continue
            for sibling in save_siblings(full.name):
                try:
                    moved = os.lstat(full.with_name(sibling)).st_ctime  # a rename sets it
                except OSError:
                    continue
                if time.time() - moved < MID_SAVE_FRESH_S:  # an old leftover does not hold a deletion back
                    out.append((path, sibling))
                    break
        return sorted(out)

    def _refresh_index(self, flags: dict[str, int]) -> None:
        """Write fresh stat data into the index for every unchanged tracked file.

        libgit2's status does not write back the stat data it had to
        recompute (``git status`` does), so after a copy or restore of the
        repo every scan would hash every file again. Only files whose content
        equals the index are touched; nothing is staged, not even a save that
        lands between the scan and the refresh (its entry is put back as the
        scan checked it: an unstaged hand edit). Runs once per store.
        """
        self._refreshed = True
        if self.blocked_reason() is not None:
            return
        try:
            index = self._repo.index
            index.read(False)
            changed = set(flags)
            for path, oid, mode in [(e.path, e.id, e.mode) for e in index]:
                if path not in changed and (self.root / path).is_file():
                    index.add(path)
                    if index[path].id != oid:  # a save landed since the scan: keep the entry it checked
                        index.add(pygit2.IndexEntry(path, oid, mode))
            index.write()
        except (pygit2.GitError, OSError):
            # Opportunistic, like git status: another process holds the index.
            return

    # -- writing -------------------------------------------------------

    def now(self) -> datetime:
        """The current time, timezone-aware (for ``added:`` dates and commits)."""
        return datetime.now(UTC).astimezone()
