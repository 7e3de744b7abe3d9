"""Git plumbing for history compaction (docs/architecture.md §5): one small module, one git capability.

Like :mod:`memrepo.engine.git.store`, this module imports pygit2; the order of the
steps, the engine state and the lock live in :mod:`memrepo.engine.history.compact`. Each
function here is one step that leaves the repository valid on its own: refs
and reflogs are rewritten through libgit2 (lock file, then rename), the new
pack is written beside the old ones and moved in pack first, index last (git
ignores a pack without its index), and objects are deleted only by
:func:`delete_old_objects`, which the caller runs after nothing refers to
them any more.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pygit2
from pygit2.enums import ObjectType

from memrepo.engine.errors import GitError
from memrepo.engine.format.limits import FILE_MAX_BYTES

from .common import write_index
from .pack import PackFormatError, reachable, write_reusing_pack
from .store import BRANCH, signature

MAIN_REF = f"refs/heads/{BRANCH}"

STRAY_FILES = (
    "ORIG_HEAD",
    "FETCH_HEAD",
    "AUTO_MERGE",
    "COMMIT_EDITMSG",
    "MERGE_MSG",
    "SQUASH_MSG",
    "TAG_EDITMSG",
    "NOTES_EDITMSG",
    "EDIT_DESCRIPTION",
    "gc.log",
    "info/refs",
    "objects/info/packs",
    "objects/info/commit-graph",
    "objects/pack/multi-pack-index",
    "packed-refs",
    "shallow",
)
"""Files under ``.git`` that name old commits or hold old text (messages, ref lists, commit
graphs, a shallow clone's boundary); removed before any object is deleted. ``packed-refs`` goes
once ``main`` is a loose ref."""

STRAY_DIRS = (
    "logs",
    "rr-cache",
    "lost-found",
    "objects/info/commit-graphs",
    "refs/original",
    "sequencer",
)
"""Folders under ``.git`` that do the same: reflogs, rerere's recorded conflicts (file text),
``fsck --lost-found`` output (object text), split commit graphs, filter-branch backups and a
finished cherry-pick's or revert's leftover to-do list (an unfinished one blocks compaction)."""

_PSEUDO_REF_RE = re.compile(r"^[A-Z_]+_HEAD$")
_LOOSE_DIR_RE = re.compile(r"^[0-9a-f]{2}$")
_PACK_SUFFIXES = (".idx", ".pack", ".rev", ".bitmap", ".mtimes", ".promisor", ".keep")
"""Deleted in this order, index first, so no index ever names a missing pack."""


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _fsync_file(path: Path) -> None:
    with open(path, "rb") as fh:
        os.fsync(fh.fileno())


PACK_WINDOW_MEMORY = 16 * 1024
"""Bytes of objects the pack builder compares each object with when looking for deltas.

``git gc`` reuses the deltas already in the old packs; libgit2's pack builder
computes them all again, comparing each object with the 10 before it. Memory
files are small and mostly unlike each other, so a narrow window finds
nearly the same deltas (a pack ~1% larger on a 10,000-commit corpus) in a
third of the time (``benchmarks/bench_compact.py``)."""


BLOB_CACHE_LIMIT = 2 * FILE_MAX_BYTES
"""Blobs up to this size (bytes) stay in libgit2's object cache while the pack is written."""


def _open_with_pack_settings(root: Path, config_dir: Path) -> pygit2.Repository:
    """Open the repository with ``pack.windowMemory`` set, without touching any config file of the user's.

    libgit2's pack builder takes its settings from the repository's config
    only. The repository's config is read once, on first use, from the
    global search path among others: for that one read the search path points
    at ``config_dir``, whose ``.gitconfig`` includes the user's own global
    config and then sets ``pack.windowMemory``. The search path is restored
    right after; the folder must stay until the repository is closed.
    """
    from pygit2.enums import ConfigLevel

    paths = pygit2.settings.search_path
    before = paths[ConfigLevel.GLOBAL]

    def quoted(path: Path) -> str:
        return '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'

    includes = "".join(f"\tpath = {quoted(Path(p) / '.gitconfig')}\n" for p in (before or "").split(os.pathsep) if p)
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / ".gitconfig").write_text(f"[include]\n{includes}[pack]\n\twindowMemory = {PACK_WINDOW_MEMORY}\n")
    paths[ConfigLevel.GLOBAL] = str(config_dir)
    try:
        repo = pygit2.Repository(str(root))
        repo.config  # noqa: B018 - read the config now, while the search path points at the settings
    finally:
        paths[ConfigLevel.GLOBAL] = before
    return repo


