"""Git plumbing for history compaction (docs/architecture.md §5): one small module, one git capability.

Like :mod:`memrepo.engine.git.store`, this module imports pygit2; the order of the
steps, the engine state and the lock live in :mod:`memrepo.engine.history.compact`. Each
function here is one step that leaves the repository valid on its own: refs
and reflogs are rewritten through libgit2 (lock file, then rename), the new
pack is written beside the old ones and moved in pack first, index last (git
ignores a pack without its index: :mod:`.compactpack`), and objects are
deleted only by :func:`.compactclean.delete_old_objects`, which the caller
runs after nothing refers to them any more.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pygit2
from pygit2.enums import ObjectType

from memrepo.engine.errors import GitError

from .common import write_index
from .compactclean import delete_old_objects, old_object_files, remove_strays
from .compactpack import fsync_dir, open_with_pack_settings, write_pack
from .store import BRANCH, signature

MAIN_REF = f"refs/heads/{BRANCH}"


class GitCompactor:
    """The git side of one compaction, step by step, on its own pygit2 repository.

    Args:
        root: the memory repo's work tree.
        pack_config_dir: a scratch folder for the pack builder's settings
            (:data:`.compactpack.PACK_WINDOW_MEMORY`); None keeps libgit2's defaults.

    Raises:
        GitError: libgit2 cannot open the repository.
    """

    def __init__(self, root: Path, pack_config_dir: Path | None = None) -> None:
        try:
            if pack_config_dir is None:
                self._repo = pygit2.Repository(str(root))
            else:
                self._repo = open_with_pack_settings(root, pack_config_dir)
        except (pygit2.GitError, KeyError) as exc:
            raise GitError(f"cannot open the git repository at {root}: {exc}") from exc
        self.git_dir = Path(self._repo.path)
        from .remote import current_branch

        self.branch = current_branch(self._repo)
        """The branch HEAD names (``master`` in an adopted repo): compaction keeps it, never renames it."""
        self.main_ref = f"refs/heads/{self.branch}"
        self.objects = self.git_dir / "objects"
        self.pack_dir = self.objects / "pack"

    # -- reading -------------------------------------------------------

    def head_commit(self) -> str | None:
        """HEAD's commit id, or None while unborn."""
        if self._repo.head_is_unborn:
            return None
        return str(self._repo.head.target)

    def count_commits(self, limit: int | None = None) -> int:
        """Commits reachable from HEAD (stops counting at ``limit``)."""
        if self._repo.head_is_unborn:
            return 0
        n = 0
        for _ in self._repo.walk(self._repo.head.target):
            n += 1
            if limit is not None and n >= limit:
                break
        return n

    def other_refs(self) -> list[str]:
        """Every ref except ``refs/heads/main``: branches, tags, dream branches, ``refs/stash``, remotes, notes."""
        return sorted(name for name in self._repo.references if name != self.main_ref)

    def worktrees(self) -> list[str]:
        """Names of the linked worktrees (``.git/worktrees/<name>``)."""
        try:
            return sorted(self._repo.list_worktrees())
        except pygit2.GitError:
            return []

    def iter_old_blobs(self) -> Iterator[bytes]:
        """The bytes of every blob in the object database, loose and packed (for finding forgotten text)."""
        odb = self._repo.odb
        for oid in odb:
            try:
                kind, _size = odb.read_header(oid)
                if kind == ObjectType.BLOB:
                    yield odb.read(oid)[1]
            except (KeyError, pygit2.GitError, ValueError):
                continue

    def tree_blobs(self, commit_id: str) -> Iterator[bytes]:
        """The bytes of every blob in a commit's tree."""
        stack = [self._repo[commit_id].peel(pygit2.Commit).tree]
        while stack:
            tree = stack.pop()
            for obj in tree:
                if isinstance(obj, pygit2.Tree):
                    stack.append(obj)
                elif isinstance(obj, pygit2.Blob):
                    yield obj.data

    # -- steps ---------------------------------------------------------

    def orphan_commit(self, tree_of: str, message: str) -> str:
        """Write a commit of ``tree_of``'s tree with no parent; no ref moves.

        Args:
            tree_of: the commit whose tree is kept (HEAD).
            message: the commit message.

        Returns:
            str: the new commit's id (a loose object until :meth:`write_pack`).
        """
        try:
            tree_id = self._repo[tree_of].peel(pygit2.Commit).tree_id
            sig = signature()
            return str(self._repo.create_commit(None, sig, sig, message, tree_id, []))
        except (pygit2.GitError, KeyError) as exc:
            raise GitError(f"cannot write the compact commit: {exc}") from exc

    def branch_ref(self) -> str:
        """The branch HEAD names (``refs/heads/trunk``, ...); ``refs/heads/main`` for a detached HEAD.

        Compaction keeps the branch's name (docs/architecture.md §2: memrepo works on whatever branch HEAD names).
        """
        try:
            target = self._repo.references["HEAD"].target
        except (KeyError, pygit2.GitError):
            return MAIN_REF
        return target if isinstance(target, str) and target.startswith("refs/heads/") else MAIN_REF

    def move_main(self, commit_id: str) -> None:
        """Point the branch (:attr:`main_ref`) at ``commit_id`` (a loose ref) and HEAD at it.

        Raises:
            GitError: libgit2 could not update the ref.
        """
        try:
            self._repo.references.create(self.main_ref, pygit2.Oid(hex=commit_id), force=True)
            if self._repo.head_is_unborn or self._repo.head.name != self.main_ref:
                self._repo.set_head(self.main_ref)
        except (pygit2.GitError, OSError) as exc:  # libgit2 reports a held ref lock as OSError
            held = (
                f"; a git process holds {self.main_ref}.lock (remove it if no git command runs)"
                if (self.git_dir / f"{self.main_ref}.lock").exists()
                else ""
            )
            raise GitError(
                f"cannot move {self.branch} to the compact commit: {exc}{held}; nothing was lost, "
                "compacting again finishes the job"
            ) from exc
        fsync_dir(self.git_dir / "refs" / "heads")

    def delete_refs(self, names: list[str], each: Callable[[str], None] | None = None) -> None:
        """Delete refs (and their reflogs) one by one.

        Args:
            names: full ref names; never ``refs/heads/main``.
            each: called after each deletion with the name.
        """
        for name in names:
            if name == self.main_ref:
                continue
            try:
                self._repo.references.delete(name)
            except (KeyError, pygit2.GitError, ValueError):
                # A broken or oddly named ref libgit2 cannot read: remove its file.
                (self.git_dir / name).unlink(missing_ok=True)
            if each is not None:
                each(name)

    def recreate_refs(self, refs: dict[str, str]) -> None:
        """Point each ref name at its commit again (after :meth:`delete_refs` and :meth:`remove_strays`).

        Raises:
            GitError: libgit2 could not write a ref.
        """
        for name, target in refs.items():
            try:
                self._repo.references.create(name, pygit2.Oid(hex=target), force=True)
            except pygit2.GitError as exc:
                raise GitError(f"cannot recreate {name}: {exc}") from exc

    def prune_worktrees(self) -> int:
        """Remove every linked worktree's admin folder (its HEAD, index and logs name old commits).

        A worktree folder that lives inside ``.git`` (engine-made, for a
        dream) is deleted too; a worktree folder elsewhere is left on disk,
        no longer linked.

        Returns:
            int: how many were pruned.
        """
        names = self.worktrees()
        for name in names:
            admin = self.git_dir / "worktrees" / name
            folder: Path | None = None
            with contextlib.suppress(OSError, ValueError):
                folder = Path((admin / "gitdir").read_text().strip()).parent
            with contextlib.suppress(pygit2.GitError, KeyError, ValueError):
                self._repo.lookup_worktree(name).prune(True)
            shutil.rmtree(admin, ignore_errors=True)
            if folder is not None and folder.resolve().is_relative_to(self.git_dir.resolve()):
                shutil.rmtree(folder, ignore_errors=True)
        return len(names)

    def reset_index(self, commit_id: str) -> None:
        """Rewrite the index from the compact commit's tree.

        libgit2 keeps the stat data of entries whose blob is unchanged, so the
        next status stays fast; extensions that could name old objects or
        paths (resolve-undo, untracked cache) are not carried over.

        Raises:
            GitError: the index is locked by another git command.
        """
        try:
            tree = self._repo[commit_id].peel(pygit2.Commit).tree
            write_index(self._repo, lambda index: index.read_tree(tree))  # waits for a `git status`'s lock
        except pygit2.GitError as exc:
            raise GitError(f"cannot rewrite the index: {exc}") from exc

    # -- the new pack and the old objects (:mod:`.compactpack`, :mod:`.compactclean`) ----

    def write_pack(self, commit_id: str, staging: Path, history: bool = False) -> str:
        """Write one pack holding exactly ``commit_id``, its tree and blobs (:func:`.compactpack.write_pack`).

        Returns:
            str: the pack's base name (``pack-<hash>``).

        Raises:
            GitError: libgit2 failed to build or write the pack.
        """
        return write_pack(self._repo, self.pack_dir, commit_id, staging, history)

    def remove_strays(self) -> list[str]:
        """Delete reflogs, pseudo-refs, old messages and ref lists (:func:`.compactclean.remove_strays`).

        Returns:
            list[str]: the ``.git``-relative paths removed.
        """
        return remove_strays(self.git_dir)

    def old_object_files(self, keep_pack: str) -> tuple[list[Path], list[Path]]:
        """(pack files in deletion order, loose object files) but ``keep_pack``'s (:func:`.compactclean.old_object_files`)."""
        return old_object_files(self.objects, keep_pack)

    def delete_old_objects(self, keep_pack: str, each: Callable[[int, int], None] | None = None) -> int:
        """Delete every pack but ``keep_pack`` and every loose object (:func:`.compactclean.delete_old_objects`).

        Safe only once nothing (ref, reflog, index, worktree, commit graph) names an object outside ``keep_pack``.

        Returns:
            int: the number of files deleted.
        """
        return delete_old_objects(self.objects, keep_pack, each)
