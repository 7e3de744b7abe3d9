"""What a merge in progress blocks on, and the way out that works in its state (docs/architecture.md §3).

A ``git pull`` whose merge commit raced a memrepo commit (HEAD moved under
it) left ``MERGE_HEAD``, a file staged at the old version and memrepo's new
entry unstaged (``MM me.md``). ``git merge --abort`` then fails ("Entry
'me.md' not uptodate. Cannot merge."), and ``git commit`` fails when the
merged commit is gone ("Corrupt MERGE_HEAD"), or commits the staged old
version, dropping the entry. ``git merge --quit`` ends the merge and keeps
the index and the work tree as they are; memrepo then commits the files
as hand edits. Found by breaker3 (F12).
"""

from __future__ import annotations

import os
from pathlib import Path

import pygit2

QUIT = "`git merge --quit` ends the merge and keeps every file as it is (then `memrepo commit-hand-edits`)"
"""The last way out: works whatever the index holds."""

USUAL = f"a merge is in progress: finish it (git commit) or abort it (git merge --abort); if neither works, {QUIT}"
"""The reason for a merge git can finish or abort."""


def merge_reason(repo: pygit2.Repository) -> str:
    """Why a merge blocks writes, naming a way out git accepts in this state.

    Cheap: reads ``MERGE_HEAD`` and hashes only the files staged against HEAD (a merge touches few).

    Args:
        repo: a repository whose state is a merge.

    Returns:
        str: one line for ``status`` and refused writes.
    """
    missing = _missing_merge_heads(repo)
    if missing:
        return (
            f"a merge is in progress but MERGE_HEAD names a commit that is gone ({missing[0][:12]}), so "
            f"`git commit` cannot finish it: {QUIT}"
        )
    both = _staged_and_changed(repo)
    if both:
        return (
            f"a merge is in progress and {both[0]} has staged and unstaged changes, so `git merge --abort` "
            f"cannot run and `git commit` would commit the staged version, not the file as it is: {QUIT}"
        )
    return USUAL


def _missing_merge_heads(repo: pygit2.Repository) -> list[str]:
    """The ids in ``MERGE_HEAD`` the object database lacks (or the whole line when it is no id)."""
    try:
        with open(os.path.join(repo.path, "MERGE_HEAD"), encoding="ascii", errors="replace") as fh:
            lines = [line.strip() for line in fh if line.strip()]
    except OSError:
        return []
    out = []
    for line in lines:
        try:
            found = repo.get(line)
        except (ValueError, pygit2.GitError):
            found = None
        if found is None:
            out.append(line)
    return out


def _staged_and_changed(repo: pygit2.Repository) -> list[str]:
    """Paths whose index entry differs from HEAD and whose work-tree file differs from the index entry."""
    try:
        index = repo.index
        index.read(False)
        head = repo.head.peel(pygit2.Commit)
        staged = {delta.new_file.path for delta in index.diff_to_tree(head.tree).deltas}
        conflicts = index.conflicts
        if conflicts is not None:  # a conflict is what `git merge --abort` is for
            staged -= {(ours or theirs or base).path for base, ours, theirs in conflicts}
    except (KeyError, pygit2.GitError, OSError):
        return []
    out = []
    for path in sorted(staged):
        full = os.path.join(repo.workdir or "", path)
        try:
            entry = index[path]
        except KeyError:
            if os.path.lexists(full):  # staged as deleted, still on disk
                out.append(path)
            continue
        try:
            with open(full, "rb") as fh:
                same = pygit2.hash(fh.read()) == entry.id
        except OSError:
            same = False
        if not same:
            out.append(path)
    return out


MEMORY_BRANCH = "main"
"""The branch memory lives on when ``git config memrepo.branch`` names none (docs/memory-repo.md)."""


def other_branch_reason(repo: pygit2.Repository) -> str | None:
    """Why writes are blocked when HEAD is on a branch other than memory's, or None.

    After ``git checkout other`` in the memory repo, a write would land on
    ``other`` and leave memory when the user switches back (breaker5 B5-13).
    Memory's branch is ``git config memrepo.branch``, else ``main`` when it
    exists; a repo with no such branch (made with stock git on ``master``) is
    not checked. Cheap: two ref look-ups.
    """
    try:
        head = repo.references["HEAD"].target
        wanted = repo.config["memrepo.branch"] if "memrepo.branch" in repo.config else None  # noqa: SIM401 - no .get
    except (KeyError, pygit2.GitError):
        return None
    if not isinstance(head, str) or not head.startswith("refs/heads/"):
        return None  # detached: said elsewhere
    if wanted is None:
        if repo.references.get(f"refs/heads/{MEMORY_BRANCH}") is None:
            return None
        wanted = MEMORY_BRANCH
    current = head.removeprefix("refs/heads/")
    if current == wanted:
        return None
    return (
        f"HEAD is on branch {current}, but memory is on {wanted}: writes made here would leave memory when you "
        f"switch back; go back with git checkout {wanted} (or make {current} memory's branch: "
        f"git config memrepo.branch {current})"
    )


MISSING_HEAD = "HEAD points at a missing commit"
"""How :func:`missing_head_reason` starts (Health shows it as a failure, not a warning)."""


def _whole(repo: pygit2.Repository, oid: pygit2.Oid) -> pygit2.Commit | None:
    """The commit ``oid`` when it and its root tree are in the object database, else None."""
    try:
        commit = repo[oid].peel(pygit2.Commit)
        repo[commit.tree_id]
    except (KeyError, ValueError, pygit2.GitError):
        return None
    return commit