class GitCompactor:
    """The git side of one compaction, step by step, on its own pygit2 repository.

    Args:
        root: the memory repo's work tree.
        pack_config_dir: a scratch folder for the pack builder's settings
            (:data:`PACK_WINDOW_MEMORY`); None keeps libgit2's defaults.

    Raises:
        GitError: libgit2 cannot open the repository.
    """

    def __init__(self, root: Path, pack_config_dir: Path | None = None) -> None:
        try:
            if pack_config_dir is None:
                self._repo = pygit2.Repository(str(root))
            else:
                self._repo = _open_with_pack_settings(root, pack_config_dir)
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

    def write_pack(self, commit_id: str, staging: Path, history: bool = False) -> str:
        """Write one pack holding exactly ``commit_id``, its tree and blobs, reusing the old packs' entries.

        The old packs' entries of the kept objects are copied as they are
        (:func:`memrepo.engine.git.pack.write_reusing_pack`, what ``git gc``
        does); the rest (loose objects, deltas whose base is dropped) is
        packed by libgit2's pack builder; if an old pack cannot be read that
        way, libgit2 packs everything. The pack is built in ``staging``
        (inside ``.git``, same file system), synced, then moved into
        ``objects/pack``: the ``.pack`` first and the ``.idx`` last, so git
        never sees an index without its pack.

        Args:
            commit_id: the compact commit.
            staging: an empty scratch folder under ``.git``.
            history: also every ancestor of ``commit_id`` with its tree (for
                :func:`memrepo.engine.history.compact.drop_old_history`, which keeps ``main``'s
                short history adopted from a compacted remote).

        Returns:
            str: the pack's base name (``pack-<hash>``).

        Raises:
            GitError: libgit2 failed to build or write the pack.
        """
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        try:
            start = pygit2.Oid(hex=commit_id)
            commits = [c.id for c in self._repo.walk(start)] if history else [start]
            wanted = reachable(self._repo, commits)
            try:
                name = write_reusing_pack(wanted, self.pack_dir, staging, self._pack_with_libgit2)
            except PackFormatError:
                shutil.rmtree(staging, ignore_errors=True)
                staging.mkdir(parents=True)
                idx = self._pack_with_libgit2(wanted, staging)
                if idx is None:
                    raise GitError("nothing to pack") from None
                name = idx.stem
                for suffix in (".pack", ".idx"):
                    _fsync_file(staging / f"{name}{suffix}")
        except (pygit2.GitError, KeyError, OSError) as exc:
            raise GitError(f"cannot write the new pack: {exc}") from exc
        self.pack_dir.mkdir(parents=True, exist_ok=True)
        for suffix in (".pack", ".idx"):
            os.replace(staging / f"{name}{suffix}", self.pack_dir / f"{name}{suffix}")
            _fsync_dir(self.pack_dir)
        shutil.rmtree(staging, ignore_errors=True)
        self._repo.odb  # noqa: B018 - the odb notices the new pack on its next miss
        return name

    def _pack_with_libgit2(self, oids: list[bytes], folder: Path) -> Path | None:
        """Pack these objects (raw ids) into ``folder`` with libgit2's pack builder (deltas searched anew).

        Returns:
            Path | None: the pack's ``.idx``; None when ``oids`` is empty.

        Raises:
            pygit2.GitError: libgit2 failed; GitError: it wrote more or fewer than one pack.
        """
        if not oids:
            return None
        folder.mkdir(parents=True, exist_ok=True)
        builder = pygit2.PackBuilder(self._repo)
        builder.set_threads(0)  # one per CPU
        for oid in oids:
            builder.add(pygit2.Oid(raw=oid))
        # The builder reads each blob twice (delta search, then writing):
        # let libgit2 keep blobs of memory-file size in its object cache
        # meanwhile (it caches none by default).
        pygit2.settings.cache_object_limit(ObjectType.BLOB, BLOB_CACHE_LIMIT)
        try:
            builder.write(path=str(folder))
        finally:
            pygit2.settings.cache_object_limit(ObjectType.BLOB, 0)  # libgit2's default
        packs = sorted(folder.glob("pack-*.idx"))
        if len(packs) != 1:
            raise GitError(f"the pack builder wrote {len(packs)} packs, expected one")
        return packs[0]

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
        _fsync_dir(self.git_dir / "refs" / "heads")

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

    def remove_strays(self) -> list[str]:
        """Delete reflogs, pseudo-refs (``ORIG_HEAD``, ``FETCH_HEAD`` ...), old messages and ref lists.

        Run after :meth:`move_main`, so ``main`` is a loose ref and
        ``packed-refs`` can go.

        Returns:
            list[str]: the ``.git``-relative paths removed.
        """
        removed: list[str] = []
        names = list(STRAY_FILES)
        with contextlib.suppress(OSError):
            names += [p.name for p in self.git_dir.iterdir() if p.is_file() and _PSEUDO_REF_RE.match(p.name)]
        for rel in names:
            path = self.git_dir / rel
            if path.is_file() or path.is_symlink():
                path.unlink(missing_ok=True)
                removed.append(rel)
        for rel in STRAY_DIRS:
            path = self.git_dir / rel
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
                removed.append(rel)
        return removed

    def old_object_files(self, keep_pack: str) -> tuple[list[Path], list[Path]]:
        """The files of every pack but ``keep_pack``, and every loose object file.

        Returns:
            tuple: (pack files in deletion order, loose object files).
        """
        packs: list[Path] = []
        if self.pack_dir.is_dir():
            bases = sorted({p.name.split(".", 1)[0] for p in self.pack_dir.iterdir() if p.is_file()})
            for base in bases:
                if base == keep_pack:
                    continue
                packs += [
                    self.pack_dir / f"{base}{s}" for s in _PACK_SUFFIXES if (self.pack_dir / f"{base}{s}").exists()
                ]
                # Anything else with this base name (a half-written temp pack, say).
                packs += [p for p in self.pack_dir.glob(f"{base}*") if p not in packs]
        loose: list[Path] = []
        if self.objects.is_dir():
            for sub in sorted(self.objects.iterdir()):
                if sub.is_dir() and _LOOSE_DIR_RE.match(sub.name):
                    loose += sorted(sub.iterdir())
        return packs, loose

    def delete_old_objects(self, keep_pack: str, each: Callable[[int, int], None] | None = None) -> int:
        """Delete every pack but ``keep_pack`` and every loose object.

        Safe only once nothing (ref, reflog, index, worktree, commit graph)
        names an object outside ``keep_pack``.

        Args:
            keep_pack: the base name returned by :meth:`write_pack`.
            each: called as ``each(done, total)`` every 256 files and at the end.

        Returns:
            int: the number of files deleted.
        """
        packs, loose = self.old_object_files(keep_pack)
        files = packs + loose
        total = len(files)
        for n, path in enumerate(files, start=1):
            path.unlink(missing_ok=True)
            if each is not None and (n % 256 == 0 or n == total):
                each(n, total)
        for sub in {p.parent for p in loose}:
            with contextlib.suppress(OSError):
                sub.rmdir()
        for tmp in self.objects.glob("incoming-*"):
            shutil.rmtree(tmp, ignore_errors=True)
        _fsync_dir(self.pack_dir)
        return total
