"""Git plumbing for sync: one remote, fetch, push, merge trees, move main.

A git-capability module (like :mod:`memrepo.engine.git.store`, it imports pygit2): it
knows nothing of memory files; :mod:`memrepo.engine.sync.sync` decides what to do. Every
transport goes through libgit2: a local path, ``ssh://`` / ``user@host:path``
(the SSH agent, or a key file named in ``[sync] ssh_key``) and ``https://`` (a
token read from the environment variable named in ``[sync] token_env``).
Nothing here ever pushes with force except :meth:`GitRemote.push` with
``force=True``, which only :func:`memrepo.engine.sync.sync.replace_remote_history` passes.

Not thread-safe: one thread owns a :class:`GitRemote` (docs/architecture.md §1).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pygit2
from pygit2.enums import FileMode

from memrepo.engine.errors import GitError, UnreachableRemote
from memrepo.engine.files.atomic import atomic_write
from memrepo.engine.files.lock import network_holder
from memrepo.engine.files.oldinode import OldInodes, open_old
from memrepo.engine.format.layout import SYNC_JOURNAL

from .common import changed_blobs, disk_blob_id, point_unborn_head, tree_files, write_index
from .common import has_password as has_password  # re-exported: sync and the tests import it from here
from .common import mask_url as mask_url
from .credentials import Callbacks
from .credentials import Credentials as Credentials  # re-exported: sync builds them from its settings
from .remotewhere import PushRejected as PushRejected  # re-exported: sync catches them from here
from .remotewhere import RemoteRefLocked as RemoteRefLocked
from .remotewhere import current_branch as current_branch  # re-exported: the compactor asks it here
from .remotewhere import is_rejection, local_git_dir
from .store import BRANCH, signature
from .treemerge import merge_trees

REMOTE = "origin"
"""The one remote's name (the usual git name)."""
PRIVATE_KEY = "memrepo.remoteprivate"
"""Repo config key set to the URL once a person confirmed the remote is private."""
LOCAL_REF = f"refs/heads/{BRANCH}"
"""The branch of a repo memrepo made; an adopted repo's may have another name (:attr:`GitRemote.branch`)."""
TRACKING_REF = f"refs/remotes/{REMOTE}/{BRANCH}"