def missing_head_reason(repo: pygit2.Repository) -> str | None:
    """Why writes are blocked when HEAD's branch points at a commit missing from the object database, or None.

    ``git gc --prune=now`` (or ``git prune --expire=now``) beside a write deletes the objects of a
    commit made while it ran, which no ref named yet; the branch then moves to a commit that no longer
    exists, and every read of HEAD fails (breaker5 B5-14; git documents ``--prune=now`` as unsafe
    beside concurrent writers). The way back is the newest commit of the branch's reflog that is whole:
    the lost commit's text is still in the work tree, committed as hand edits once the branch is back.
    Cheap: one object look-up (the reflog is read only when it is missing).
    """
    try:
        ref = repo.references["HEAD"].resolve()
    except (KeyError, pygit2.GitError):
        return None  # unborn, or no HEAD at all: said elsewhere
    target = ref.target
    if not isinstance(target, pygit2.Oid) or _whole(repo, target) is not None:
        return None
    good: pygit2.Commit | None = None
    try:
        for entry in ref.log():
            for oid in (entry.oid_new, entry.oid_old):
                if oid != target and any(oid.raw) and (good := _whole(repo, oid)) is not None:
                    break
            if good is not None:
                break
    except (KeyError, ValueError, pygit2.GitError):
        good = None
    missing = f"{MISSING_HEAD}: {ref.name} is at {str(target)[:7]}, which is not in .git/objects (deleted by a "
    missing += "`git gc --prune=now` or `git prune` run beside a write?)"
    if good is None:
        return (
            f"{missing}; no whole commit is left in its reflog: run `git fsck --lost-found` and point {ref.name} at one"
        )
    summary = good.message.split("\n", 1)[0][:60]
    return (
        f"{missing}; the last good commit in its reflog is {str(good.id)[:7]} ({summary!r}): "
        f"run `git update-ref {ref.name} {good.id}`; what the lost commit wrote stays in the files and is "
        "committed as hand edits"
    )


IN_PROGRESS = ("MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply")
"""What git leaves in its folder while an operation that can stop on a conflict waits (a cheap test first)."""


def conflicted_paths(root: str | os.PathLike[str]) -> list[str]:
    """The paths git's index holds unmerged while a merge, cherry-pick, revert or rebase waits; [] otherwise.

    Never raises (an unreadable index: []). Reads no index unless such an operation is in progress.
    """
    git_dir = os.path.join(root, ".git")
    if not any(os.path.exists(os.path.join(git_dir, name)) for name in IN_PROGRESS):
        return []
    try:
        conflicts = pygit2.Repository(str(root)).index.conflicts
        return sorted({(base or ours or theirs).path for base, ours, theirs in conflicts or ()})
    except (pygit2.GitError, OSError, KeyError, AttributeError):
        return []


RESOLVE = (
    "keep the lines you want and delete the <<<<<<< ======= >>>>>>> lines, then `git add {path}`; or take one side "
    "whole: `git checkout --theirs {path}` (or --ours), then `git add {path}`"
)
"""The way out of a conflict git left in one file, whatever left it (a merge, ``git stash pop``, ``git checkout -m``)."""


def unmerged_reason(repo: pygit2.Repository) -> str | None:
    """Why writes are blocked while git's index holds a file unmerged with no merge in progress, or None.

    ``git stash pop`` (or ``git stash apply``, ``git checkout -m``) that cannot merge a file leaves its index
    entries unmerged and both sides between markers in the file, but no ``MERGE_HEAD``: the conflict is in
    progress all the same (breaker8 B8-6). Committing the file would commit the markers, and neither side is
    an entry until it is resolved (:mod:`memrepo.engine.format.conflicts`). Cheap: the index is read again
    only when its file changed.

    Returns:
        str | None: one line naming the files and the way out, for ``status`` and refused writes.
    """
    try:
        index = repo.index
        index.read(False)
        conflicts = index.conflicts
        paths = sorted({(ours or theirs or base).path for base, ours, theirs in conflicts or ()})
    except (KeyError, pygit2.GitError, OSError, AttributeError):
        return None
    if not paths:
        return None
    shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    first = paths[0]
    return (
        f"a conflict is in progress: git left {shown} unmerged (a `git stash pop`, `git stash apply` or "
        f"`git checkout -m` that could not merge); finish it: {RESOLVE.format(path=first)}"
    )


def marker_reason(root: str | os.PathLike[str], paths: list[str]) -> str | None:
    """Why writes are blocked while a changed file holds git's conflict markers, or None.

    A conflict marked resolved (``git add``) with its markers left in, or a file saved from a conflicted
    copy, is a conflict still in progress: memrepo never commits a file holding conflict markers (breaker8
    B8-6: a "Hand edits" commit of one hid both sides from every block and recall for good).

    Args:
        root: the work tree.
        paths: the changed files, repo-relative.

    Returns:
        str | None: one line naming the first such file, its marked lines and the way out.
    """
    from memrepo.engine.files.regularfile import read_work_file
    from memrepo.engine.format.conflicts import conflicted_lines

    for path in paths:
        try:
            regions = conflicted_lines(read_work_file(Path(root) / path))
        except (OSError, ValueError):
            continue
        if regions:
            where = ", ".join(f"L{first}-L{last}" for first, last in regions[:3])
            return (
                f"a conflict is in progress: {path} holds git's conflict markers at {where}, and memrepo never "
                "commits a file holding them; finish it: keep the lines you want and delete the <<<<<<< ======= "
                f">>>>>>> lines (or take the committed text back: `git checkout HEAD -- {path}`)"
            )
    return None
