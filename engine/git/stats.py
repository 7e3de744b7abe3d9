"""Git plumbing for memory stats: walk the history once, oldest first (docs/architecture.md §9).

A git-capability module (it imports pygit2, like :mod:`memrepo.engine.git.store`):
it knows nothing of entries; :mod:`memrepo.engine.history.stats` reads the bytes it yields.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

import pygit2

from memrepo.engine.errors import GitError

from .history import tree_diff


@dataclass(slots=True)
class HistoryStep:
    """One commit of the first-parent history, with what it did to the markdown files.

    Attributes:
        id: the full commit id.
        time: the commit time (UTC).
        summary: the first line of the message.
        trailers: the message's trailers (``Origin``, ``Task``, …).
        merge: True for a merge commit (its changes are the merged side's: left empty).
        changes: changed ``.md`` path -> (bytes before, bytes after); None where missing.
        memory_md_bytes: the size of ``MEMORY.md`` after the commit (0 when missing).
        tree_bytes: the total size of every file after the commit (bytes), only on
            sampled steps (see :func:`walk_history`), else None.
    """

    id: str
    time: datetime
    summary: str
    trailers: dict[str, str]
    merge: bool
    changes: dict[str, tuple[bytes | None, bytes | None]] = field(default_factory=dict)
    memory_md_bytes: int = 0
    tree_bytes: int | None = None


def _tree_bytes(repo: pygit2.Repository, tree: pygit2.Tree) -> int:
    total = 0
    stack = [tree]
    while stack:
        for item in stack.pop():
            if item.type_str == "tree":
                stack.append(repo[item.id].peel(pygit2.Tree))
            elif item.type_str == "blob":
                total += cast(pygit2.Blob, repo[item.id]).size
    return total


def walk_history(root: Path, max_commits: int = 20_000, sample_every_days: float = 7.0) -> Iterator[HistoryStep]:
    """The first-parent history of HEAD, oldest first.

    Args:
        root: the memory repo's work tree.
        max_commits: at most this many of the newest commits are read.
        sample_every_days: a step carries ``tree_bytes`` when at least this many
            days passed since the last sampled step (the first and last steps
            are always sampled), so sizes over time cost a few tree walks.

    Yields:
        HistoryStep: one per commit.

    Raises:
        GitError: the repository cannot be opened or its history is damaged.
    """
    try:
        repo = pygit2.Repository(str(root))
    except (pygit2.GitError, KeyError) as exc:
        raise GitError(f"cannot open the git repository at {root}: {exc}") from exc
    if repo.head_is_unborn:
        return
    commits: list[pygit2.Commit] = []
    try:
        commit: pygit2.Commit | None = repo.head.peel(pygit2.Commit)
        while commit is not None and len(commits) < max_commits:
            commits.append(commit)
            commit = commit.parents[0] if commit.parents else None
    except (KeyError, pygit2.GitError) as exc:
        raise GitError(f"the history is damaged after {len(commits)} commits: {exc}; run git fsck in {root}") from exc
    commits.reverse()
    last_sample: float | None = None
    for n, commit in enumerate(commits):
        try:
            trailers = dict(commit.message_trailers)
        except (pygit2.GitError, ValueError):
            trailers = {}
        when = datetime.fromtimestamp(commit.commit_time, UTC)
        step = HistoryStep(
            id=str(commit.id),
            time=when,
            summary=commit.message.split("\n", 1)[0],
            trailers=trailers,
            merge=len(commit.parent_ids) > 1,
        )
        tree = commit.tree
        if "MEMORY.md" in tree:
            step.memory_md_bytes = cast(pygit2.Blob, repo[tree["MEMORY.md"].id]).size
        if not step.merge:
            diff = tree_diff(commit.parents[0].tree, tree) if commit.parents else tree.diff_to_tree(swap=True)
            for delta in diff.deltas:
                status = delta.status_char()
                old_path, new_path = delta.old_file.path, delta.new_file.path
                if not (old_path.endswith(".md") or new_path.endswith(".md")):
                    continue
                before = None if status == "A" else repo[delta.old_file.id].read_raw()
                after = None if status == "D" else repo[delta.new_file.id].read_raw()
                if old_path == new_path:
                    step.changes[old_path] = (before, after)
                    continue
                if old_path.endswith(".md"):
                    step.changes[old_path] = (before, None)
                if new_path.endswith(".md"):
                    step.changes[new_path] = (None, after)
        days = commit.commit_time / 86400.0
        if n == 0 or n == len(commits) - 1 or last_sample is None or days - last_sample >= sample_every_days:
            step.tree_bytes = _tree_bytes(repo, tree)
            last_sample = days
        yield step
