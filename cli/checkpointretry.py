"""Checkpoint batches a failed write left pending, retried by the next hook or session start (breaker26 B26-6).

A session's closing checkpoint that meets ``git commit -a`` waiting in its editor (``index.lock`` held) fails
with a :class:`~memrepo.engine.errors.BusyError`; its messages stay pending in the checkpoint buffer, marked
``busy`` (:meth:`~memrepo.engine.checkpoints.checkpoint.Checkpointer.release`). They were written only when a
later session of the same folder ended. Now:

* the hook's own background process waits for git's lock to go (:data:`HOOK_GIT_WAIT_S` at most) and tries
  again (:func:`wait_for_git`);
* any later hook checkpoint, in any folder, and any session's start retry every waiting batch first, and each
  parked batch once (:func:`retry_waiting`), when no live git process holds a lock file;
* ``memrepo status`` names them until then (:meth:`~memrepo.engine.checkpoints.buffers.Buffers.waiting_line`).
"""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.engine.checkpoints.waiting import git_busy, to_retry

if TYPE_CHECKING:
    from collections.abc import Iterable

    from memrepo.engine.checkpoints.buffers import Parked
    from memrepo.engine.checkpoints.checkpoint import Checkpointer
    from memrepo.engine.checkpoints.types import CheckpointResult
    from memrepo.engine.repo.store import MemoryStore

log = logging.getLogger("memrepo.checkpoint")

HOOK_GIT_WAIT_S = 900.0
"""Longest a hook's background checkpoint waits for another git process's lock before leaving its batch
pending for the next hook or session start (seconds)."""
POLL_S = 0.5
"""How often that wait looks at git's lock files (seconds)."""


def wait_for_git(git_dir: Path, wait_s: float = HOOK_GIT_WAIT_S) -> bool:
    """Wait until no live git process holds a lock file of ``git_dir``; True when that came within ``wait_s``."""
    deadline = time.monotonic() + wait_s
    while git_busy(git_dir) is not None:
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL_S)
    return True


def scopes(batches: Iterable[Parked]) -> list[tuple[str, str]]:
    """(session id, workspace) of each batch's sessions, in order and once each (workspace "": the global scope)."""
    return list(dict.fromkeys((sid, p.workspace or "") for p in batches for sid in p.sessions))


def rerun(store: MemoryStore, cp: Checkpointer, runs: list[tuple[str, str]]) -> list[CheckpointResult]:
    """Distil each (session, workspace) of ``runs`` again now, a forced stage of its buffered messages."""
    from memrepo.engine.checkpoints.flow import run_checkpoint

    return [run_checkpoint(store, cp, store.settings, sid, ws, [], "force") for sid, ws in runs]


def retry_waiting(store: MemoryStore) -> list[str]:
    """Distil again the batches a passing cause (a git lock) left pending, and once each the parked ones; lines saying so.

    Nothing is tried while a live git process holds a lock file (the write would fail the same way). A
    parked batch is given back once only (:meth:`~memrepo.engine.checkpoints.buffers.Buffers.auto_unpark`):
    parked again, it waits for ``memrepo checkpoint --retry-parked``. Never raises (a hook must not fail).
    """
    from memrepo.engine.checkpoints.checkpoint import Checkpointer

    lines: list[str] = []
    try:
        if git_busy(store.git.git_dir) is not None:
            return lines
        cp = Checkpointer(store.state_dir)
        waiting = cp.waiting(passing_only=True)  # a failed distillation is retried at its scope's next stage
        unparked = cp.auto_unpark()
        lines += [
            f"memrepo: retrying once {p.messages} message(s) of session {', '.join(p.sessions)} parked after "
            f"failed distillations ({p.reason})"
            for p in unparked
        ]
        runs = scopes([*waiting, *unparked])
        lines += [said(sid, result) for (sid, _ws), result in zip(runs, rerun(store, cp, runs), strict=True)]
    except Exception as exc:  # the buffers stay as they are: the next hook tries again
        log.warning("retrying the waiting checkpoints failed: %s", exc)
        lines.append(f"memrepo: retrying the waiting checkpoints failed: {' '.join(str(exc).split())[:200]}")
    return lines


def said(session_id: str, result: CheckpointResult) -> str:
    """One line on a retried session's checkpoint: what it wrote, or why it still waits."""
    written = [w for w in result.written if w.ref]
    if result.status == "failed":
        return f"memrepo: session {session_id}'s pending lines still wait: {result.reason}"
    what = ", ".join(f"{w.action.value} {w.ref}" for w in written) or "nothing new to write"
    return f"memrepo: session {session_id}'s pending lines retried: {what}"


def retry_later(git_dir: Path) -> bool:
    """At a session's start: start ``memrepo checkpoint --retry-waiting`` detached when a batch waits.

    Cheap when nothing waits (one look at the buffers); nothing is started while git still holds its lock.

    Returns:
        bool: whether a retry was started.
    """
    try:
        if not to_retry(git_dir / "memrepo"):
            return False
        if git_busy(git_dir) is not None:
            return False
        argv = [sys.executable, "-m", "memrepo.cli.main", "--repo", str(git_dir.parent)]
        subprocess.Popen(
            [*argv, "checkpoint", "--retry-waiting"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return False
    return True