class GitRemote:
    """The memory repo's one remote and the ref moves sync needs.

    Args:
        root: the work tree's top folder.
        creds: where credentials come from.

    Raises:
        GitError: ``root`` is not a git repository.
    """

    def __init__(self, root: Path, creds: Credentials | None = None) -> None:
        try:
            self._repo = pygit2.Repository(str(root))
        except (pygit2.GitError, KeyError) as exc:
            raise GitError(f"cannot open the git repository at {root}: {exc}") from exc
        self.creds = creds or Credentials()
        self.root = Path(self._repo.workdir or root)
        self.branch = current_branch(self._repo)
        """The branch HEAD names (``main``, ``master``, ``trunk``...): the one sync merges into and pushes."""
        self.local_ref = f"refs/heads/{self.branch}"
        self.remote_branch = self._upstream() or self.branch
        """The remote's branch :attr:`branch` syncs with: its git upstream (``branch.<name>.merge``,
        set by :meth:`follow` when this repo joined a remote on another branch), else the same name."""
        self.tracking_ref = f"refs/remotes/{REMOTE}/{self.remote_branch}"
        self.pointed_head = False
        """Whether a push pointed a local bare remote's HEAD, which named a branch it lacked, at the branch pushed."""

    def _upstream(self) -> str | None:
        """The remote branch git's config names as :attr:`branch`'s upstream on :data:`REMOTE`, or None."""
        config = self._repo.config
        try:
            if config[f"branch.{self.branch}.remote"] != REMOTE:
                return None
            merge = str(config[f"branch.{self.branch}.merge"])
        except (KeyError, pygit2.GitError):
            return None
        name = merge.removeprefix("refs/heads/")
        return name if merge.startswith("refs/heads/") and name else None

    def follow(self, remote_branch: str) -> None:
        """Sync :attr:`branch` with the remote's ``remote_branch`` from now on (git's upstream config).

        The local branch keeps its name (docs/architecture.md §2); ``git status`` sees the same upstream.

        Raises:
            GitError: the repo config could not be written.
        """
        try:
            self._repo.config[f"branch.{self.branch}.remote"] = REMOTE
            self._repo.config[f"branch.{self.branch}.merge"] = f"refs/heads/{remote_branch}"
        except pygit2.GitError as exc:
            raise GitError(f"cannot record {remote_branch} as the remote branch of {self.branch}: {exc}") from exc
        self.remote_branch = remote_branch
        self.tracking_ref = f"refs/remotes/{REMOTE}/{remote_branch}"

    # -- the remote ----------------------------------------------------

    def url(self) -> str | None:
        """The remote's URL, or None when no remote is set."""
        try:
            return self._repo.remotes[REMOTE].url
        except KeyError:
            return None

    def shown_url(self) -> str | None:
        """The remote's URL with any password or token masked (:func:`mask_url`), for messages; None when unset."""
        url = self.url()
        return None if url is None else mask_url(url)

    def confirmed_private(self) -> bool:
        """True when a person confirmed the current URL is private (:meth:`set_url` with it)."""
        url = self.url()
        try:
            return url is not None and self._repo.config[PRIVATE_KEY] == url
        except KeyError:
            return False

    def set_url(self, url: str) -> None:
        """Store ``url`` as the one remote and record that a person confirmed it private.

        Raises:
            GitError: libgit2 refused the URL or could not write the repo config.
        """
        try:
            if self.url() is None:
                self._repo.remotes.create(REMOTE, url)
            else:
                self._repo.remotes.set_url(REMOTE, url)
            self._repo.config[PRIVATE_KEY] = url
        except (pygit2.GitError, ValueError) as exc:
            raise GitError(mask_url(f"cannot set the remote to {url!r}: {exc}", url)) from exc

    def remove(self) -> bool:
        """Forget the remote (and its tracking ref); returns False when none was set."""
        if self.url() is None:
            return False
        try:
            self._repo.remotes.delete(REMOTE)
            if PRIVATE_KEY in self._repo.config:
                del self._repo.config[PRIVATE_KEY]
        except pygit2.GitError as exc:
            raise GitError(f"cannot remove the remote: {exc}") from exc
        return True

    # -- transport -----------------------------------------------------

    def remote_branches(self) -> tuple[list[str], str | None]:
        """The branch names the remote has (``ls-remote``), sorted, and the one its HEAD names.

        Returns:
            tuple[list[str], str | None]: the branches, and the remote's default
            branch (None when its HEAD names none of them, or no HEAD is advertised).

        Raises:
            UnreachableRemote: offline, the path or host is gone, or credentials were refused.
        """
        remote = self._repo.remotes[REMOTE]
        self._check_local(remote.url)
        callbacks = Callbacks(self.creds)
        try:
            heads = list(remote.list_heads(callbacks=callbacks))
        except (pygit2.GitError, OSError) as exc:
            raise UnreachableRemote(self._why(remote.url, exc, callbacks)) from exc
        names = sorted(h.name.removeprefix("refs/heads/") for h in heads if h.name and h.name.startswith("refs/heads/"))
        target = next((h.symref_target for h in heads if h.name == "HEAD" and h.symref_target), None)
        default = target.removeprefix("refs/heads/") if target else None
        return names, default if default in names else None

    def fetch(self) -> str | None:
        """Fetch the remote's :attr:`remote_branch` into :attr:`tracking_ref`.

        Returns:
            str | None: the remote's commit of the branch, or None when the remote has none.

        Raises:
            UnreachableRemote: offline, the path or host is gone, or credentials were refused.
        """
        remote = self._repo.remotes[REMOTE]
        self._check_local(remote.url)
        callbacks = Callbacks(self.creds)
        try:
            with network_holder(Path(self._repo.path)):  # a killed fetch's ref lock is known as ours
                remote.fetch([f"+refs/heads/{self.remote_branch}:{self.tracking_ref}"], callbacks=callbacks)
        except (pygit2.GitError, OSError) as exc:
            raise UnreachableRemote(self._why(remote.url, exc, callbacks)) from exc
        return self.tracking_id()

    def push(self, force: bool = False) -> None:
        """Push the local :attr:`branch` to the remote's :attr:`remote_branch` (the same name unless joined).

        Args:
            force: replace the remote's history (``+refs/heads/<branch>``); only
                :func:`memrepo.engine.sync.sync.replace_remote_history` passes True.

        Raises:
            PushRejected: the remote moved since the last fetch.
            UnreachableRemote: the remote could not be reached.
        """
        remote = self._repo.remotes[REMOTE]
        self._check_local(remote.url)
        callbacks = Callbacks(self.creds)
        spec = f"{'+' if force else ''}{self.local_ref}:refs/heads/{self.remote_branch}"
        # a killed push's ref locks are known as ours, here and in a remote on a local path
        with network_holder(Path(self._repo.path), local_git_dir(remote.url)):
            try:
                remote.push([spec], callbacks=callbacks)
            except (pygit2.GitError, OSError) as exc:
                if is_rejection(exc):
                    raise PushRejected(mask_url(f"the remote moved meanwhile: {exc}", remote.url)) from exc
                raise UnreachableRemote(self._why(remote.url, exc, callbacks)) from exc
            if callbacks.rejected:
                why = mask_url(f"the remote refused the push: {callbacks.rejected}", remote.url)
                if "failed to lock" in callbacks.rejected:
                    raise RemoteRefLocked(why)
                raise PushRejected(why)
            local = self.local_id()
            if local is not None:
                self._repo.references.create(self.tracking_ref, local, force=True)
            if point_unborn_head(local_git_dir(remote.url), f"refs/heads/{self.remote_branch}"):
                self.pointed_head = True  # a git clone of the remote checks the branch out now

    @staticmethod
    def _why(url: str | None, exc: Exception, callbacks: Callbacks) -> str:
        if callbacks.untrusted_host is not None:
            return mask_url(
                f"cannot reach the remote {url}: the host key of {callbacks.untrusted_host} is not in "
                "~/.ssh/known_hosts or does not match it; connect once with ssh to check and add it",
                url,
            )
        return mask_url(f"cannot reach the remote {url}: {exc}", url)

    @staticmethod
    def _check_local(url: str | None) -> None:
        """A local-path remote that is missing is offline (an unmounted disk), said plainly."""
        if url is None:
            return
        path = url[len("file://") :] if url.startswith("file://") else url
        if path.startswith(("/", "~")) and not Path(path).expanduser().exists():
            raise UnreachableRemote(f"cannot reach the remote: the folder {path} does not exist (a disk not mounted?)")

    # -- refs and history ----------------------------------------------

    def local_id(self) -> str | None:
        """The local branch's commit, or None while it is unborn."""
        ref = self._repo.references.get(self.local_ref)
        return None if ref is None else str(ref.target)

    def tracking_id(self) -> str | None:
        """The remote's branch as of the last fetch or push, or None."""
        ref = self._repo.references.get(self.tracking_ref)
        return None if ref is None else str(ref.target)

    def ahead_behind(self, local: str | None = None, remote: str | None = None) -> tuple[int, int]:
        """Commits on ``local`` not on ``remote``, and the other way round.

        Args:
            local: a commit; local ``main`` when None.
            remote: a commit; the remote's ``main`` as of the last fetch when None.
        """
        local = local or self.local_id()
        remote = remote or self.tracking_id()
        if local is None:
            return 0, 0
        if remote is None:
            return sum(1 for _ in self._repo.walk(local)), 0
        ahead, behind = self._repo.ahead_behind(local, remote)
        return ahead, behind

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        """True when ``ancestor`` is ``descendant`` or one of its ancestors."""
        if ancestor == descendant:
            return True
        return self._repo.descendant_of(descendant, ancestor)

    def merge_base(self, a: str, b: str) -> str | None:
        """The best common ancestor of two commits, or None for unrelated histories."""
        base = self._repo.merge_base(a, b)
        return None if base is None else str(base)

    def merge_trees(
        self,
        base: str | None,
        ours: str,
        theirs: str,
        merge_file: Callable[[str, bytes | None, bytes | None, bytes | None], bytes | None],
        wants: Callable[[str], bool],
    ) -> tuple[str, list[str]]:
        """Merge two commits' trees (:func:`memrepo.engine.git.treemerge.merge_trees`): the tree id and conflicts."""
        return merge_trees(self._repo, base, ours, theirs, merge_file, wants)

    def commit_merge(self, tree: str, ours: str, theirs: str, message: str) -> str:
        """Write a merge commit (parents ours, theirs) without moving any ref; returns its id."""
        sig = signature()
        oid = self._repo.create_commit(
            None, sig, sig, message, pygit2.Oid(hex=tree), [pygit2.Oid(hex=ours), pygit2.Oid(hex=theirs)]
        )
        return str(oid)

    def move_main(self, target: str, expect: str | None, reason: str = "memrepo sync") -> None:
        """Bring ``target``'s files into the (clean) work tree atomically and move ``main`` to it.

        Callers hold the write lock and have committed hand edits, so the work
        tree equals ``expect``'s tree; a file changed since is left as it is,
        to be committed later as a hand edit. Each file is replaced with
        :func:`.atomic.atomic_write` (never truncated then written), after a
        journal under ``.git/memrepo/`` names the move: a sync killed half-way
        is finished by the next command (:func:`finish_interrupted_sync`). A
        dream's accept moves main this way too (docs/architecture.md §6).

        Args:
            target: the commit main moves to.
            expect: where main is now (None: unborn).
            reason: the reflog message's start.

        Raises:
            GitError: ``main`` is no longer at ``expect``, or the update failed.
        """
        if self.local_id() != expect:
            raise GitError(f"{self.branch} moved while sync was merging; sync again")
        try:
            self._repo[target].peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.GitError) as exc:
            raise GitError(f"cannot update the work tree to {target[:7]}: {exc}") from exc
        journal = _journal_path(self._repo)
        journal.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(journal, json.dumps({"expect": expect, "target": target, "reason": reason}).encode())
        self._finish_move(target, expect, reason)
        journal.unlink(missing_ok=True)

    def _finish_move(self, target: str, expect: str | None, reason: str = "memrepo sync") -> None:
        """Write each file ``target`` changes since ``expect`` (unless changed by hand), move ``main``, reset the index."""
        repo = self._repo
        try:
            commit = repo[target].peel(pygit2.Commit)
            old_tree = repo[expect].peel(pygit2.Commit).tree if expect is not None else None
            new_files = tree_files(commit.tree)
            old_files = tree_files(old_tree) if old_tree is not None else {}
            for path in sorted(set(new_files) | set(old_files)):
                new, old = new_files.get(path), old_files.get(path)
                if new == old:
                    continue
                full = self.root / path
                disk = disk_blob_id(repo, full)
                done = disk == (new[0] if new else None)
                clean = disk == (old[0] if old else None) or (expect is None and disk is None)
                if done or not clean:
                    continue  # already there (a finished part), or changed by hand: kept
                _watch_old(repo, full, path, repo[old[0]].peel(pygit2.Blob).data if old else None)
                if new is None:
                    full.unlink(missing_ok=True)
                else:
                    write_checked_out(full, repo[new[0]].peel(pygit2.Blob).data, self.root, new[1])
            if self.local_id() != target:
                if self.local_ref in repo.references:
                    repo.references[self.local_ref].set_target(commit.id, f"{reason}: move to {target[:7]}")
                else:
                    repo.references.create(self.local_ref, commit.id, force=True)
            write_index(repo, lambda index: index.read_tree(commit.tree))  # waits for a `git status`'s lock
        except (KeyError, pygit2.GitError) as exc:
            raise GitError(f"cannot update the work tree to {target[:7]}: {exc}") from exc

    def commit_count(self, target: str) -> int:
        """How many commits ``target`` has (all ancestors, itself included)."""
        return sum(1 for _ in self._repo.walk(target))

    def has_commit(self, target: str | None) -> bool:
        """True when ``target`` names a commit in the local object database."""
        if not target:
            return False
        try:
            self._repo[target].peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.GitError):
            return False
        return True

    def root_message(self, target: str) -> str:
        """The message of the first-parent root commit of ``target`` (a compaction's root says ``Origin: compact``)."""
        commit = self._repo[target].peel(pygit2.Commit)
        while commit.parents:
            commit = commit.parents[0]
        return commit.message

    def tree_id(self, target: str) -> str:
        """The id of ``target``'s tree."""
        return str(self._repo[target].peel(pygit2.Commit).tree_id)

    def removed_blobs(self, old: str, new: str) -> list[tuple[str, bytes, bytes | None]]:
        """Each file of commit ``old`` that commit ``new`` changes or lacks: (path, bytes in ``old``, in ``new`` or None)."""
        a, b = (self._repo[c].peel(pygit2.Commit).tree for c in (old, new))
        return changed_blobs(self._repo, a, b)

    def commit_on(self, tree: str, parent: str, message: str) -> str:
        """Write a commit of ``tree`` whose only parent is ``parent``, without moving any ref; returns its id."""
        sig = signature()
        oid = self._repo.create_commit(None, sig, sig, message, pygit2.Oid(hex=tree), [pygit2.Oid(hex=parent)])
        return str(oid)


