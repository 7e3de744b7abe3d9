"""Merge two commits' trees: git's merge, with an entry-aware merge for the files memrepo reads (docs/architecture.md §2).

Sync (:mod:`memrepo.engine.sync.sync`) passes the entry merge for markdown
files; every other path keeps git's own three-way merge.
"""

from __future__ import annotations

from collections.abc import Callable

import pygit2

from .common import has_conflict, tree_mode
from .history import tree_diff


def merge_trees(
    repo: pygit2.Repository,
    base: str | None,
    ours: str,
    theirs: str,
    merge_file: Callable[[str, bytes | None, bytes | None, bytes | None], bytes | None],
    wants: Callable[[str], bool],
) -> tuple[str, list[str]]:
    """Merge two commits' trees: git's merge, with ``merge_file`` for the paths ``wants`` names.

    Args:
        repo: the repository holding the three commits.
        base: the merge base commit, or None (unrelated histories: an empty base).
        ours: our commit; theirs: their commit.
        merge_file: ``(path, base, ours, theirs) -> bytes | None`` for a path
            changed on both sides (None in: missing on that side; None out: delete).
            It may raise :class:`memrepo.engine.errors.FormatError` to leave the path to git.
        wants: which paths ``merge_file`` handles (markdown files).

    Returns:
        tuple[str, list[str]]: the merged tree's id, and the paths git's
        merge left in conflict (the tree is then not to be used).
    """
    from memrepo.engine.errors import FormatError

    empty = repo.TreeBuilder().write()
    base_tree = repo[base].peel(pygit2.Tree) if base else repo[empty].peel(pygit2.Tree)
    our_tree = repo[ours].peel(pygit2.Tree)
    their_tree = repo[theirs].peel(pygit2.Tree)
    index = repo.merge_trees(base_tree, our_tree, their_tree)
    ours_changed = _changed(base_tree, our_tree)
    theirs_changed = _changed(base_tree, their_tree)
    for path in sorted(ours_changed & theirs_changed):
        if not wants(path):
            continue
        blobs = [_blob(tree, path) for tree in (base_tree, our_tree, their_tree)]
        try:
            merged = merge_file(path, *blobs)
        except FormatError:
            continue  # not text: git's own merge decides
        if index.conflicts is not None and has_conflict(index, path):
            del index.conflicts[path]
        if merged is None:
            if path in index:
                index.remove(path)
            continue
        mode = pygit2.enums.FileMode(
            tree_mode(our_tree, path) or tree_mode(their_tree, path) or pygit2.enums.FileMode.BLOB
        )
        index.add(pygit2.IndexEntry(path, repo.create_blob(merged), mode))
    conflicted = sorted(
        {(e[1] or e[2] or e[0]).path for e in index.conflicts} if index.conflicts is not None else set()
    )
    if conflicted:
        return "", conflicted
    return str(index.write_tree(repo)), []


def _changed(a: pygit2.Tree, b: pygit2.Tree) -> set[str]:
    out: set[str] = set()
    for delta in tree_diff(a, b).deltas:
        out.add(delta.old_file.path)
        out.add(delta.new_file.path)
    return out


def _blob(tree: pygit2.Tree, path: str) -> bytes | None:
    try:
        obj = tree[path]
    except KeyError:
        return None
    return obj.data if isinstance(obj, pygit2.Blob) else None
