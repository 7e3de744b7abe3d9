"""Reading a memory repo's history: commits, their diffs, the changes they made, undo links.

A git-capability module (it imports pygit2): :class:`GitHistory` is the part of
:class:`memrepo.engine.git.store.GitStore` that only reads commits; it returns plain
engine models, never pygit2 objects (docs/architecture.md, "Layers and contracts").
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pygit2

from memrepo.engine.errors import GitError
from memrepo.engine.models import CommitInfo

from .common import changed_blobs

WALK_MAX = 50_000
"""Commits :meth:`GitHistory.recent_writes` walks at most (its time window ends the walk long before, but
for a history written faster than about 14 commits a second)."""


FILE_WALK_MAX = 2_000
"""Commits :meth:`GitHistory.file_writes` walks at most, of any file: an editor's copy read before the last this
many commits of the repo has no base in the stale-save look (then every line memrepo added in the look is asked
about), and a line memrepo wrote before them is not named in a "Hand edits" body. Each commit costs a look-up of
the path in its tree (0.1-0.5 ms in a 2,000-file repo under load): a file changed once in 20,000 commits took
8.9-12 s at load ~13 to walk them all."""


def tree_diff(a: pygit2.Tree, b: pygit2.Tree) -> pygit2.Diff:
    """The diff from tree ``a`` to tree ``b``, with the options ``Repository.diff(a, b)`` uses.

    (pygit2's type stubs do not list trees for ``Repository.diff``; this is the call it makes.)
    """
    return a.diff_to_tree(b, context_lines=3, interhunk_lines=0)


class GitHistory:
    """The commit-reading half of a git store (mixed into :class:`~memrepo.engine.git.store.GitStore`).

    Attributes:
        root: the work tree.
        _repo: the pygit2 repository the store opened.
    """

    root: Path
    _repo: pygit2.Repository
    _packs_seen: tuple[int, int, int] | None = None

    def let_go_of_replaced_packs(self) -> bool:
        """Release libgit2's open packs when the pack folder changed since the last look.

        libgit2 keeps every pack it opened, with its delta cache and descriptor, for
        the life of the repository, even once a ``git gc`` or a repack deleted it:
        a long-running process (the app, ``memrepo watch``, the MCP server) grew
        by one pack per ``git gc`` (issue 33's soak: about 13 MB and one
        descriptor each, ``git gc`` every 2 minutes). ``Repository.free()`` drops
        them, and libgit2 opens the packs there are now at its next read. A
        stat of the folder: called where an operation starts (status, log,
        the stale-save look back), never while one holds pygit2 objects of it.

        Returns:
            bool: True when the packs were released (the folder changed since the last look).
        """
        try:
            st = os.stat(os.path.join(self._repo.path, "objects", "pack"))
        except OSError:
            return False
        seen = (st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        before, self._packs_seen = self._packs_seen, seen
        if before is None or before == seen:
            return False
        self._repo.free()
        return True

    def log(self, limit: int = 100, skip: int = 0) -> list[CommitInfo]:
        """Commits reachable from HEAD, newest first, with parsed trailers.

        Args:
            limit: at most this many commits.
            skip: leave out the newest ``skip`` commits (for paging).

        Returns:
            list[CommitInfo]: empty for an unborn HEAD.
        """
        self.let_go_of_replaced_packs()
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

    def recent_writes(self, path: str, within_s: float, limit: int) -> list[tuple[bytes | None, bytes | None, bool]]:
        """How the commits of the last ``within_s`` seconds changed ``path``: (before, after, memrepo's) each.

        The flag is True for a commit memrepo made (it carries an ``Origin:`` trailer), False for one made with
        git by hand (``git commit``, a merge by ``git pull``).

        Follows first parents from HEAD, newest first, until ``limit`` commits that changed ``path``
        are found (or :data:`WALK_MAX` commits walked); hand-edit commits (``Origin: hand_edit``) are
        skipped, as are commits that left ``path`` alone. Before, ``limit`` counted every commit: with
        writers busy elsewhere (200 commits in about 70 s in the soak) an entry written a minute before
        an editor's stale save dropped it fell out of the look, the held question vanished and the next
        hand-edit commit recorded the deletion silently. A damaged history ends the list early (the
        caller asks nothing it cannot show).
        """
        out: list[tuple[bytes | None, bytes | None, bool]] = []
        try:
            for commit, parent in self._recent_first_parents(within_s):
                if len(out) >= limit:
                    break
                if relinked(commit.message, path) or "\nOrigin: hand_edit" not in commit.message:
                    after, before = _blob_at(commit, path), _blob_at(parent, path)
                    if after != before:
                        out.append((before, after, "\nOrigin: " in commit.message))
        except (KeyError, pygit2.GitError):
            pass
        return out

    def file_writes(self, path: str, limit: int) -> Iterator[tuple[bytes | None, bytes | None, str, int]]:
        """How the newest ``limit`` commits that changed ``path`` changed it, newest first: (before, after, kind).

        No time bound: the stale-save guard looks for the version an editor's copy was read from, however
        old (:mod:`memrepo.engine.write.stalesave`). Follows first parents from HEAD, at most :data:`FILE_WALK_MAX`
        commits; a commit that left ``path`` alone is passed over by its tree entry's id (no blob is read).
        A generator: the caller stops the walk once it knows enough. A damaged history ends it early.

        Yields:
            tuple: ``path``'s bytes before and after the commit (None: absent), who made it:
            ``"memrepo"`` (an ``Origin:`` trailer other than ``hand_edit``), ``"hand_edit"`` (memrepo's
            commit of a hand edit), ``"put_back"`` (one that answered a stale save with "put back": the lines
            it added are the editor's own, saved from a copy older than the commit), ``"relink"`` (a rename's Move commit, for the MEMORY.md it relinked:
            :func:`relinked`) or ``"git"`` (``git commit``, a merge by ``git pull``), and the commit's
            time (seconds since the epoch).
        """
        self.let_go_of_replaced_packs()
        if self._repo.head_is_unborn or limit <= 0:
            return
        found = 0
        try:
            commit: pygit2.Commit | None = self._repo.head.peel(pygit2.Commit)
            after_id = _entry_id(commit, path)
            for _ in range(FILE_WALK_MAX):
                if commit is None:
                    return
                parent = commit.parents[0] if commit.parent_ids else None
                before_id = _entry_id(parent, path)
                if before_id != after_id:
                    message = commit.message
                    if relinked(message, path):
                        kind = "relink"
                    elif "\nOrigin: hand_edit" in message:
                        kind = "put_back" if "\nAnswer: put back" in message else "hand_edit"
                    else:
                        kind = "memrepo" if "\nOrigin: " in message else "git"
                    yield _blob_at(parent, path), _blob_at(commit, path), kind, commit.commit_time
                    found += 1
                    if found >= limit:
                        return
                commit, after_id = parent, before_id
        except (KeyError, pygit2.GitError):
            return

    def recent_removals(self, within_s: float) -> list[tuple[str, bytes, bytes | None, float]]:
        """What memrepo's own commits of the last ``within_s`` seconds changed: (path, before, after, time) each.

        For compaction, which erases the history the stale-save guard reads (:mod:`memrepo.engine.write.forgotlines`).
        Only commits with an ``Origin:`` trailer other than ``hand_edit`` count; a file a commit added is left
        out (nothing was removed from it). Follows first parents from HEAD, newest first; a damaged history
        ends the list early.

        Returns:
            list: (repo-relative path, its bytes before, after or None when deleted, the commit's time in
            seconds since the epoch).
        """
        out: list[tuple[str, bytes, bytes | None, float]] = []
        try:
            for commit, parent in self._recent_first_parents(within_s):
                if parent is None:
                    break
                if "\nOrigin: " in commit.message and "\nOrigin: hand_edit" not in commit.message:
                    when = float(commit.commit_time)
                    out += [(path, a, b, when) for path, a, b in changed_blobs(self._repo, parent.tree, commit.tree)]
        except (KeyError, pygit2.GitError):
            pass
        return out

    def recently_changed(self, within_s: float, limit: int = 200) -> list[str]:
        """The paths the first-parent commits of the last ``within_s`` seconds changed (at most ``limit``
        commits), newest commit first, each once: where lines pasted in an earlier look can be
        (:func:`memrepo.engine.write.moves.held_in_head`). Tree diffs only, no blob read; a damaged history
        ends the list early."""
        out: dict[str, None] = {}
        try:
            for n, (commit, parent) in enumerate(self._recent_first_parents(within_s)):
                if n >= limit:
                    break
                diff = parent.tree.diff_to_tree(commit.tree) if parent is not None else commit.tree.diff_to_tree()
                for delta in diff.deltas:
                    out.setdefault(delta.new_file.path, None)
        except (KeyError, pygit2.GitError):
            pass
        return list(out)

    def _recent_first_parents(self, within_s: float) -> Iterator[tuple[pygit2.Commit, pygit2.Commit | None]]:
        """(commit, its first parent or None) from HEAD back, newest first, while commits are under ``within_s``
        seconds old, at most :data:`WALK_MAX`; nothing on an unborn HEAD. A damaged object raises KeyError or
        pygit2.GitError from the iteration (the callers end their list there)."""
        import time

        self.let_go_of_replaced_packs()
        if self._repo.head_is_unborn:
            return
        since = time.time() - within_s
        commit: pygit2.Commit | None = self._repo.head.peel(pygit2.Commit)
        for _ in range(WALK_MAX):
            if commit is None or commit.commit_time < since:
                return
            parent = commit.parents[0] if commit.parent_ids else None
            yield commit, parent
            commit = parent

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

    def _diff_of(self, rev: str) -> pygit2.Diff:
        """Commit ``rev``'s diff against its first parent (against nothing for the first commit).

        Raises:
            GitError: no such commit.
        """
        commit = self._commit(rev)
        parent = commit.parents[0].tree if commit.parents else None
        return tree_diff(parent, commit.tree) if parent is not None else commit.tree.diff_to_tree(swap=True)

    def commit_diff(self, rev: str) -> str:
        """The unified diff a commit made against its first parent (the whole tree for the first commit).

        Args:
            rev: a full or short commit id.

        Returns:
            str: the patch text (``diff --git`` format), empty when nothing changed.

        Raises:
            GitError: no such commit.
        """
        return self._diff_of(rev).patch or ""

    def commit_diff_start(self, rev: str, max_lines: int) -> tuple[str, int]:
        """The start of :meth:`commit_diff`: whole files' patches until ``max_lines`` lines are reached.

        A commit that touched every file (an import, the first commit, the one
        compaction leaves) has a patch of tens of megabytes at 20,000 files;
        the History pane shows a few thousand lines of it, so only the files it
        shows are made into text (docs/architecture.md §8).

        Args:
            rev: a full or short commit id.
            max_lines: stop after the file whose patch reaches this many lines in all.

        Returns:
            tuple[str, int]: the patch text of the first files, and how many
            changed files were left out (0 when the whole diff is there).

        Raises:
            GitError: no such commit.
        """
        diff = self._diff_of(rev)
        parts: list[str] = []
        lines = shown = 0
        total = len(diff)
        for patch in diff:  # one file's patch made at a time
            if lines >= max_lines:
                break
            text = (patch.text if patch is not None else None) or ""  # None: a delta with no patch
            parts.append(text)
            lines += text.count("\n")
            shown += 1
        return "".join(parts), total - shown

    def commit_changes(self, rev: str) -> tuple[CommitInfo, dict[str, tuple[bytes | None, bytes | None]]]:
        """The files one commit changed, with their bytes before and after it.

        Args:
            rev: a full or short commit id.

        Returns:
            tuple: the commit, and each changed path's ``(before, after)``
            bytes (None where the file did not exist).

        Raises:
            GitError: no such commit, one not in HEAD's history (a compaction
                dropped it; a killed one may leave part of its objects), or a
                merge commit or the first commit (no single parent to compare with).
        """
        commit = self._commit(rev)
        info = self._commit_info(commit)
        if len(commit.parent_ids) != 1:
            what = "the first commit" if not commit.parent_ids else "a merge"
            raise GitError(f"cannot undo {info.short_id} ({info.summary}): it is {what}")
        gone = GitError(f"cannot undo {info.short_id} ({info.summary}): it is not in the history (compacted away)")
        try:
            head = None if self._repo.head_is_unborn else self._repo.head.target
            if head is None or (head != commit.id and not self._repo.descendant_of(head, commit.id)):
                raise gone
            changes: dict[str, tuple[bytes | None, bytes | None]] = {}
            for delta in tree_diff(commit.parents[0].tree, commit.tree).deltas:
                old = None if delta.status_char() == "A" else self._repo[delta.old_file.id].read_raw()
                new = None if delta.status_char() == "D" else self._repo[delta.new_file.id].read_raw()
                if delta.old_file.path != delta.new_file.path:
                    changes[delta.old_file.path] = (old, None)
                    changes[delta.new_file.path] = (None, new)
                else:
                    changes[delta.new_file.path] = (old, new)
        except (KeyError, pygit2.GitError) as exc:  # a compaction killed half-way left part of its objects
            raise gone from exc
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
        walker = self._repo.walk(self._repo.head.target, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.TIME)
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


def _blob_at(commit: pygit2.Commit | None, path: str) -> bytes | None:
    """``path``'s bytes in ``commit``'s tree, or None (no commit, no such file, not a file)."""
    if commit is None:
        return None
    try:
        obj = commit.tree[path]
    except KeyError:
        return None
    return obj.data if isinstance(obj, pygit2.Blob) else None


def _entry_id(commit: pygit2.Commit | None, path: str) -> pygit2.Oid | None:
    """The id of ``path``'s tree entry in ``commit`` (None: no commit or no such path); no blob is read."""
    if commit is None:
        return None
    try:
        return commit.tree[path].id
    except KeyError:
        return None


RELINKED = "Relinked"
"""The trailer a rename's "Move" commit carries when it relinked MEMORY.md's index (``Relinked: MEMORY.md``)."""


def relinked(message: str, path: str) -> bool:
    """Whether the commit ``message`` relinked ``path`` (MEMORY.md) for a rename: memrepo's change of that file,
    though the commit is a hand edit's, so a stale copy of MEMORY.md dropping the new link and bringing the
    old one back is asked about (breaker10 B10-3; :mod:`memrepo.engine.write.stalesave`)."""
    return f"\n{RELINKED}: {path}\n" in message
