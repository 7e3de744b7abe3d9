"""Sync through one private git remote, merged entry by entry.

Git is the distributed engine: no server of ours. One remote (``origin``), set
only after a person confirms it is private (:func:`set_remote`). :func:`sync`
fetches, fast-forwards when it can, otherwise merges (markdown files entry by
entry with :mod:`memrepo.engine.format.merge`, other files with git's merge), pushes,
and when the push is rejected because the remote moved meanwhile, fetches,
merges and pushes again (bounded). Never a force push; the one forced update
is :func:`replace_remote_history`, named as such, for compaction after
explicit confirmation.

Locking: the write lock (:mod:`memrepo.engine.files.lock`) is held for the local steps only
(commit hand edits, merge, update the work tree and the branch), never across
the network: a fetch or push over a slow link would otherwise make every
writer fail with "busy" after 5 s. Fetch only moves ``refs/remotes/origin/<branch>``
and push only reads the branch, so neither races a writer; a writer that commits
between the merge and the push is simply pushed too (or by the next sync).

Sync follows the branch HEAD names, whatever it is (``main`` in a repo memrepo
made, ``master`` or ``trunk`` in one made with stock git and adopted), and
pushes it to the remote's branch of the same name. A repo joining a remote
that keeps its memory on another branch (this repo on ``master``, the remote
on ``main``) follows the remote's only (or default) branch, keeping its own
branch's name, and merges entry by entry: joining never empties a local file.
It never says "up to date" without having compared both sides; a remote with
several branches, none of them this one's and none its default, is a problem
sync cannot solve: named, raised, and FAIL in Health.

Offline is normal: a failed fetch or push raises :class:`UnreachableRemote`,
local commits stay queued, and ``.git/memrepo/sync.json`` records the last
successful sync and the last error for :func:`sync_state`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from memrepo.engine.config import SyncSettings
from memrepo.engine.errors import BusyError, MemrepoError, SyncConflict, SyncError, UnreachableRemote
from memrepo.engine.format.merge import merge_entries
from memrepo.engine.git.remote import GitRemote, PushRejected, RemoteRefLocked
from memrepo.engine.git.store import format_message
from memrepo.engine.models import SyncResult
from memrepo.engine.write.ports import WriteAccess

from .remoteset import STATE_FILE as STATE_FILE  # the remote and its state, re-exported: front ends import them here
from .remoteset import creds, read_state, stamp_now, write_state
from .remoteset import refuse_password as refuse_password
from .remoteset import remote_url as remote_url
from .remoteset import remove_remote as remove_remote
from .remoteset import set_remote as set_remote
from .remoteset import sync_state as sync_state

__all__ = [
    "PushRejected",
    "UnreachableRemote",
    "refuse_password",
    "remote_url",
    "remove_remote",
    "replace_remote_history",
    "set_remote",
    "sync",
    "sync_state",
]


def _merge_file(conflicts: list[str]) -> Callable[[str, bytes | None, bytes | None, bytes | None], bytes | None]:
    def merge(path: str, base: bytes | None, ours: bytes | None, theirs: bytes | None) -> bytes | None:
        if ours is None or theirs is None:
            # Removed on one side: kept as the other side changed it (nothing lost);
            # removed on both: gone.
            return theirs if ours is None else ours
        result = merge_entries(base, ours, theirs)
        conflicts.extend(f"{path}: {c.id}" for c in result.conflicts)
        return result.data

    return merge


def _is_markdown(path: str) -> bool:
    return path.lower().endswith((".md", ".markdown"))


def _open(store: WriteAccess, settings: SyncSettings) -> tuple[GitRemote, str]:
    remote = GitRemote(store.root, creds(settings))
    url = remote.shown_url()
    if url is None:
        raise SyncError("no remote is set: run memrepo remote set URL first")
    if not remote.confirmed_private():
        raise SyncError(
            f"the remote {url} was not confirmed private by memrepo: run memrepo remote set URL to confirm it"
        )
    return remote, url


def _integrate(store: WriteAccess, remote: GitRemote, url: str, theirs: str | None, result: SyncResult) -> None:
    """Under the write lock: bring the remote's commits into main (fast-forward or merge)."""
    with store.lock.hold("sync"):
        ours = remote.local_id()
        if theirs is None or theirs == ours or (ours is not None and remote.is_ancestor(theirs, ours)):
            return  # nothing to take: the hand edits committed at the start are pushed as they are
        store.commit_hand_edits(None)  # the work tree must match main before it moves
        ours = remote.local_id()
        behind = remote.ahead_behind(ours, theirs)[1] if ours else remote.commit_count(theirs)
        if ours is None or remote.is_ancestor(ours, theirs):
            remote.move_main(theirs, ours)
            result.received += behind
            result.action = "fast_forwarded" if result.action in ("up_to_date", "fast_forwarded") else "merged"
            return
        base = remote.merge_base(ours, theirs)
        conflicts: list[str] = []
        tree, conflicted = remote.merge_trees(base, ours, theirs, _merge_file(conflicts), _is_markdown)
        if conflicted:
            raise SyncConflict(conflicted)
        body = ""
        if conflicts:
            body = "Both machines changed these entries; both versions are kept (conflict: key):\n" + "\n".join(
                conflicts
            )
        message = format_message(f"Sync: merge {theirs[:7]} from {url}", {"Origin": "sync"}, body=body)
        merge = remote.commit_merge(tree, ours, theirs, message)
        remote.move_main(merge, ours)
        result.received += behind
        result.conflicts.extend(conflicts)
        result.action = "merged"


