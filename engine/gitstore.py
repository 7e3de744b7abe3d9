"""The git store: the one module of the engine that imports pygit2 (STYLE.md habit 2).

It returns plain engine models, never pygit2 objects, and turns libgit2
errors into :class:`~engine.errors.GitError` or
:class:`~engine.errors.BlockedError`. libgit2 runs no hooks, so nothing in
``.git/hooks`` ever runs (DESIGN.md §3), and no ``git`` subprocess is used.

A :class:`GitStore` is not thread-safe: one worker thread owns it (DESIGN.md §1).
"""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pygit2
from pygit2.enums import FileMode, FileStatus, RepositoryState

from .errors import BlockedError, GitError
from .limits import FILE_MAX_BYTES
from .models import CommitInfo, RepoState, RepoStatus

IDENTITY_NAME = "memrepo"
IDENTITY_EMAIL = "memrepo@localhost.invalid"
"""Author and committer of every commit; never the user's identity (DESIGN.md §3)."""

BRANCH = "main"

STALE_INDEX_S = 0.05
"""A full status scan slower than this (seconds) means the index's stat data
is stale (a copied or restored repo): refresh it once, as ``git status`` does."""

_STATE_REASONS = {
    RepositoryState.MERGE: "a merge is in progress: finish it (git commit) or abort it (git merge --abort)",
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


def signature(when: datetime | None = None) -> pygit2.Signature:
    """The memrepo identity, stamped now (or at ``when``)."""
    if when is None:
        return pygit2.Signature(IDENTITY_NAME, IDENTITY_EMAIL)
    offset = int((when.utcoffset() or timedelta(0)).total_seconds() // 60)
    return pygit2.Signature(IDENTITY_NAME, IDENTITY_EMAIL, int(when.timestamp()), offset)


def format_message(summary: str, trailers: dict[str, str | None], body: str = "") -> str:
    """Build a commit message: summary line, optional body, then ``Key: value`` trailers.

    Args:
        summary: the first line; line breaks are folded to spaces.
        trailers: trailer keys to values; None values are left out.
        body: an optional paragraph between the summary and the trailers.

    Returns:
        str: the message, ending with a newline.
    """
    summary = " ".join(summary.split())
    parts = [summary]
    if body.strip():
        parts.append(body.strip())
    lines = [f"{k}: {' '.join(v.split())}" for k, v in trailers.items() if v]
    if lines:
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def looks_binary(path: Path, limit: int = 8000) -> bool:
    """True when the first ``limit`` bytes of the file hold a NUL byte (git's own test)."""
    try:
        with path.open("rb") as fh:
            return b"\x00" in fh.read(limit)
    except OSError:
        return False


def libgit2_version() -> str:
    """The libgit2 version pygit2 was built with, e.g. ``1.9.1``."""
    return pygit2.LIBGIT2_VERSION


class GitStore:
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
            raise GitError(f"cannot open the git repository at {self.root}: {exc}") from exc
        if self._repo.is_bare or self._repo.workdir is None:
            raise GitError(f"{self.root} is a bare repository; a memory repo needs a work tree")
        self.git_dir = Path(self._repo.path)
        self._refreshed = False
        self._index_pending: set[str] = set()

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
                    walk(obj, f"{prefix}{obj.name}/")
                else:
                    out.append(f"{prefix}{obj.name}")

        walk(self._repo.head.peel(pygit2.Commit).tree, "")
        out.sort()
        return out

    def log(self, limit: int = 100, skip: int = 0) -> list[CommitInfo]:
        """Commits reachable from HEAD, newest first, with parsed trailers.

        Args:
            limit: at most this many commits.
            skip: leave out the newest ``skip`` commits (for paging).

        Returns:
            list[CommitInfo]: empty for an unborn HEAD.
        """
        if self._repo.head_is_unborn:
            return []
        out: list[CommitInfo] = []
        try:
            walker = self._repo.walk(
                self._repo.head.target, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.TIME
            )
            for n, commit in enumerate(walker):
                if n < skip:
                    continue
                if len(out) >= limit:
                    break
                out.append(self._commit_info(commit))
        except (KeyError, pygit2.GitError) as exc:
            raise GitError(
                f"the history is damaged after {len(out) + skip} commits (a missing or corrupt object: "
                f"{exc}); run git fsck in {self.root}"
            ) from exc
        return out

    def _commit(self, rev: str) -> pygit2.Commit:
        """The commit ``rev`` names (full or short id).

        Raises:
            GitError: no such commit.
        """
        try:
            return self._repo.revparse_single(rev).peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.GitError) as exc:
            raise GitError(f"no commit {rev!r} in the memory repo") from exc

    def commit_info(self, rev: str) -> CommitInfo:
        """Look up one commit by full or short id.

        Raises:
            GitError: no such commit.
        """
        commit = self._commit(rev)
        return self._commit_info(commit)

    @staticmethod
    def _commit_info(commit: pygit2.Commit) -> CommitInfo:
        try:
            trailers = dict(commit.message_trailers)
        except (pygit2.GitError, ValueError):
            trailers = {}
        tz = timezone(timedelta(minutes=commit.commit_time_offset))
        message = commit.message
        return CommitInfo(
            id=str(commit.id),
            short_id=str(commit.id)[:7],
            summary=message.split("\n", 1)[0],
            message=message,
            time=datetime.fromtimestamp(commit.commit_time, tz),
            author=f"{commit.author.name} <{commit.author.email}>",
            origin=trailers.get("Origin"),
            task=trailers.get("Task"),
            dream=trailers.get("Dream"),
            trailers=trailers,
            parents=[str(p) for p in commit.parent_ids],
        )

    def commit_diff(self, rev: str) -> str:
        """The unified diff a commit made against its first parent (the whole tree for the first commit).

        Args:
            rev: a full or short commit id.

        Returns:
            str: the patch text (``diff --git`` format), empty when nothing changed.

        Raises:
            GitError: no such commit.
        """
        commit = self._commit(rev)
        if commit.parents:
            diff = self._repo.diff(commit.parents[0].tree, commit.tree)
        else:
            diff = commit.tree.diff_to_tree(swap=True)
        return diff.patch or ""

    def commit_changes(self, rev: str) -> tuple[CommitInfo, dict[str, tuple[bytes | None, bytes | None]]]:
        """The files one commit changed, with their bytes before and after it.

        Args:
            rev: a full or short commit id.

        Returns:
            tuple: the commit, and each changed path's ``(before, after)``
            bytes (None where the file did not exist).

        Raises:
            GitError: no such commit, or a merge commit or the first commit (no
                single parent to compare with).
        """
        commit = self._commit(rev)
        info = self._commit_info(commit)
        if len(commit.parent_ids) != 1:
            what = "the first commit" if not commit.parent_ids else "a merge"
            raise GitError(f"cannot undo {info.short_id} ({info.summary}): it is {what}")
        changes: dict[str, tuple[bytes | None, bytes | None]] = {}
        for patch in self._repo.diff(commit.parents[0].tree, commit.tree):
            delta = patch.delta
            old = None if delta.status_char() == "A" else self._repo[delta.old_file.id].data
            new = None if delta.status_char() == "D" else self._repo[delta.new_file.id].data
            if delta.old_file.path != delta.new_file.path:
                changes[delta.old_file.path] = (old, None)
                changes[delta.new_file.path] = (None, new)
            else:
                changes[delta.new_file.path] = (old, new)
        return info, changes

    def undone_by(self, rev: str) -> CommitInfo | None:
        """The undo commit that still stands for commit ``rev``, if any.

        Undo commits carry ``Reverts: <id>``. An undo of ``rev`` stands unless
        it was undone in turn (and that undo still stands), so after undo,
        redo (undo of the undo), ``rev`` can be undone again.

        Args:
            rev: a full or short commit id.

        Returns:
            CommitInfo | None: the newest standing undo of ``rev``, or None.

        Raises:
            GitError: no such commit.
        """
        target = self._commit(rev)
        if self._repo.head_is_unborn:
            return None
        reverts: dict[str, list[CommitInfo]] = {}
        walker = self._repo.walk(
            self._repo.head.target, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.TIME
        )
        walker.hide(target.id)
        for commit in walker:
            if "Reverts:" not in commit.message:
                continue
            info = self._commit_info(commit)
            reverted = info.trailers.get("Reverts")
            if reverted:
                reverts.setdefault(reverted, []).append(info)

        def standing(undo: CommitInfo, depth: int = 0) -> bool:
            if depth > 100:
                return True
            return not any(standing(u, depth + 1) for u in reverts.get(undo.id, []))

        return next((u for u in reverts.get(str(target.id), []) if standing(u)), None)

    # -- state ---------------------------------------------------------

    def blocked_reason(self) -> str | None:
        """Why writes are blocked right now, or None (DESIGN.md §3).

        Checks a merge, rebase, revert, cherry-pick, bisect or ``git am`` in
        progress, a held ``.git/index.lock`` and a detached HEAD (whose
        commits no branch would keep). Cheap: a few file checks, no work-tree
        scan.
        """
        if (self.git_dir / "index.lock").exists():
            return (
                "the git index is locked (.git/index.lock): another git command is running; "
                "if none is, delete the stale lock file"
            )
        state = self._repo.state()
        if state != RepositoryState.NONE:
            return _STATE_REASONS.get(state, f"a git operation is in progress ({state.name})")
        if self._repo.head_is_detached:
            return (
                "HEAD is detached (a commit is checked out, not a branch): writes would be lost; "
                f"go back with git checkout {BRANCH}"
            )
        return None

    def status(self, paths: list[str] | None = None, refresh: bool = False) -> RepoStatus:
        """Tell clean, hand-edited and blocked apart (DESIGN.md §3).

        Args:
            paths: check only these repo-relative paths (fast path fed by the
                watcher); None, or a folder among them, scans the whole work tree.
            refresh: allowed to write fresh stat data into a stale index
                (only a caller holding the write lock passes True).

        Returns:
            RepoStatus: ``changed`` lists tracked files modified or deleted by
            hand, new text files, and anything staged by hand. A new binary
            file, or a new file over the 64 KB file limit, makes it blocked.
        """
        head = self.head_id()
        reason = self.blocked_reason()
        if reason is not None:
            return RepoStatus(state=RepoState.BLOCKED, reason=reason, head=head)
        try:
            if paths is None:
                started = time.perf_counter()
                flags = self._repo.status(untracked_files="all")
                if refresh and time.perf_counter() - started > STALE_INDEX_S and not self._refreshed:
                    self._refresh_index(flags)
            else:
                flags = self._quick_flags(paths)
                if flags is None:  # a folder was hinted: scan everything
                    flags = self._repo.status(untracked_files="all")
        except pygit2.GitError as exc:
            raise GitError(f"cannot read the work tree status: {exc}") from exc
        changed: list[str] = []
        for path, flag in sorted(flags.items()):
            if flag & FileStatus.IGNORED or flag == FileStatus.CURRENT:
                continue
            if flag & FileStatus.WT_NEW and not flag & _INDEX_CHANGED:
                full = self.root / path
                if full.is_symlink():
                    return RepoStatus(
                        state=RepoState.BLOCKED,
                        reason=f"new file {path} is a symlink; memrepo never writes through symlinks",
                        head=head,
                    )
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
                if (self.root / path).is_symlink():
                    return RepoStatus(
                        state=RepoState.BLOCKED,
                        reason=f"{path} was replaced by a symlink; memrepo never writes through "
                        "symlinks: put the file back",
                        head=head,
                    )
                changed.append(path)
        state = RepoState.HAND_EDITED if changed else RepoState.CLEAN
        return RepoStatus(state=state, changed=changed, head=head)

    def _quick_flags(self, paths: list[str]) -> dict[str, int] | None:
        """Status of a few paths by hashing them against HEAD's tree.

        Cheaper than ``status_file`` on a large index (no index load), and
        enough for the watcher's hints: a full scan still runs periodically
        and catches anything staged by hand.

        Returns None when a path is a folder (in HEAD or in the work tree):
        the watcher may report a new or moved folder but not the files in it,
        so the caller scans everything.
        """
        repo = self._repo
        tree = None if repo.head_is_unborn else repo.head.peel(pygit2.Commit).tree
        flags: dict[str, int] = {}
        for path in dict.fromkeys(paths):
            full = self.root / path
            try:
                entry = tree[path] if tree is not None else None
            except KeyError:
                entry = None
            if (entry is not None and not isinstance(entry, pygit2.Blob)) or (
                full.is_dir() and not full.is_symlink()
            ):
                return None
            present = full.is_symlink() or full.is_file()
            if entry is None:
                if present and not repo.path_is_ignored(path):
                    flags[path] = FileStatus.WT_NEW
            elif not present:
                flags[path] = FileStatus.WT_DELETED
            elif full.is_symlink():
                flags[path] = FileStatus.WT_TYPECHANGE
            else:
                try:
                    data = full.read_bytes()
                except OSError:
                    continue
                if pygit2.hash(data) != entry.id:
                    flags[path] = FileStatus.WT_MODIFIED
        return flags

    def _refresh_index(self, flags: dict[str, int]) -> None:
        """Write fresh stat data into the index for every unchanged tracked file.

        libgit2's status does not write back the stat data it had to
        recompute (``git status`` does), so after a copy or restore of the
        repo every scan would hash every file again. Only files whose content
        equals the index are touched; nothing is staged. Runs once per store.
        """
        self._refreshed = True
        if self.blocked_reason() is not None:
            return
        try:
            index = self._repo.index
            index.read(False)
            changed = set(flags)
            for entry in index:
                if entry.path not in changed and (self.root / entry.path).is_file():
                    index.add(entry.path)
            index.write()
        except (pygit2.GitError, OSError):
            # Opportunistic, like git status: another process holds the index.
            return

    # -- writing -------------------------------------------------------

    def commit_paths(
        self, paths: list[str], message: str, when: datetime | None = None, sync_index: bool = True
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

        Returns:
            str | None: the new commit's full id, or None when the tree did not change.

        Raises:
            BlockedError: the index is locked or a git operation is in progress
                (checked before anything is written).
            GitError: libgit2 failed (disk full, corrupt object database).
        """
        reason = self.blocked_reason()
        if reason is not None:
            raise BlockedError(reason)
        repo = self._repo
        self.sync_index()  # a previous commit whose index update failed
        try:
            parent = None if repo.head_is_unborn else repo.head.peel(pygit2.Commit)
            changes: dict[str, tuple[pygit2.Oid, int] | None] = {}
            for path in dict.fromkeys(paths):
                full = self.root / path
                if full.is_symlink():
                    raise BlockedError(f"{path} is a symlink; memrepo never writes through symlinks")
                if full.is_file():
                    # From the work tree through git's filters (.gitattributes
                    # eol rules), exactly as the index entry will be.
                    mode = FileMode.BLOB_EXECUTABLE if os.access(full, os.X_OK) else FileMode.BLOB
                    changes[path] = (repo.create_blob_fromworkdir(path), mode)
                else:
                    changes[path] = None
            base = parent.tree if parent is not None else None
            tree_id = self._build_tree(base, {tuple(p.split("/")): c for p, c in changes.items()})
            if tree_id is None:  # every file removed: an empty root tree
                tree_id = repo.TreeBuilder().write()
            commit_id = None
            if parent is None or tree_id != parent.tree_id:
                sig = signature(when)
                parents = [parent.id] if parent is not None else []
                commit_id = repo.create_commit("HEAD", sig, sig, message, tree_id, parents)
        except pygit2.GitError as exc:
            raise GitError(f"commit failed: {exc}") from exc
        # The commit stands from here on; a failed index update is retried
        # before the next commit instead of reporting the write as lost.
        self._index_pending.update(changes)
        if sync_index:
            self.sync_index()
        return None if commit_id is None else str(commit_id)

    def sync_index(self) -> None:
        """Bring the index entries of recently committed paths in step with the work tree.

        Callers hold the write lock. A failure (another git command holds
        ``index.lock``) is kept and retried before the next commit.
        """
        if not self._index_pending:
            return
        try:
            index = self._repo.index
            index.read(False)
            for path in self._index_pending:
                if (self.root / path).is_file():
                    index.add(path)
                elif path in index:
                    index.remove(path)
            index.write()
        except (pygit2.GitError, OSError):
            return  # index.lock held by another git command: try again next time
        self._index_pending.clear()

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

    def now(self) -> datetime:
        """The current time, timezone-aware (for ``added:`` dates and commits)."""
        return datetime.now(UTC).astimezone()
