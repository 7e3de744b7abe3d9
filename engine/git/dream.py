"""Git plumbing for dreams (docs/architecture.md §6): review branches, their worktrees, ``--no-ff`` merges.

One job: the git capabilities a dream needs beyond :class:`~memrepo.engine.git.store.GitStore`.
Like the git store it is the only kind of module that imports pygit2, returns
plain values and turns libgit2 errors into :class:`~memrepo.engine.errors.GitError`.
No ``git`` subprocess and no hooks run (libgit2 runs none).

Callers hold the write lock for anything that moves ``main`` or the work tree.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

import pygit2

from memrepo.engine.errors import GitError
from memrepo.engine.files.atomic import atomic_write
from memrepo.engine.format.paths import safe_relpath

from .common import staged_blob
from .history import tree_diff
from .remote import GitRemote
from .store import signature

BRANCH_PREFIX = "dream/"
"""Review branches are ``dream/<id>`` (docs/architecture.md §6)."""
WORKTREE_PREFIX = "memrepo-dream-"
"""Name of a dream's temporary worktree registration and the prefix of its temporary folder."""
INTERRUPTED = "interrupted: the dream's process ended before it finished (cleaned up by the next dream)"
"""The reason a ``running`` record whose process is gone is marked ``failed`` with."""


class MergeConflict(Exception):
    """A ``--no-ff`` merge of a review branch conflicts with main; nothing was changed.

    Attributes:
        paths: the conflicting repo-relative paths.
    """

    def __init__(self, paths: list[str]) -> None:
        super().__init__(", ".join(paths))
        self.paths = paths


