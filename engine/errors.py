"""Engine errors: every failure the engine reports is a :class:`MemrepoError`.

Each error carries a one-line message meant for a person (the CLI prints it as
is, the app shows it in a notice), so messages say what failed and what to do.
"""

from __future__ import annotations

DISK_FULL = "the disk is full: nothing was written and the repo is as it was; free some space and retry"
"""The one line a write that ran out of space ends with (docs/architecture.md §3)."""


def is_disk_full(exc: BaseException) -> bool:
    """True when ``exc`` (or what it was raised from) is ENOSPC or EDQUOT, or libgit2 saying so."""
    seen: BaseException | None = exc
    while seen is not None:
        if getattr(seen, "errno", None) in (28, 122) or "no space left" in str(seen).lower():
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class MemrepoError(Exception):
    """Base class of every error the engine raises on purpose."""


class PathRuleError(MemrepoError):
    """A repo path breaks one of the path rules of docs/architecture.md §2.

    The message is for people: plain words and the path; the rule's id is kept for scripts (``rule``, and the CLI's
    error line when a command is run with ``--json``; breaker27 B27-6: "(rule: missing)" meant nothing to a user).

    Attributes:
        rule: short id of the failed rule (``absolute``, ``root``, ``home``,
            ``symlink``, ``inside-repo``, ``not-memory-repo``, ``not-a-directory``, ``missing``).
        path: the path that was refused.
    """

    def __init__(self, rule: str, path: str, message: str) -> None:
        # A message that names the path already (the missing repo's `memrepo init PATH`) is not followed by it again.
        super().__init__(message if path and path in message else f"{message}: {path}")
        self.rule = rule
        self.path = path


class FormatError(MemrepoError):
    """A file cannot be read as a memory file (not UTF-8 text, for example)."""


class LimitError(MemrepoError):
    """A write would break a size limit of docs/architecture.md §2; the message names where to write."""


class RefError(MemrepoError):
    """An entry ref (``repo:<path>#L<n>``) is malformed, unsafe, or points at no entry."""


class ChangedSinceSeen(RefError):
    """The line a person approved changed before the approval reached it; nothing was written.

    Attributes:
        ref: the ref the person named (without ``@seen``).
        text: the whole line there now ("" when no entry is there any more).
        seen: the new line's hash; approve ``<ref>@<seen>`` to act on the new text.
    """

    def __init__(self, ref: str, text: str, seen: str, message: str | None = None) -> None:
        self.ref, self.text, self.seen = ref, text, seen
        now = f"it now reads {text!r} (approve {ref}@{seen} for that)" if text else "no entry is there any more"
        super().__init__(message or f"{ref} changed since you saw it: {now}; nothing was written")


class BusyError(MemrepoError):
    """Another writer held the cross-process lock for longer than the timeout (docs/architecture.md §3).

    Attributes:
        git_lock: another git process (``git commit -a`` waiting in its editor) held a ``.git/*.lock`` file, which
            may last minutes; False for another memrepo write, which ends in seconds.
    """

    def __init__(self, message: str, git_lock: bool = False) -> None:
        super().__init__(message)
        self.git_lock = git_lock


class BlockedError(MemrepoError):
    """The work tree is blocked (merge or rebase in progress, index lock, binary or huge file).

    Attributes:
        reason: one line saying what blocks writes.
        kept: the write was kept under ``.git/memrepo/pending/`` and is applied once the block is gone.
    """

    def __init__(self, reason: str, kept: bool = False) -> None:
        # one message for a kept write, as MCP memory_remember answers it (breaker7 B7-4, breaker8 B8-10: "nothing
        # was written" beside "the write is kept" read as a loss)
        said = (
            "kept: not written yet, the memory repo is blocked"
            if kept
            else "memory repo is blocked, nothing was written"
        )
        super().__init__(f"{said}: {reason}")
        self.reason = reason
        self.kept = kept


class GitError(MemrepoError):
    """libgit2 reported an error the engine could not handle."""


class UnreachableRemote(GitError):
    """The remote could not be reached or refused our credentials (offline is normal)."""


class ConfigError(MemrepoError):
    """The configuration file is unreadable or has an unknown key or a bad value."""


class SyncError(MemrepoError):
    """Sync with the remote could not finish (no remote, not confirmed private, the remote kept moving)."""


class SyncConflict(SyncError):
    """Both sides changed a file that is not markdown and git's merge conflicts: sync stopped, main unchanged.

    Attributes:
        paths: the conflicting paths.
    """

    def __init__(self, paths: list[str]) -> None:
        shown = ", ".join(paths[:5]) + (f" and {len(paths) - 5} more" if len(paths) > 5 else "")
        super().__init__(
            f"sync stopped: both machines changed {shown} and git cannot merge it; main is unchanged. "
            "Merge it by hand (git pull) or undo one side's change, then sync again"
        )
        self.paths = paths


class HandEditQuestion(BlockedError):
    """A hand edit emptied a file or removed most of its entries in one save: it waits for the user's answer.

    The committed text stays the base; nothing is written to that file until
    the user commits the edit (``memrepo commit-hand-edits --yes``, the app's
    question) or puts the entries back (docs/architecture.md §3).
    """