def _journal_path(repo: pygit2.Repository) -> Path:
    return Path(repo.path) / "memrepo" / SYNC_JOURNAL


def sync_journal(root: Path) -> Path:
    """Where the journal of a sync move in progress lives for the repo at ``root``."""
    return root / ".git" / "memrepo" / SYNC_JOURNAL


def _watch_old(repo: pygit2.Repository, full: Path, path: str, seen: bytes | None) -> None:
    """Watch the inode ``path`` has before the move replaces it, as a write does (:mod:`memrepo.engine.files.oldinode`):
    an editor's in-place save landing just after a sync or a dream's accept went into an inode nobody read
    (breaker24 B24-14); now the next salvage merges it or asks."""
    fd = open_old(full)
    if fd is not None:
        OldInodes.shared(repo.path).watch(path, fd, seen)


def write_checked_out(full: Path, data: bytes, root: Path, mode: int) -> None:
    """Write one file sync brings in, atomically (the step a fault test interrupts)."""
    atomic_write(full, data, root)
    if mode == int(FileMode.BLOB_EXECUTABLE):
        os.chmod(full, 0o755)


def finish_interrupted_sync(root: Path) -> bool:
    """Finish a sync move a kill interrupted (its journal is left); True when there was one.

    Every file was replaced atomically, so each is either as before or as
    the target has it: the move is done again (files still as before are
    written, files changed by hand are kept), ``main`` is moved and the
    journal removed. Callers hold the write lock.
    """
    journal = sync_journal(root)
    if not journal.is_file():
        return False
    try:
        state = json.loads(journal.read_bytes())
        target, expect, reason = str(state["target"]), state.get("expect"), str(state.get("reason", "memrepo sync"))
    except (OSError, ValueError, KeyError, TypeError):
        journal.unlink(missing_ok=True)
        return False
    remote = GitRemote(root)
    if remote.local_id() not in (expect, target) or not remote.has_commit(target):
        journal.unlink(missing_ok=True)  # main moved on since (or its target is gone): nothing left to finish
        return False
    remote._finish_move(target, None if expect is None else str(expect), reason)
    journal.unlink(missing_ok=True)
    return True
