"""Models of sync and compaction results that cross the engine's boundary (docs/architecture.md §1, §5)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from .base import _Model


class SyncResult(_Model):
    """What one sync with the remote did.

    Attributes:
        remote: the remote's URL.
        action: ``up_to_date`` (nothing to do), ``pushed`` (only local commits
            to send), ``fast_forwarded`` (only remote commits to take),
            ``merged`` (both sides had commits: a merge commit was made),
            ``adopted`` (the remote's history was replaced by a compaction on
            another machine: local ``main`` moved onto it, see ``notice``).
        head: local ``main`` after the sync.
        received: commits taken from the remote into ``main``.
        sent: commits the remote did not have before the push.
        conflicts: ``path: conflict id`` for each entry both sides changed
            differently (both versions kept, see the Inbox pane).
        retries: how often a rejected push fetched, merged and pushed again.
        notice: what an ``adopted`` sync did, or that it joined a remote branch of another name, in words (None otherwise).
    """

    remote: str
    action: Literal["up_to_date", "pushed", "fast_forwarded", "merged", "adopted"]
    head: str | None = None
    received: int = 0
    sent: int = 0
    conflicts: list[str] = Field(default_factory=list)
    retries: int = 0
    notice: str | None = None


class SyncState(_Model):
    """Where sync stands, read without the network (for the header and the Health pane).

    Attributes:
        remote: the remote's URL, or None when no remote is set.
        ahead: local commits not pushed (as of the last fetch).
        behind: remote commits not yet merged (as of the last fetch).
        last_sync: when the last sync succeeded (UTC), or None.
        last_error: why the last sync failed, or None when it succeeded.
        problem: the branch and the remote disagree in a way sync cannot handle (Health FAIL), or None.
    """

    remote: str | None = None
    ahead: int = 0
    behind: int = 0
    last_sync: datetime | None = None
    last_error: str | None = None
    problem: str | None = None


class CompactProgress(_Model):
    """One step of a running compaction, for a progress display (docs/architecture.md §5, §8).

    Attributes:
        step: 1-based number of the step now running.
        steps: how many steps there are.
        label: what the step does, for people ("Writing the new pack").
        done: items of this step done so far (refs deleted, object files removed).
        total: items in this step; 0 when the step is not counted.
    """

    step: int
    steps: int
    label: str
    done: int = 0
    total: int = 0


class CompactPreview(_Model):
    """What a compaction would take away, for the question asked before it (docs/architecture.md §5).

    Attributes:
        commits: commits in the history now; all but the current tree is dropped.
        refs: other refs to delete (branches, tags, dream branches, ``refs/stash``).
        dream_branches: the ``dream/...`` branches among them.
        pending_dreams: dream runs waiting for review (or running) that become stale.
        pending_without_branch: those among them with no review branch in ``refs``
            (applied only, or killed before it made one): no branch of theirs is deleted.
        worktrees: linked worktrees to prune.
        pending_writes: writes kept while blocked; those quoting forgotten text are dropped.
        git_bytes: the size of ``.git`` now, in bytes.
        remote: the sync remote whose history is replaced too, or None.
    """

    commits: int
    refs: list[str] = Field(default_factory=list)
    dream_branches: list[str] = Field(default_factory=list)
    pending_dreams: int = 0
    pending_without_branch: int = 0
    worktrees: int = 0
    pending_writes: int = 0
    git_bytes: int = 0
    remote: str | None = None


class CompactResult(_Model):
    """What :meth:`MemoryStore.compact` did.

    Attributes:
        commit: the one commit that is now the whole history ("Compact history").
        hand_edits: the "Hand edits" commit made first, or None.
        dropped_commits: commits of the old history (the hand-edit commit included).
        deleted_refs: the refs deleted.
        stale_dreams: dream records marked stale.
        scrubbed_dreams: dream records whose operation texts were blanked.
        dropped_pending: pending writes dropped because they quoted forgotten text.
        removed_state_files: other engine state files removed (checkpoint buffers quoting forgotten text).
        pruned_worktrees: linked worktrees pruned.
        removed_object_files: old pack and loose object files deleted.
        git_bytes_before: size of ``.git`` before, in bytes.
        git_bytes_after: size of ``.git`` after, in bytes.
        remote_replaced: the sync remote's history was replaced by the new
            commit (the one forced update).
        remote_error: why replacing it failed (offline, refused); the local
            compaction stands and compacting again replaces it.
    """

    commit: str
    hand_edits: str | None = None
    dropped_commits: int = 0
    deleted_refs: list[str] = Field(default_factory=list)
    stale_dreams: int = 0
    scrubbed_dreams: int = 0
    dropped_pending: int = 0
    removed_state_files: int = 0
    pruned_worktrees: int = 0
    removed_object_files: int = 0
    git_bytes_before: int = 0
    git_bytes_after: int = 0
    remote_replaced: bool = False
    remote_error: str | None = None
