"""History compaction: forgetting for real (docs/architecture.md §5).

:func:`compact` replaces the whole history with one orphan commit of the
current tree ("Compact history", ``Origin: compact``) and then makes sure no
old text is left anywhere under ``.git``: other refs (branches, tags, dream
branches, ``refs/stash``), reflogs, pseudo-refs, old messages, linked
worktrees, the old index, every old pack and loose object, and the engine's
derived state that may quote the old text: compaction walks the registry
(:mod:`memrepo.engine.state.registry`), which says what goes.

Crash safety comes from the order of the steps (see :data:`STEPS`): the new
pack holding the compact commit is complete before ``main`` moves to it, and
every ref, reflog, index entry, worktree and commit graph that names an old
object is gone before the first old object file is deleted. Killed at any
point, the repo opens, ``git fsck --full`` is clean, and the work tree (never
written by compaction) keeps every entry. A marker file says a compaction
was interrupted (health shows it); running it again finishes the job.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memrepo.engine.dreams import files as dreamfiles
from memrepo.engine.errors import GitError, SyncError
from memrepo.engine.files.undo import recover
from memrepo.engine.format.layout import PENDING_DIR
from memrepo.engine.git.checks import alternates_problem
from memrepo.engine.git.compact import GitCompactor
from memrepo.engine.git.dream import clean_interrupted
from memrepo.engine.git.measure import count_commits, git_dir_size
from memrepo.engine.git.remote import GitRemote
from memrepo.engine.git.store import GitStore, format_message
from memrepo.engine.models import CompactPreview, CompactProgress, CompactResult
from memrepo.engine.state.registry import Event
from memrepo.engine.state.scrub import Scope, walk
from memrepo.engine.write import forgotlines
from memrepo.engine.write.ports import WriteAccess
from memrepo.engine.write.writer import Transaction

STEPS = (
    "Committing hand edits",
    "Writing the compact commit",
    "Writing the new pack",
    "Moving main to the compact commit",
    "Deleting other branches, tags and refs",
    "Pruning worktrees",
    "Rewriting the index",
    "Expiring reflogs and stray files",
    "Scrubbing engine state",
    "Deleting old packs and loose objects",
)
"""The steps in the order they run; :class:`CompactProgress` counts them."""

MARKER = "compact.json"
"""``.git/memrepo/compact.json`` exists while a compaction runs; left behind, it was interrupted."""
STAGING = "compact-pack"
"""Scratch folder under ``.git/memrepo/`` where the new pack is built before it moves in."""
PACK_SETTINGS = "compact-config"
"""Scratch folder under ``.git/memrepo/`` holding the pack builder's settings while compaction runs."""

STALE_REASON = "history was compacted: the dream's branch and base commit are gone"

Progress = Callable[[CompactProgress], None]


def _emit(progress: Progress | None, step: int, done: int = 0, total: int = 0) -> None:
    if progress is not None:
        progress(CompactProgress(step=step, steps=len(STEPS), label=STEPS[step - 1], done=done, total=total))


def marker_path(state_dir: Path) -> Path:
    """The interrupted-compaction marker for a state folder."""
    return Path(state_dir) / MARKER