COMPACT_TRAILER = re.compile(r"^Origin: compact$", re.MULTILINE)
"""The trailer of the root commit :func:`memrepo.engine.history.compact.compact` writes."""

ADOPTED = "the remote was compacted on another machine: adopted its history"
"""Start of :attr:`SyncResult.notice` when a sync adopted a compacted remote."""


def _replaced_by_compaction(remote: GitRemote, theirs: str | None) -> bool:
    """True when the remote's ``main`` was replaced by a compaction: unrelated to local ``main``,
    its root commit carries ``Origin: compact``."""
    ours = remote.local_id()
    if theirs is None or ours is None or remote.merge_base(ours, theirs) is not None:
        return False
    return COMPACT_TRAILER.search(remote.root_message(theirs)) is not None


def _adopt(
    store: WriteAccess,
    remote: GitRemote,
    url: str,
    theirs: str,
    candidates: list[str | None],
    settings: SyncSettings,
    result: SyncResult,
) -> GitRemote:
    """Adopt a remote whose history a compaction on another machine replaced.

    Never merges or pushes the old local history: the changes made here
    since ``known`` (the remote's ``main`` as last seen: the first of
    ``candidates``, the remote-tracking ref before the fetch and the
    ``remote_head`` of the last successful sync, that is in local ``main``'s
    history) are merged entry by entry against ``known`` onto ``theirs`` as
    one commit whose only parent
    is ``theirs``; with none, ``main`` simply moves to ``theirs``. Then the
    old history is dropped from this ``.git`` too
    (:func:`memrepo.engine.history.compact.drop_old_history`), so the text the other machine
    forgot is gone here as well. Without a known base (never synced) every
    local entry is kept: nothing is lost, but text forgotten elsewhere may
    come back and is then pushed as a new entry.

    Returns:
        GitRemote: a fresh handle (old packs are gone from the object database).

    Raises:
        SyncConflict: a non-markdown file conflicts; ``main`` is unchanged.
    """
    from memrepo.engine.history.compact import drop_old_history

    with store.lock.hold("sync"):
        store.commit_hand_edits(None)
        ours = remote.local_id()
        assert ours is not None  # _replaced_by_compaction checked it
        known = next(
            (c for c in candidates if c and remote.has_commit(c) and remote.merge_base(ours, c) is not None), None
        )
        if known is not None:  # what the other machine removed since: its compaction erased the commits saying so
            _guard_removals(store, remote.removed_blobs(known, theirs))
        kept = ""
        if known is not None and remote.is_ancestor(ours, known):
            remote.move_main(theirs, ours)
        else:
            conflicts: list[str] = []
            tree, conflicted = remote.merge_trees(known, ours, theirs, _merge_file(conflicts), _is_markdown)
            if conflicted:
                raise SyncConflict(conflicted)
            if tree == remote.tree_id(theirs):
                remote.move_main(theirs, ours)
            else:
                since = f" since {known[:7]}" if known else ""
                message = format_message(
                    f"Sync: changes made here{since}, onto the compacted history of {url}",
                    {"Origin": "sync"},
                    body="The remote's history was replaced by a compaction on another machine; the old "
                    "local history was not merged.",
                )
                remote.move_main(remote.commit_on(tree, theirs, message), ours)
                result.conflicts.extend(conflicts)
                kept = "; the changes made here were kept in one new commit"
        cleaned = drop_old_history(store, {remote.tracking_ref: theirs})
    result.action = "adopted"
    result.received += 1
    result.notice = (
        f"{ADOPTED}{kept}; the old history was dropped here too ({cleaned.removed_object_files} object file(s))"
    )
    return GitRemote(store.root, creds(settings))


