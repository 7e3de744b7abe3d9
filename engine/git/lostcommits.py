"""memrepo's own commits that a git command beside it took out of the branch (docs/architecture.md §3, §9).

A write memrepo applied in the instant a person's ``git rebase`` started (a kept write from ``pending/`` applied
the moment the previous rebase's state folder went) was dropped by that rebase's ``--abort``, which resets the
branch to where the rebase began: the commit was left in the reflog only and ``status`` said clean (breaker24
B24-10). :func:`lost_commits` reads the branch's reflog of the last :data:`WINDOW_S` seconds for commits memrepo
made (an ``Origin:`` trailer) that the branch no longer holds, and keeps those whose new lines the branch never
held since (a rebase or an amend copies a commit under a new id with its lines: not lost; a line forgotten after
it was rebased was held, then removed on the branch: not lost). Health names each with the way to put it back.

Lines the work tree holds again are not lost (the next look commits them). Lines a ``git stash`` entry holds are
named with that stash, not blamed on a rebase: ``git stash`` resets the branch to the commit it read when it
started, so a commit memrepo made in that instant left the branch while its lines went into the stash
(breaker28 B28-3); ``git stash pop`` puts them back, a ``git cherry-pick`` beside it would add them twice.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import pygit2

WINDOW_S = 3600.0
"""How far back (seconds) the reflog is read: a write lost longer ago was named for an hour."""
REFLOG_MAX = 200
"""Reflog entries read at most, newest first."""
WALK_MAX = 2000
"""Commits of the branch read at most for the lines it held within the window."""
_NONE = pygit2.Oid(hex="0" * 40)


@dataclass
class Lost:
    """One commit of memrepo's that the branch dropped.

    Attributes:
        commit: its full id (``git cherry-pick <id>`` puts it back).
        subject: its first line.
        lines: the lines it added that the branch never held since.
    """

    commit: str
    subject: str
    lines: list[str]
    stash: str | None = None
    """The stash entry holding every one of ``lines`` (``stash@{0}``), or None."""


def _added(repo: pygit2.Repository, commit: pygit2.Commit) -> dict[str, list[bytes]]:
    """{path: the lines ``commit`` added to it against its first parent}, markdown files only."""
    out: dict[str, list[bytes]] = {}
    if not commit.parents:
        return out  # a root (a compaction's): nothing it added can be told apart from what it kept
    diff = commit.parents[0].tree.diff_to_tree(commit.tree)  # from the parent to the commit
    for delta in diff.deltas:
        path = delta.new_file.path
        if not path.endswith(".md") or delta.new_file.id == _NONE:
            continue
        new = repo[delta.new_file.id].peel(pygit2.Blob).data.splitlines()
        old = set() if delta.old_file.id == _NONE else set(repo[delta.old_file.id].peel(pygit2.Blob).data.splitlines())
        lines = [line for line in new if line.strip() and line not in old]
        if lines:
            out[path] = lines
    return out


def _held(repo: pygit2.Repository, head: pygit2.Oid, paths: set[str], since: float) -> dict[str, set[bytes]]:
    """{path: every line the branch's commits since ``since`` (and the one before) held in it}."""
    held: dict[str, set[bytes]] = {p: set() for p in paths}
    blobs: set[pygit2.Oid] = set()
    for count, commit in enumerate(repo.walk(head, pygit2.enums.SortMode.TIME)):
        for path in paths:
            try:
                oid = commit.tree[path].id
            except KeyError:
                continue
            if oid not in blobs:
                blobs.add(oid)
                held[path].update(repo[oid].peel(pygit2.Blob).data.splitlines())
        if commit.commit_time < since or count >= WALK_MAX:
            break
    return held


def _recent_ancestors(repo: pygit2.Repository, head: pygit2.Oid, since: float) -> set[pygit2.Oid]:
    """The branch's commits back to ``since`` (one walk; a reflog entry among them needs no ancestry test)."""
    out = set()
    for count, commit in enumerate(repo.walk(head, pygit2.enums.SortMode.TIME)):
        out.add(commit.id)
        if commit.commit_time < since or count >= WALK_MAX:
            break
    return out


def _moved_on(git_dir: Path, head: pygit2.Oid, gone: list[pygit2.Commit]) -> tuple[pygit2.Oid, list[pygit2.Commit]]:
    """The branch's head read again, and the commits of ``gone`` it does not hold: a write that committed between
    the first read of the head and the read of the reflog is on the branch, not lost (breaker29 B29-5: ``status``
    beside ``memrepo remember`` named such a commit as a lost write, advising a cherry-pick of what was there)."""
    fresh = pygit2.Repository(str(git_dir))
    if fresh.head_is_unborn or fresh.head_is_detached:
        return head, gone
    now_head = fresh.head.peel(pygit2.Commit).id
    if now_head == head:
        return head, gone
    return now_head, [c for c in gone if c.id != now_head and not fresh.descendant_of(now_head, c.id)]


def _file_lines(data: bytes | None) -> set[bytes]:
    return set() if data is None else set(data.splitlines())


def _stashes(repo: pygit2.Repository, paths: set[str]) -> list[tuple[str, dict[str, set[bytes]]]]:
    """``[(stash@{n}, {path: its lines in that stash's work tree})]``, newest first; empty without stashes."""
    ref = repo.references.get("refs/stash")
    if ref is None:
        return []
    out: list[tuple[str, dict[str, set[bytes]]]] = []
    for n, entry in enumerate(ref.log()):
        if n >= REFLOG_MAX:
            break
        found = repo.get(entry.oid_new)
        if not isinstance(found, pygit2.Commit):
            continue
        lines: dict[str, set[bytes]] = {}
        for path in paths:
            try:
                lines[path] = _file_lines(repo[found.tree[path].id].peel(pygit2.Blob).data)
            except KeyError:
                lines[path] = set()
        out.append((f"stash@{{{n}}}", lines))
    return out


def _work_tree_lines(root: Path, paths: set[str]) -> dict[str, set[bytes]]:
    out = {}
    for path in paths:
        try:
            out[path] = _file_lines((root / path).read_bytes())
        except OSError:
            out[path] = set()
    return out


def lost_commits(git_dir: Path, now: float | None = None) -> list[Lost]:
    """memrepo's commits of the last :data:`WINDOW_S` the branch dropped with lines it never held since, newest first.

    Empty for an unborn or detached HEAD, a damaged reflog, or when every commit memrepo made is still there.
    """
    now = time.time() if now is None else now
    try:
        repo = pygit2.Repository(str(git_dir))
        if repo.head_is_unborn or repo.head_is_detached:
            return []
        ref = repo.references[repo.head.name]
        head = repo.head.peel(pygit2.Commit).id
        gone: list[pygit2.Commit] = []
        seen: set[pygit2.Oid] = _recent_ancestors(repo, head, now - WINDOW_S - 60)
        for count, entry in enumerate(ref.log()):
            if count >= REFLOG_MAX or now - entry.committer.time > WINDOW_S:
                break
            if (entry.message or "").startswith("memrepo"):
                break  # memrepo moved the branch itself (a sync, an adopted compaction, a dream's accept)
            oid = entry.oid_new
            if oid in seen or oid == head:
                continue
            seen.add(oid)
            found = repo.get(oid)
            if not isinstance(found, pygit2.Commit) or "\nOrigin: " not in found.message:
                continue
            if not repo.descendant_of(head, oid):
                gone.append(found)
        if gone:
            head, gone = _moved_on(git_dir, head, gone)
        if not gone:
            return []
        added = {str(c.id): _added(repo, c) for c in gone}
        paths = {p for found in added.values() for p in found}
        held = _held(repo, head, paths, now - WINDOW_S - 60)
        here = _work_tree_lines(Path(repo.workdir), paths) if repo.workdir else {}
        stashes = _stashes(repo, paths)
    except (KeyError, ValueError, pygit2.GitError):
        return []
    out = []
    for commit in gone:
        missing = [
            (path, line)
            for path, lines in added[str(commit.id)].items()
            for line in lines
            if line not in held.get(path, set()) and line not in here.get(path, set())
        ]
        if missing:
            stash = next((n for n, kept in stashes if all(line in kept[path] for path, line in missing)), None)
            text = [line.decode("utf-8", "replace") for _path, line in missing]
            out.append(Lost(str(commit.id), commit.message.split("\n", 1)[0], text, stash))
    return out


def lost_text(git_dir: Path) -> str | None:
    """Health's text for the writes a git command beside memrepo dropped, or None when there are none."""
    lost = lost_commits(git_dir)
    if not lost:
        return None
    shown = "; ".join(f"{c.commit[:7]} {c.subject!r}" for c in lost[:3])
    more = f" and {len(lost) - 3} more" if len(lost) > 3 else ""
    if all(c.stash for c in lost):  # every one is in a stash: popping it puts the lines back, no cherry-pick
        stashes = sorted({str(c.stash) for c in lost}, key=lambda name: -int(name[7:-1]))  # the oldest popped first
        pops = ", then ".join(f"`git stash pop {name}`" for name in stashes)
        return (
            f"{len(lost)} write{'s' * (len(lost) != 1)} memrepo committed left the branch (a `git stash` beside "
            f"it?) and {'its' if len(lost) == 1 else 'their'} lines are in no file but in {' and '.join(stashes)}: "
            f"{shown}{more}; {pops} puts them back (`git stash show -p {stashes[-1]}` shows them; on a conflict "
            "keep both sides, `git add` the file, then `git stash drop`)"
        )
    ids = " ".join(c.commit[:12] for c in reversed(lost))
    return (
        f"{len(lost)} write{'s' * (len(lost) != 1)} memrepo committed left the branch (a git rebase --abort, reset "
        f"or amend beside it?) and {'its' if len(lost) == 1 else 'their'} lines are in no file: {shown}{more}; "
        f"put {'it' if len(lost) == 1 else 'them'} back with `git cherry-pick {ids}` in the memory repo"
    )