class DreamGit:
    """Review-branch plumbing for one memory repo.

    Args:
        root: the work tree's top folder.

    Raises:
        GitError: the repository cannot be opened.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        try:
            self._repo = pygit2.Repository(str(self.root))
        except (pygit2.GitError, KeyError) as exc:
            raise GitError(f"cannot open the git repository at {self.root}: {exc}") from exc

    def _commit(self, rev: str) -> pygit2.Commit:
        try:
            return self._repo.revparse_single(rev).peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.GitError) as exc:
            raise GitError(f"no commit {rev!r} in the memory repo") from exc

    def commit_exists(self, rev: str) -> bool:
        """True when the commit ``rev`` is still in the repository (a compaction drops old ones)."""
        try:
            self._commit(rev)
        except GitError:
            return False
        return True

    def branch_exists(self, branch: str) -> bool:
        """True when the local branch ``branch`` (e.g. ``dream/<id>``) exists."""
        return self._repo.branches.local.get(branch) is not None

    def branch_head(self, branch: str) -> str | None:
        """The commit id the branch points at, or None when it does not exist."""
        ref = self._repo.branches.local.get(branch)
        return None if ref is None else str(ref.peel(pygit2.Commit).id)

    def commit_on_branch(self, base: str, branch: str, files: dict[str, bytes | None], message: str) -> str:
        """Create ``branch`` at ``base`` and commit ``files`` on it in a temporary worktree.

        The worktree is made in a fresh temporary folder outside the memory
        folder (docs/architecture.md §6), the files are written there, staged and
        committed once; then the worktree folder is removed and its record
        pruned. The branch stays. Main and the user's work tree never change.

        Args:
            base: the commit the branch starts from (the post-auto HEAD).
            branch: the new branch's name (``dream/<id>``).
            files: repo-relative path -> new bytes, or None to delete the file.
            message: the commit message.

        Returns:
            str: the review commit's id.

        Raises:
            GitError: the branch exists already, or libgit2 failed (the
                worktree is still removed; a half-made branch is deleted).
        """
        repo = self._repo
        if self.branch_exists(branch):
            raise GitError(f"branch {branch} exists already")
        name = "memrepo-" + branch.replace("/", "-")
        tmp = Path(tempfile.mkdtemp(prefix=WORKTREE_PREFIX))
        where = tmp / "worktree"
        created = False
        try:
            ref = repo.branches.local.create(branch, self._commit(base))
            created = True
            repo.add_worktree(name, str(where), ref)
            wt_repo = pygit2.Repository(str(where))
            index = wt_repo.index
            for rel, data in files.items():
                rel = safe_relpath(rel)
                full = where / rel
                if data is None:
                    full.unlink(missing_ok=True)
                    if rel in index:
                        index.remove(rel)
                else:
                    atomic_write(full, data, where)
                    # The bytes written, not the file read back (anything may touch it since: race7, loss8).
                    mode = index[rel].mode if rel in index else pygit2.enums.FileMode.BLOB
                    index.add(pygit2.IndexEntry(rel, staged_blob(wt_repo, rel, data), mode))
            index.write()
            tree = index.write_tree()
            sig = signature()
            commit = wt_repo.create_commit("HEAD", sig, sig, message, tree, [wt_repo.head.target])
            del wt_repo
            created = False  # the branch is complete: keep it
            return str(commit)
        except (pygit2.GitError, OSError) as exc:  # OSError: a full disk, a held lock file
            raise GitError(f"could not build the review branch {branch}: {exc}") from exc
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
            with contextlib.suppress(KeyError, pygit2.GitError):
                repo.lookup_worktree(name).prune(True)
            # Even when libgit2 could not prune it (a full disk): no registration naming a gone folder.
            shutil.rmtree(Path(repo.path) / "worktrees" / name, ignore_errors=True)
            if created:
                with contextlib.suppress(KeyError, pygit2.GitError):
                    repo.branches.local.delete(branch)

    # -- what a killed dream leaves -------------------------------------------

    def remove_leftovers(
        self, branches: bool = True, keep: frozenset[str] = frozenset(), *, dry_run: bool = False
    ) -> list[str]:
        """Remove what a dream killed inside :meth:`commit_on_branch` left: worktrees and half-made branches.

        Its temporary worktree (a full copy of the memory, in ``$TMPDIR``)
        goes, folder and registration, whether still registered or already
        unlinked; a ``dream/`` branch with no commit of its own (its tip is
        on main: made, then killed before its review commit) is deleted,
        which loses nothing. The caller holds the write lock or the dream
        lock: a review branch is built under both, so either keeps
        :meth:`commit_on_branch` from running meanwhile.

        Args:
            branches: also delete half-made branches (compaction, which
                deletes and reports every other ref itself, passes False).
            keep: branches a dream record still waits on (never deleted).
            dry_run: only say what would go (for Health), removing nothing.

        Returns:
            list[str]: one line per thing removed (with ``dry_run``: found).
        """
        repo = self._repo
        git_dir = Path(repo.path).resolve()
        done: list[str] = []
        registered: set[str] = set()  # with dry_run: the folders of registered worktrees, said once
        for name in sorted(self._dream_registrations(git_dir)):
            admin = git_dir / "worktrees" / name
            folder: Path | None = None
            with contextlib.suppress(OSError, ValueError):
                folder = Path((admin / "gitdir").read_text().strip()).parent
            if dry_run:
                registered.update({folder.name, folder.parent.name} if folder is not None else set())
                done.append(f"the temporary worktree {name} a killed dream left")
                continue
            if folder is not None and folder.parent.name.startswith(WORKTREE_PREFIX):
                shutil.rmtree(folder.parent, ignore_errors=True)
            elif folder is not None and folder.name.startswith(WORKTREE_PREFIX):
                shutil.rmtree(folder, ignore_errors=True)
            with contextlib.suppress(pygit2.GitError, KeyError, ValueError):
                repo.lookup_worktree(name).prune(True)
            shutil.rmtree(admin, ignore_errors=True)
            done.append(f"removed the temporary worktree {name} a killed dream left")
        done += self._remove_unlinked_worktrees(git_dir, dry_run=dry_run, skip=frozenset(registered))
        try:
            head = None if repo.head_is_unborn else repo.head.target
        except pygit2.GitError:
            head = None
        for branch in list(repo.branches.local):
            if not branches or not branch.startswith(BRANCH_PREFIX) or branch in keep or head is None:
                continue
            tip = self.branch_head(branch)
            if tip is None:
                continue
            tip_id = pygit2.Oid(hex=tip)
            with contextlib.suppress(pygit2.GitError):
                if (tip_id == head or repo.descendant_of(head, tip_id)) and dry_run:
                    done.append(f"the half-made branch {branch} a killed dream left")
                elif tip_id == head or repo.descendant_of(head, tip_id):
                    repo.branches.local.delete(branch)
                    done.append(f"deleted the half-made branch {branch} a killed dream left")
        return done

    def _dream_registrations(self, git_dir: Path) -> set[str]:
        """Names of the dream worktrees registered in ``.git/worktrees``, half-made ones too.

        libgit2 lists a registration only once its ``gitdir``, ``commondir`` and
        ``HEAD`` files all exist; a dream killed while making its worktree can
        leave a folder it does not list, which ``git fsck`` still reads (and
        fails on: "HEAD points at nothing"). Both are read here.
        """
        names = {n for n in self._repo.list_worktrees() if n.startswith(WORKTREE_PREFIX)}
        with contextlib.suppress(OSError):
            names |= {p.name for p in (git_dir / "worktrees").iterdir() if p.name.startswith(WORKTREE_PREFIX)}
        return names

    @staticmethod
    def _remove_unlinked_worktrees(
        git_dir: Path, dry_run: bool = False, skip: frozenset[str] = frozenset()
    ) -> list[str]:
        """Temporary dream worktrees of this repo in ``$TMPDIR`` that no registration names any more."""
        done: list[str] = []
        try:
            candidates = [
                p
                for p in Path(tempfile.gettempdir()).iterdir()
                if p.name.startswith(WORKTREE_PREFIX) and p.name not in skip
            ]
        except OSError:
            return done
        for tmp in candidates:
            link = tmp / "worktree" / ".git"
            try:
                if link.is_symlink() or not link.is_file():
                    continue
                target = link.read_text(errors="replace").strip().removeprefix("gitdir:").strip()
            except OSError:
                continue
            if Path(target).parent.parent.resolve() == git_dir and dry_run:
                done.append(f"the unlinked temporary worktree {tmp.name} a killed dream left")
            elif Path(target).parent.parent.resolve() == git_dir:
                shutil.rmtree(tmp, ignore_errors=True)
                done.append(f"removed the unlinked temporary worktree {tmp.name} a killed dream left")
        return done

    def delete_branch(self, branch: str) -> bool:
        """Delete a local branch; returns False when it did not exist."""
        if not self.branch_exists(branch):
            return False
        try:
            self._repo.branches.local.delete(branch)
        except pygit2.GitError as exc:
            raise GitError(f"cannot delete branch {branch}: {exc}") from exc
        return True

    def diff(self, base: str, branch: str, fallback: str | None = None) -> str:
        """The unified diff ``base..branch`` (``git diff <base>..<branch>``).

        Args:
            base: the base commit.
            branch: the review branch.
            fallback: the review commit, used when the branch is gone (accepted or rejected).

        Raises:
            GitError: the base commit or the branch (and the fallback commit) does not exist.
        """
        head = self.branch_head(branch) or fallback
        if head is None:
            raise GitError(f"branch {branch} does not exist (accepted, rejected or compacted)")
        return tree_diff(self._commit(base).tree, self._commit(head).tree).patch or ""

    def changed_files(self, base: str, head: str) -> dict[str, tuple[bytes | None, bytes | None]]:
        """The files ``head`` changed against ``base``, with their bytes on each side.

        Args:
            base: the older commit.
            head: the newer commit (a review commit).

        Returns:
            dict[str, tuple[bytes | None, bytes | None]]: path -> (bytes at
            ``base`` or None when added, bytes at ``head`` or None when deleted).

        Raises:
            GitError: either commit does not exist.
        """
        old, new = self._commit(base), self._commit(head)
        out: dict[str, tuple[bytes | None, bytes | None]] = {}
        for delta in tree_diff(old.tree, new.tree).deltas:
            before = None if delta.status_char() == "A" else self._blob(delta.old_file.id)
            after = None if delta.status_char() == "D" else self._blob(delta.new_file.id)
            out[delta.new_file.path if after is not None else delta.old_file.path] = (before, after)
        return out

    def _blob(self, oid: pygit2.Oid) -> bytes:
        obj = self._repo[oid]
        if not isinstance(obj, pygit2.Blob):
            raise GitError(f"{oid} is not a file in the memory repo")
        return obj.data

    def merge_no_ff(self, branch: str, message: str) -> tuple[str, list[str]]:
        """Merge ``branch`` into HEAD with a merge commit (``git merge --no-ff``).

        A three-way merge of the trees; on a conflict nothing is written and
        :class:`MergeConflict` is raised. Otherwise the merge commit is
        written, then :meth:`.gitremote.GitRemote.move_main` moves HEAD's
        branch to it and writes the changed files (atomically) under its
        journal: a kill in between is finished by the next command
        (docs/architecture.md §6). The caller holds the write lock and has
        committed hand edits, so the work tree equals HEAD.

        Args:
            branch: the branch to merge.
            message: the merge commit's message.

        Returns:
            tuple[str, list[str]]: the merge commit's id and the paths it changed.

        Raises:
            MergeConflict: the branch conflicts with HEAD; HEAD, index and work tree unchanged.
            GitError: the branch does not exist, or libgit2 failed.
        """
        repo = self._repo
        theirs_id = self.branch_head(branch)
        if theirs_id is None:
            raise GitError(f"branch {branch} does not exist (accepted, rejected or compacted)")
        try:
            ours = repo.head.peel(pygit2.Commit)
            theirs = self._commit(theirs_id)
            index = repo.merge_commits(ours, theirs)
            if index.conflicts is not None:
                paths = sorted({(c[0] or c[1] or c[2]).path for c in index.conflicts if any(c)})
                raise MergeConflict(paths)
            tree_id = index.write_tree(repo)
            tree = repo[tree_id].peel(pygit2.Tree)
            changed: dict[str, tuple[pygit2.Oid, int] | None] = {}
            for delta in tree_diff(ours.tree, tree).deltas:
                if delta.status_char() == "D":
                    changed[delta.old_file.path] = None
                else:
                    if delta.old_file.path != delta.new_file.path:
                        changed[delta.old_file.path] = None
                    changed[delta.new_file.path] = (delta.new_file.id, delta.new_file.mode)
            sig = signature()
            commit = repo.create_commit(None, sig, sig, message, tree_id, [ours.id, theirs.id])
        except pygit2.GitError as exc:
            raise GitError(f"merge of {branch} failed: {exc}") from exc
        # Main moves and the files are written under the move journal, so a kill in between is
        # finished by the next command, never committed as "Hand edits" that undo the merge.
        GitRemote(self.root).move_main(str(commit), str(ours.id), reason=f"memrepo: accept {branch}")
        return str(commit), sorted(changed)


def has_leftover_worktrees(git_dir: Path) -> bool:
    """True when a dream's temporary worktree is still registered in ``git_dir`` (one ``listdir``).

    Outside :meth:`DreamGit.commit_on_branch`, which runs under the write
    lock, only a killed dream leaves one (``git fsck`` fails on it).
    """
    try:
        return any(name.startswith(WORKTREE_PREFIX) for name in os.listdir(Path(git_dir) / "worktrees"))
    except OSError:
        return False


def clean_interrupted(root: Path, records: object | None = None, *, dry_run: bool = False) -> list[str]:
    """Clean up after a killed dream: its worktree, half-made branch and ``running`` record.

    Worktrees and half-made branches (none a record waits on; with no
    ``records``, worktrees only) go as :meth:`DreamGit.remove_leftovers`
    says; each ``running`` record is marked ``failed`` with
    :data:`INTERRUPTED` (and can then be rejected). The caller holds the
    dream lock when it passes ``records`` (so no dream runs), else the write
    lock.

    Args:
        root: the work tree's top folder.
        records: the repo's :class:`~memrepo.engine.dreams.record.DreamRecords`, or None to leave records alone.
        dry_run: only say what would be cleaned (Health), changing nothing.

    Returns:
        list[str]: one line per thing cleaned (with ``dry_run``: found).
    """
    if records is None:  # compaction: the worktrees only (it deletes and reports the branches itself)
        return DreamGit(root).remove_leftovers(branches=False)
    from memrepo.engine.format.isotime import now_iso

    waiting = frozenset(
        r.branch
        for r in records.all()  # type: ignore[attr-defined]
        if r.branch and r.status in ("pending_review", "stale")
    )
    done = DreamGit(root).remove_leftovers(keep=waiting, dry_run=dry_run)

    for record in records.all():  # type: ignore[attr-defined]
        if record.status == "running" and dry_run:
            done.append(f"dream {record.id} is marked running, but its process is gone")
        elif record.status == "running":
            record.status = "failed"
            record.reason = INTERRUPTED
            record.finished = record.finished or now_iso()
            records.save(record)  # type: ignore[attr-defined]
            done.append(f"marked dream {record.id} failed ({INTERRUPTED})")
    return done


def clean_interrupted_unlocked(root: Path, records: object, *, dry_run: bool = False) -> list[str]:
    """:func:`clean_interrupted` for a caller holding no lock: only when no dream runs (the dream lock is free).

    For reject, so a record left ``running`` by a killed dream can be
    rejected, and for Health's fix key; with ``dry_run`` for Health's row
    (the dream lock is taken and let go at once: a running dream's worktree
    and branch are never called leftovers).

    Returns:
        list[str]: one line per thing cleaned (or found); empty when a dream is running.
    """
    from memrepo.engine.errors import BusyError
    from memrepo.engine.files.lock import DreamLock

    lock = DreamLock(Path(DreamGit(root)._repo.path))
    try:
        lock.acquire()
    except BusyError:
        return []
    try:
        return clean_interrupted(root, records, dry_run=dry_run)
    finally:
        lock.release()
