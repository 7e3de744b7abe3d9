"""Git plumbing for dreams (DESIGN.md §6): review branches, their worktrees, ``--no-ff`` merges.

One job: the git capabilities a dream needs beyond :class:`~engine.gitstore.GitStore`.
Like the git store it is the only kind of module that imports pygit2, returns
plain values and turns libgit2 errors into :class:`~engine.errors.GitError`.
No ``git`` subprocess and no hooks run (libgit2 runs none).

Callers hold the write lock for anything that moves ``main`` or the work tree.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path

import pygit2

from .atomic import atomic_write
from .errors import GitError
from .gitstore import signature
from .paths import safe_relpath

BRANCH_PREFIX = "dream/"
"""Review branches are ``dream/<id>`` (DESIGN.md §6)."""


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

    def commit_on_branch(
        self, base: str, branch: str, files: dict[str, bytes | None], message: str
    ) -> str:
        """Create ``branch`` at ``base`` and commit ``files`` on it in a temporary worktree.

        The worktree is made in a fresh temporary folder outside the memory
        folder (DESIGN.md §6), the files are written there, staged and
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
        tmp = Path(tempfile.mkdtemp(prefix="memrepo-dream-"))
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
                    index.add(rel)
            index.write()
            tree = index.write_tree()
            sig = signature()
            commit = wt_repo.create_commit("HEAD", sig, sig, message, tree, [wt_repo.head.target])
            del wt_repo
            created = False  # the branch is complete: keep it
            return str(commit)
        except pygit2.GitError as exc:
            raise GitError(f"could not build the review branch {branch}: {exc}") from exc
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
            with contextlib.suppress(KeyError, pygit2.GitError):
                repo.lookup_worktree(name).prune(True)
            if created:
                with contextlib.suppress(KeyError, pygit2.GitError):
                    repo.branches.local.delete(branch)

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
        return self._repo.diff(self._commit(base).tree, self._commit(head).tree).patch or ""

    def merge_no_ff(self, branch: str, message: str) -> tuple[str, list[str]]:
        """Merge ``branch`` into HEAD with a merge commit (``git merge --no-ff``).

        A three-way merge of the trees; on a conflict nothing is written and
        :class:`MergeConflict` is raised. Otherwise the merge commit is made
        on HEAD, then the changed files are written to the work tree
        (atomically) and their index entries updated. The caller holds the
        write lock and has committed hand edits, so the work tree equals HEAD.

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
                paths = sorted(
                    {(c[0] or c[1] or c[2]).path for c in index.conflicts if any(c)}
                )
                raise MergeConflict(paths)
            tree_id = index.write_tree(repo)
            tree = repo[tree_id]
            changed: dict[str, tuple[pygit2.Oid, int] | None] = {}
            for patch in repo.diff(ours.tree, tree):
                delta = patch.delta
                if delta.status_char() == "D":
                    changed[delta.old_file.path] = None
                else:
                    if delta.old_file.path != delta.new_file.path:
                        changed[delta.old_file.path] = None
                    changed[delta.new_file.path] = (delta.new_file.id, delta.new_file.mode)
            sig = signature()
            commit = repo.create_commit("HEAD", sig, sig, message, tree_id, [ours.id, theirs.id])
        except pygit2.GitError as exc:
            raise GitError(f"merge of {branch} failed: {exc}") from exc
        for rel, change in changed.items():
            full = self.root / safe_relpath(rel)
            if change is None:
                full.unlink(missing_ok=True)
            else:
                atomic_write(full, repo[change[0]].data, self.root)
        with contextlib.suppress(pygit2.GitError, OSError):
            work_index = repo.index
            work_index.read(False)
            for rel, change in changed.items():
                if change is None:
                    if rel in work_index:
                        work_index.remove(rel)
                else:
                    work_index.add(rel)  # from the file just written: fresh stat data
            work_index.write()
        return str(commit), sorted(changed)