def interrupted(state_dir: Path) -> dict[str, Any] | None:
    """The marker of a compaction that did not finish (its process is gone), or None.

    Returns:
        dict | None: ``{"pid", "started", "step"}`` as written, or None when
        no marker exists or its process is still running.
    """
    try:
        data = json.loads(marker_path(state_dir).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return {"pid": None, "started": None, "step": None}
    pid = data.get("pid")
    if isinstance(pid, int) and pid != os.getpid():
        try:
            os.kill(pid, 0)
            return None  # still running
        except ProcessLookupError:
            pass
        except PermissionError:
            return None
    return data


def _write_marker(state_dir: Path, step: int, started: float) -> None:
    from memrepo.engine.files.atomic import atomic_write

    atomic_write(marker_path(state_dir), json.dumps({"pid": os.getpid(), "started": started, "step": step}).encode())


def preview(store: WriteAccess) -> CompactPreview:
    """What :func:`compact` would take away (for the question asked first).

    Args:
        store: the open store.

    Returns:
        CompactPreview: commits, refs, dream branches, pending dreams, worktrees,
        ``.git`` size, and the sync remote whose history would be replaced.
    """
    git = GitCompactor(store.root)
    refs = git.other_refs()
    records = dreamfiles.load_records(store.state_dir)
    pending_dir = store.state_dir / PENDING_DIR
    live = [r for r in records if r.get("status") in dreamfiles.LIVE_STATUSES]
    return CompactPreview(
        commits=git.count_commits(),
        refs=refs,
        dream_branches=[r for r in refs if r.startswith("refs/heads/dream/")],
        pending_dreams=len(live),
        pending_without_branch=sum(1 for r in live if f"refs/heads/{r.get('branch') or ''}" not in refs),
        worktrees=len(git.worktrees()),
        pending_writes=len(list(pending_dir.glob("*.json"))) if pending_dir.is_dir() else 0,
        git_bytes=git_dir_size(git.git_dir),
        remote=remote_url(store.root),
    )


def remote_url(root: Path) -> str | None:
    """The sync remote's URL for showing (a password in it masked), or None when none is set."""
    return GitRemote(Path(root)).shown_url()


def remote_refusal(url: str) -> str:
    """Why a compaction with a sync remote waits for a confirmation."""
    return (
        f"not compacted: the sync remote {url} keeps the old history, with everything compaction removes, "
        "until its history is replaced too; run `memrepo compact --replace-remote` to compact and then "
        "replace the remote's history (a forced update)"
    )


def refuse_remote_before_change(store: WriteAccess, replace_remote: bool, what: str) -> None:
    """Refuse a change that ends in a compaction before anything changes, when a sync remote waits for consent.

    ``forget``/``clear_*``/``purge_task`` with ``compact=True`` call this
    first: refusing only at the compaction step would leave the change made
    (and a retried ``forget REF`` would then forget the next entry, refs
    having shifted).

    Args:
        store: the open store.
        replace_remote: the person confirmed replacing the remote's history.
        what: the change, for the message ("forgotten", "cleared").

    Raises:
        SyncError: a sync remote is set and ``replace_remote`` is False.
    """
    url = remote_url(store.root)
    if url is not None and not replace_remote:
        raise SyncError(
            f"nothing changed (not {what}, not compacted): the sync remote {url} keeps the old history, with "
            "everything compaction removes, until its history is replaced too; add --replace-remote to "
            "compact and then replace the remote's history (a forced update)"
        )


def compact(store: WriteAccess, progress: Progress | None = None, replace_remote: bool = False) -> CompactResult:
    """Replace the history with one commit of the current tree and remove every old byte (docs/architecture.md §5).

    Holds the write lock throughout. Hand edits are committed first (so they
    are kept). Nothing in the work tree is written.

    Args:
        store: the open store; its git store is reopened afterwards (old
            packs are gone).
        progress: called on the calling thread at the start of each step of
            :data:`STEPS` and as refs and object files are deleted.
        replace_remote: a person confirmed that, with a sync remote set, the
            remote's history is replaced by the compacted commit afterwards
            (the one forced update, done by :meth:`MemoryStore.compact`).
            Without it a repo with a remote is refused and nothing changes.

    Returns:
        CompactResult: the new commit and what was removed.

    Raises:
        SyncError: a sync remote is set and ``replace_remote`` is False.
        BlockedError: a merge or rebase is in progress, the index is locked, or
            a new file is binary or too big; nothing was changed.
        BusyError: another writer held the lock for 5 s.
        GitError: HEAD is unborn (nothing to compact), ``objects/info/alternates`` keeps the
            old objects reachable (nothing changed; the message says what to do), or libgit2 failed; the
            repo is left valid and running compaction again finishes it.
    """
    url = remote_url(store.root)
    if url is not None and not replace_remote:
        raise SyncError(remote_refusal(url))
    shared = alternates_problem(store.state_dir.parent, store.root)
    if shared is not None:  # never report success while the old text stays reachable
        raise GitError(f"compaction refused: {shared}")
    with store.transaction("compact", hand_edits=False) as tx:
        try:
            result = _compact_locked(store, tx, progress)
        finally:
            for scratch in (STAGING, PACK_SETTINGS):
                shutil.rmtree(store.state_dir / scratch, ignore_errors=True)
            # Old packs are gone: the store's repository must not keep reading them.
            store.git = GitStore(store.root)
    return result


def _clear_locks_of_interrupted_run(state: Path, git_dir: Path) -> list[str]:
    """Remove ref lock files an interrupted compaction left (a kill while libgit2 moved a ref).

    Only ``HEAD.lock``, ``packed-refs.lock``, ``index.lock`` and
    ``refs/**.lock`` written since that run's marker, while this process holds
    memrepo's write lock: a dead run's lock would block writes for good (a
    kill while libgit2 wrote the index left ``index.lock``), and the marker
    names the run that wrote them.

    Returns:
        list[str]: the lock files removed, relative to ``.git``.
    """
    mark = interrupted(state)
    started = mark.get("started") if mark else None
    if not isinstance(started, (int, float)):
        return []
    removed = []
    refs = git_dir / "refs"
    for path in [
        git_dir / "HEAD.lock",
        git_dir / "packed-refs.lock",
        git_dir / "index.lock",
        *(refs.rglob("*.lock") if refs.is_dir() else []),
    ]:
        with contextlib.suppress(OSError):
            if path.is_file() and path.stat().st_mtime >= started - 5:
                path.unlink()
                removed.append(str(path.relative_to(git_dir)))
    return removed


def _compact_locked(store: WriteAccess, tx: Transaction, progress: Progress | None) -> CompactResult:
    state = store.state_dir
    _clear_locks_of_interrupted_run(state, store.git.git_dir)
    clean_interrupted(store.root)  # a killed dream's temporary worktree (a copy of the memory) goes, always
    # A killed writer's temp files (full copies of a file, invisible to git) go too: "forgetting for real" leaves
    # no forgotten line in them (breaker27 B27-9); the change they show was the killed writer's, committed as such.
    left = recover(store.root, store.git.head_blob)
    if left:
        tx.commit_hand_edits(left, confirm=True, secrets_asked=True)
    _emit(progress, 1)
    # The marker goes down before the hand-edit commit, so an index.lock a kill
    # leaves in its index write is known as this run's (and cleared by the next).
    started = time.time()
    fresh = interrupted(state) is None
    if fresh:
        _write_marker(state, 1, started)
    try:
        hand_edits = tx.commit_hand_edits(None)
    except BaseException:
        if fresh:  # refused (blocked, busy): nothing was compacted, no run to finish
            marker_path(state).unlink(missing_ok=True)
        raise
    git = GitCompactor(store.root, state / PACK_SETTINGS)
    head = git.head_commit()
    if head is None:
        raise GitError("the memory repo has no commit yet: nothing to compact")
    before = git_dir_size(git.git_dir)
    # The stale-save guard reads removals in the history this erases: keep their keyed hashes for days, not the
    # guard's hour (an editor's copy read before a forget can be saved long after; breaker27 B27-3).
    forgotlines.record(state, store.git.recent_removals(forgotlines.KEEP_S), forgotlines.KEEP_S)
    _write_marker(state, 2, started)

    _emit(progress, 2)
    message = format_message(
        "Compact history",
        {"Origin": "compact"},
        body="The current files as one commit; the earlier history was dropped.",
    )
    commit = git.orphan_commit(head, message)
    # Counted on another thread (its own repository) by libgit2 without holding
    # the GIL while the pack is written: the count is free on a second core.
    counted: list[int] = []
    counter = threading.Thread(
        target=lambda: counted.append(count_commits(store.root, head, commit)),
        name="memrepo-compact-count",
        daemon=True,
    )
    counter.start()

    _emit(progress, 3)
    try:
        pack = git.write_pack(commit, state / STAGING)
    finally:
        counter.join()
    dropped = counted[0] if counted else 0

    _emit(progress, 4)
    git.move_main(commit)

    refs = git.other_refs()
    _emit(progress, 5, 0, len(refs))
    done = 0

    def ref_deleted(_name: str) -> None:
        nonlocal done
        done += 1
        _emit(progress, 5, done, len(refs))

    git.delete_refs(refs, ref_deleted)

    _emit(progress, 6)
    pruned = git.prune_worktrees()

    _emit(progress, 7)
    git.reset_index(commit)

    _emit(progress, 8)
    git.remove_strays()

    _emit(progress, 9)
    scrubbed = walk(
        Event.COMPACT,
        Scope(store.root, state_dir=state, git=git, commit=commit, gone_refs=set(refs), stale_reason=STALE_REASON),
    )

    _emit(progress, 10)
    removed = git.delete_old_objects(pack, lambda n, total: _emit(progress, 10, n, total))

    marker_path(state).unlink(missing_ok=True)
    return CompactResult(
        commit=commit,
        hand_edits=hand_edits,
        dropped_commits=dropped,
        deleted_refs=refs,
        stale_dreams=scrubbed["stale_dreams"],
        scrubbed_dreams=scrubbed["scrubbed_dreams"],
        dropped_pending=scrubbed["dropped_pending"],
        removed_state_files=scrubbed["removed_state_files"],
        pruned_worktrees=pruned,
        removed_object_files=removed,
        git_bytes_before=before,
        git_bytes_after=git_dir_size(git.git_dir),
    )


def drop_old_history(store: WriteAccess, keep_refs: dict[str, str] | None = None) -> CompactResult:
    """Remove every byte of history ``main`` does not reach, keeping ``main`` as it is.

    For a machine adopting a remote that was compacted elsewhere
    (:func:`memrepo.engine.sync.sync.sync`): ``main`` already sits on the remote's new
    short history, so no compact commit is written; the rest is what
    :func:`compact` does after moving ``main`` (other refs, worktrees,
    reflogs and stray files, engine state quoting forgotten text, every old
    pack and loose object), so the old history, with the text the other
    machine forgot, leaves this ``.git`` too. The caller holds the write lock.

    Args:
        store: the open store; its git store is reopened afterwards.
        keep_refs: refs to point again at their commits afterwards (the
            remote-tracking ref: it names a commit of ``main``'s history).

    Returns:
        CompactResult: ``commit`` is ``main``; ``dropped_commits`` is 0 (the
        old commits were not on ``main``).

    Raises:
        GitError: ``main`` is unborn, or libgit2 failed; the repo stays valid.
    """
    state = store.state_dir
    git = GitCompactor(store.root, state / PACK_SETTINGS)
    head = git.head_commit()
    if head is None:
        raise GitError("the memory repo has no commit yet: nothing to clean")
    before = git_dir_size(git.git_dir)
    try:
        pack = git.write_pack(head, state / STAGING, history=True)
        git.move_main(head)  # a loose ref, so packed-refs can go
        refs = git.other_refs()
        git.delete_refs(refs)
        pruned = git.prune_worktrees()
        git.reset_index(head)
        git.remove_strays()
        git.recreate_refs(keep_refs or {})
        scrubbed = walk(
            Event.COMPACT,
            Scope(store.root, state_dir=state, git=git, commit=head, gone_refs=set(refs), stale_reason=STALE_REASON),
        )
        removed = git.delete_old_objects(pack)
    finally:
        for scratch in (STAGING, PACK_SETTINGS):
            shutil.rmtree(state / scratch, ignore_errors=True)
        store.git = GitStore(store.root)
    return CompactResult(
        commit=head,
        hand_edits=None,
        dropped_commits=0,
        deleted_refs=[r for r in refs if r not in (keep_refs or {})],
        stale_dreams=scrubbed["stale_dreams"],
        scrubbed_dreams=scrubbed["scrubbed_dreams"],
        dropped_pending=scrubbed["dropped_pending"],
        removed_state_files=scrubbed["removed_state_files"],
        pruned_worktrees=pruned,
        removed_object_files=removed,
        git_bytes_before=before,
        git_bytes_after=git_dir_size(git.git_dir),
    )