def _guard_removals(store: WriteAccess, removed: list[tuple[str, bytes, bytes | None]]) -> None:
    """Keep the keyed hashes of the entry lines an adopted compaction took out since the last sync
    (:mod:`memrepo.engine.write.forgotlines`), guarded for an hour from now: an editor's copy read here before
    the sync still holds them, and the stale-save guard would not see the removals in the erased history.

    Every line the other side removed counts (a forget, a dream's delete, a hand edit): its history is gone,
    so who removed it is not known; a save holding one is asked about, never committed silently.
    """
    import contextlib
    import time

    from memrepo.engine.write import forgotlines
    from memrepo.engine.write.stalesave import WINDOW_S

    now = time.time()
    with contextlib.suppress(OSError):  # an unwritable state folder loses the guard for this hour, not the sync
        forgotlines.record(store.state_dir, [(path, a, b, now) for path, a, b in removed], WINDOW_S)


def sync(
    store: WriteAccess,
    settings: SyncSettings | None = None,
    *,
    before_push: Callable[[], None] | None = None,
) -> SyncResult:
    """Sync the memory repo with its remote: fetch, fast-forward or merge, push.

    Hand edits are committed first. Markdown files both sides changed are
    merged entry by entry (:func:`memrepo.engine.format.merge.merge_entries`: never
    conflict markers; an entry both changed differently keeps both versions
    with a ``conflict:`` key). A rejected push fetches, merges and pushes
    again, at most ``settings.push_retries`` times. Never a force push.
    When the remote's ``main`` was replaced by a compaction on another
    machine (unrelated to local ``main``, its root commit says ``Origin:
    compact``), it is adopted instead of merged (:func:`_adopt`): action
    ``adopted``, with ``notice`` saying so.

    Args:
        store: the open store (its thread runs this; the network steps run
            without the write lock, see the module docstring).
        settings: ``[sync]`` settings (credentials, retries); ``store.settings.sync`` when None.
        before_push: called right before each push (tests use it to make
            another machine push first, a real race).

    Returns:
        SyncResult: what was done.

    Raises:
        SyncError: no remote, or not confirmed private, or the remote kept
            moving for every retry.
        SyncConflict: a non-markdown file conflicts; ``main`` is unchanged.
        UnreachableRemote: offline or refused credentials; commits stay queued.
        BlockedError, BusyError: the work tree is blocked, or the lock busy.
        GitError: libgit2 failed otherwise.

    Every outcome is recorded in ``.git/memrepo/sync.json`` (:func:`sync_state`).
    """
    settings = settings if settings is not None else store.settings.sync
    tries = settings.push_retries
    remote, url = _open(store, settings)
    result = SyncResult(remote=url, action="up_to_date")
    write_state(store.root, last_attempt=stamp_now(), remote=url)
    recorded = read_state(store.root).get("remote_head")
    known = [remote.tracking_id(), recorded if isinstance(recorded, str) else None]
    try:
        joined = _check_branch(store.root, remote)
        with store.lock.hold("sync"):
            store.commit_hand_edits(None)
        for attempt in range(tries + 1):
            theirs = remote.fetch()
            if _replaced_by_compaction(remote, theirs):
                assert theirs is not None
                remote = _adopt(store, remote, url, theirs, known, settings, result)
            _integrate(store, remote, url, theirs, result)
            local = remote.local_id()
            if local is None:
                # never "up to date" without two sides compared: an unborn branch has nothing to compare
                raise SyncError(f"nothing to sync: the branch {remote.branch} has no commits here or on the remote")
            if theirs is not None and remote.is_ancestor(local, theirs):
                break  # both sides compared: nothing of ours the remote lacks
            if before_push is not None:
                before_push()
            try:
                sent = remote.ahead_behind()[0]
                remote.push()
            except PushRejected as exc:
                if attempt == tries and isinstance(exc, RemoteRefLocked):
                    raise BusyError(
                        f"the remote's branch stayed locked for {tries + 1} pushes ({exc}): another push is "
                        "running there, or one was killed; when no other sync runs, delete that lock file"
                    ) from None
                if attempt == tries:
                    raise SyncError(
                        f"the remote kept moving: the push was rejected {tries + 1} times; sync again (last: {exc})"
                    ) from None
                result.retries += 1
                continue
            result.sent = sent
            if result.action == "up_to_date":
                result.action = "pushed"
            break
    except MemrepoError as exc:
        write_state(store.root, last_error=str(exc))
        raise
    write_state(store.root, last_sync=stamp_now(), last_error=None, remote_head=remote.tracking_id())
    result.head = remote.local_id()
    if remote.pointed_head:
        joined = "; ".join(filter(None, [joined, _pointed(remote.remote_branch)]))
    if joined:
        result.notice = f"{result.notice}; {joined}" if result.notice else joined
    return result


def _pointed(branch: str) -> str:
    return (
        f"the remote's HEAD named a branch it does not have (git init's default): it names {branch} now, "
        "so a git clone of the remote checks the memory out"
    )


def _check_branch(root: Path, remote: GitRemote) -> str | None:
    """Choose the remote's branch this repo syncs with; refuse when there is no single one to join.

    A remote with no branches yet is fine (the first push makes it), and so is
    one that has this repo's branch (or the upstream it follows). One that has
    other branches only (this repo on ``master``, the remote on ``main``) is
    joined when that is unambiguous: its only branch, or the one its HEAD
    names. The local branch keeps its name and follows that remote branch
    from now on (:meth:`GitRemote.follow`); the sync then merges the two
    histories entry by entry as any sync does, so no local file is emptied.
    Otherwise the problem is named, recorded for Health (FAIL) and raised (docs/architecture.md §2).

    Returns:
        str | None: a notice when this sync joined a remote branch of another name.

    Raises:
        SyncError: the remote has several branches, none of them this repo's, and its HEAD names none.
        UnreachableRemote: the remote could not be reached.
    """
    branches, default = remote.remote_branches()
    if not branches or remote.remote_branch in branches:
        write_state(root, branch=remote.branch, branch_problem=None)
        return None
    choice = branches[0] if len(branches) == 1 else default
    if choice is not None:
        remote.follow(choice)
        write_state(root, branch=remote.branch, branch_problem=None)
        return (
            f"joined the remote's branch {choice}: this repo's branch {remote.branch} keeps its name and "
            f"syncs with {choice} from now on (merged entry by entry)"
        )
    problem = (
        f"this repo is on branch {remote.branch} but the remote has only {', '.join(branches)} and names none "
        f"of them as its default: sync would never meet the other machines; choose the remote branch that "
        f"holds this memory (git branch --set-upstream-to=origin/{branches[0]}, after a git fetch) and sync again"
    )
    write_state(root, branch=remote.branch, branch_problem=problem)
    raise SyncError(problem)


def replace_remote_history(store: WriteAccess, confirmed: bool, settings: SyncSettings | None = None) -> SyncResult:
    """Replace the remote's history with local ``main``: the one forced update.

    For compaction, which rewrites local history: the remote keeps the old
    history (with everything compaction removed) until it is replaced too.
    Call only after the person explicitly confirmed exactly that.

    Args:
        store: the open store.
        confirmed: the person confirmed replacing the remote's history; when
            False nothing is pushed.
        settings: ``[sync]`` settings (credentials); ``store.settings.sync`` when None.

    Returns:
        SyncResult: action ``pushed`` with the new head.

    Raises:
        SyncError: not confirmed, no remote, or not confirmed private.
        UnreachableRemote: offline or refused credentials.
    """
    if confirmed is not True:
        raise SyncError(
            "refusing to replace the remote's history without confirmation: the remote keeps the old "
            "history (everything compaction removed) until it is replaced"
        )
    remote, url = _open(store, settings if settings is not None else store.settings.sync)
    try:
        with store.lock.hold("replace remote history"):
            store.commit_hand_edits(None)
            if remote.local_id() is None:
                raise SyncError(f"nothing to push: {remote.branch} has no commits")
        remote.push(force=True)
    except MemrepoError as exc:
        write_state(store.root, last_error=str(exc))
        raise
    write_state(store.root, last_sync=stamp_now(), last_error=None, remote_head=remote.tracking_id())
    return SyncResult(remote=url, action="pushed", head=remote.local_id())
