"""The checkpoint buffers on disk: one JSON file per scope, and the tombstones of what was forgotten.

A buffer holds an agent's messages until a checkpoint distils them
(:mod:`.checkpoint`, docs/architecture.md §7). Forgetting a session or a
purged workspace's scope deletes its messages here and keeps only their ids,
so the same messages sent again are not buffered anew.

A batch whose distillation failed :data:`~.checkpoint.MAX_FAILURES` times (a blocked or malformed file, a model
that keeps answering nonsense) is parked in its buffer's ``parked`` list, never dropped: ``memrepo status`` and
Health say so, and ``memrepo checkpoint --retry-parked`` gives it back (:meth:`Buffers.unpark`).

A batch whose write failed for a passing cause (a :class:`~memrepo.engine.errors.BusyError`: ``git commit -a``
waiting in its editor holds ``index.lock``) stays pending, its failures not counted, marked ``busy``:
:meth:`Buffers.waiting` lists it for ``memrepo status`` and the next hook checkpoint or session start retries
it once git is done (breaker26 B26-6). A parked batch is retried the same way once by itself
(:meth:`Buffers.auto_unpark`), never twice.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from memrepo.engine.files.atomic import atomic_write
from memrepo.engine.files.lock import private_lock

from .claimer import claimer_gone

LOCK_TIMEOUT_S = 5.0
"""Seconds to wait for the checkpoint lock before giving up."""
MAX_SEEN = 5_000
"""Message ids remembered per scope for deduplication."""


class Parked(NamedTuple):
    """Messages of one scope parked after :data:`~.checkpoint.MAX_FAILURES` failed distillations."""

    scope: str
    messages: int
    sessions: list[str]
    reason: str
    workspace: str | None
    """The scope's workspace folder (None for the global scope): a retry's ``cwd``."""


KEPT_REASON = "BlockedError: kept: "
"""How a batch's reason starts when its write was kept while the repo was blocked (:class:`~memrepo.engine.errors.
BlockedError` with ``kept``)."""

KILLED_REASON = "its checkpoint was stopped mid-way (the process is gone)"
"""Why a batch claimed by a checkpoint that was killed waits (:func:`.claimer.claimer_gone`)."""


def _who(batches: list[Parked]) -> str:
    """``"N messages of session(s) a, b, c and K more"``: whose messages ``batches`` hold."""
    n = sum(p.messages for p in batches)
    sessions = sorted({s for p in batches for s in p.sessions})
    return f"{n} message{'s' * (n != 1)} of session{'s' * (len(sessions) != 1)} {', '.join(sessions[:3])}" + (
        f" and {len(sessions) - 3} more" if len(sessions) > 3 else ""
    )


class Buffers:
    """The checkpoint buffers and tombstones of one memory repo (the files; :class:`.checkpoint.Checkpointer` adds the policy).

    Args:
        state_dir: the repo's ``.git/memrepo`` folder.
        clock: seconds since the epoch (injectable for tests); default :func:`time.time`.
    """

    def __init__(self, state_dir: Path, clock: Callable[[], float] | None = None) -> None:
        self.dir = state_dir / "checkpoints"
        self.clock = clock or time.time
        self._lock = private_lock(state_dir / "checkpoints.lock", LOCK_TIMEOUT_S)

    # -- files --------------------------------------------------------------

    def _path(self, scope: str) -> Path:
        return self.dir / f"{scope}.json"

    def _load(self, scope: str) -> dict:
        try:
            data = json.loads(self._path(scope).read_text("utf-8"))
            if isinstance(data, dict):
                data.setdefault("messages", [])
                data.setdefault("seen", [])
                return data
        except (OSError, ValueError):
            pass
        return {
            "scope": scope,
            "workspace": None,
            "messages": [],
            "seen": [],
            "last_at": None,
            "claim": None,
            "untrusted": [],
        }

    def _save(self, scope: str, data: dict) -> None:
        self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        atomic_write(self._path(scope), json.dumps(data, ensure_ascii=False).encode("utf-8"), self.dir, private=True)

    def _tombstones(self) -> dict[str, float]:
        try:
            data = json.loads((self.dir.parent / "checkpoint-tombstones.json").read_text("utf-8"))
            return {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def _scope_stones_path(self) -> Path:
        return self.dir.parent / "checkpoint-scope-tombstones.json"

    def scope_tombstones(self) -> dict[str, dict]:
        """Forgotten scopes: ``{scope: {"at": seconds, "seen": [message ids]}}`` (no message text)."""
        try:
            data = json.loads(self._scope_stones_path().read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(k): v for k, v in data.items() if isinstance(v, dict)}

    def _scopes(self) -> list[str]:
        if not self.dir.is_dir():
            return []
        return sorted(p.stem for p in self.dir.glob("*.json"))

    def parked(self) -> list[Parked]:
        """The batches parked after failed distillations, one per scope (a read: no lock, never raises)."""
        out = []
        for scope in self._scopes():
            data = self._load(scope)
            parked = [m for m in data.get("parked", []) if isinstance(m, dict)]
            if parked:
                sessions = sorted({str(m.get("session")) for m in parked})
                reason = str(data.get("parked_reason") or "unknown")
                out.append(Parked(scope, len(parked), sessions, reason, data.get("workspace")))
        return out

    def parked_line(self) -> str | None:
        """One line for ``memrepo status`` and Health: how many messages are parked, why, and the command; None
        when nothing is parked."""
        parked = self.parked()
        if not parked:
            return None
        n = sum(p.messages for p in parked)
        sessions = sorted({s for p in parked for s in p.sessions})
        return (
            f"{n} message{'s' * (n != 1)} of session{'s' * (len(sessions) != 1)} {', '.join(sessions[:3])}"
            + (f" and {len(sessions) - 3} more" if len(sessions) > 3 else "")
            + f" parked after failed distillations ({parked[-1].reason}): fix that, then "
            "`memrepo checkpoint --retry-parked`"
        )

    def waiting(self, passing_only: bool = False) -> list[Parked]:
        """The batches whose write failed and that wait, pending, for the next try, one per scope (a read).

        Their messages carry ``failures`` (a failed distillation) or ``busy`` (a passing cause: a git
        lock, a busy write lock; only those with ``passing_only``); ``reason`` is the last error. Messages claimed by a
        checkpoint whose process is gone (killed mid-distillation, :func:`.claimer.claimer_gone`) wait too, as a
        passing cause: the next checkpoint takes them over (breaker31 B31-10).
        """
        out = []
        for scope in self._scopes():
            data = self._load(scope)
            claim = data.get("claim")
            killed = claim.get("id") if isinstance(claim, dict) and claimer_gone(claim) else None
            failed = [
                m
                for m in data["messages"]
                if isinstance(m, dict)
                and (
                    m.get("busy") or (m.get("failures") and not passing_only) or (killed and m.get("claimed") == killed)
                )
            ]
            if failed:
                sessions = sorted({str(m.get("session")) for m in failed})
                reason = KILLED_REASON if killed else str(data.get("last_error") or "unknown")
                out.append(Parked(scope, len(failed), sessions, reason, data.get("workspace")))
        return out

    def waiting_line(self) -> str | None:
        """One line for ``memrepo status`` and Health: messages an agent said that a failed write left
        pending (retried by the next hook checkpoint or session start); None when there are none."""
        waiting = self.waiting()
        if not waiting:
            return None
        reason = waiting[-1].reason.removeprefix("BusyError: ").split("; memrepo waited")[0]
        return (
            f"{_who(waiting)} not written yet ({reason}): retried at the next agent session's start or checkpoint,"
            " or now with `memrepo checkpoint --retry-parked`"
        )

    def waiting_kept(self) -> str | None:
        """Whose messages wait (``"2 messages of session s1"``) when the write that left them pending was one a
        block kept (``.git/memrepo/pen``: applied once the block is gone, not lost; breaker27 B27-7); else None."""
        waiting = self.waiting()
        if not waiting or not waiting[-1].reason.startswith(KEPT_REASON):
            return None
        return _who(waiting)

    def to_retry(self) -> bool:
        """Whether a batch waits for a retry: left pending by a passing cause (a git lock), or parked and never
        retried by itself."""
        if self.waiting(passing_only=True):
            return True
        return any(
            isinstance(m, dict) and not m.get("auto_retried")
            for scope in self._scopes()
            for m in self._load(scope).get("parked", [])
        )

    def auto_unpark(self) -> list[Parked]:
        """Give back the parked messages never retried by themselves, marked so they are not again (a hook's retry).

        Returns:
            list[Parked]: what was given back, one per scope (its sessions and workspace for the retry).

        Raises:
            filelock.Timeout: the checkpoint lock stayed busy 5 s.
        """
        out = []
        with self._lock:
            for scope in self._scopes():
                data = self._load(scope)
                parked = [m for m in data.get("parked", []) if isinstance(m, dict)]
                fresh = [m for m in parked if not m.get("auto_retried")]
                if not fresh:
                    continue
                reason = str(data.get("parked_reason") or "unknown")
                seen = {m["id"] for m in data["messages"]}
                data["parked"] = [m for m in parked if m.get("auto_retried")]  # retried once already: stay
                for m in fresh:
                    m.pop("failures", None)
                    m["auto_retried"] = True
                if not data["parked"]:
                    data.pop("parked", None)
                    data.pop("parked_reason", None)
                data["messages"] = [m for m in fresh if m["id"] not in seen] + data["messages"]
                self._save(scope, data)
                sessions = sorted({str(m.get("session")) for m in fresh})
                out.append(Parked(scope, len(fresh), sessions, reason, data.get("workspace")))
        return out

    def unpark(self) -> list[str]:
        """Give every parked message back to its buffer, its failures forgotten (``checkpoint --retry-parked``).

        Returns:
            list[str]: the sessions whose messages are pending again.

        Raises:
            filelock.Timeout: the checkpoint lock stayed busy 5 s.
        """
        sessions: dict[str, None] = {}
        with self._lock:
            for scope in self._scopes():
                data = self._load(scope)
                parked = data.pop("parked", None) or []
                if not parked:
                    continue
                for m in parked:
                    m.pop("failures", None)
                    m.pop("auto_retried", None)
                    sessions[m["session"]] = None
                seen = {m["id"] for m in data["messages"]}
                data["messages"] = [m for m in parked if m["id"] not in seen] + data["messages"]
                data.pop("parked_reason", None)
                self._save(scope, data)
        return list(sessions)

    def forget_session(self, session_id: str) -> int:
        """Delete every buffered message of ``session_id`` (parked ones too) and tombstone it.

        A distillation already queued or running for it finds the tombstone
        when it merges and writes nothing; later checkpoints of the session
        are refused. Entries it already wrote are removed by the caller
        (:meth:`MemoryStore.purge_task` with the session id).

        Returns:
            int: buffered messages deleted.
        """
        removed = 0
        with self._lock:
            stones = self._tombstones()
            stones[session_id] = self.clock()
            path = self.dir.parent / "checkpoint-tombstones.json"
            atomic_write(path, json.dumps(stones).encode(), self.dir.parent, private=True)
            for scope in self._scopes():
                data = self._load(scope)
                keep = [m for m in data["messages"] if m["session"] != session_id]
                parked = [m for m in data.get("parked", []) if m["session"] != session_id]
                gone = len(data["messages"]) - len(keep) + len(data.get("parked", [])) - len(parked)
                if gone:
                    removed += gone
                    data["messages"], data["parked"] = keep, parked
                    data["untrusted"] = [s for s in data.get("untrusted", []) if s != session_id]
                    if not keep and not parked:
                        self._path(scope).unlink(missing_ok=True)
                    else:
                        self._save(scope, data)
        return removed

    def forget_scope(self, scope: str) -> int:
        """Delete the buffer of ``scope`` (a purged workspace's ``ws-`` id) and tombstone the scope.

        A distillation claimed from it before now writes nothing when it
        merges; messages it had buffered or seen are dropped if sent again
        (their ids are kept in the tombstone, never their text). New messages
        buffer as usual. Used by :func:`memrepo.engine.history.workspaces.purge` (docs/architecture.md §2,
        "no byte of it stays").

        Args:
            scope (str): the scope key, as :meth:`scope_of` returns it.

        Returns:
            int: buffered messages deleted.

        Raises:
            ValueError: ``scope`` is not a plain scope key.
            filelock.Timeout: the checkpoint lock stayed busy 5 s.
        """
        if not scope or any(c in scope for c in "/\\\x00") or scope.startswith("."):
            raise ValueError(f"not a checkpoint scope: {scope!r}")
        with self._lock:
            data = self._load(scope)
            stones = self.scope_tombstones()
            seen = set((stones.get(scope) or {}).get("seen", [])) | set(data.get("seen", []))
            seen |= {m.get("id") for m in data.get("messages", []) if m.get("id")}
            stones[scope] = {"at": self.clock(), "seen": sorted(seen)[-MAX_SEEN:]}
            self.dir.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            atomic_write(self._scope_stones_path(), json.dumps(stones).encode(), self.dir.parent, private=True)
            removed = len(data.get("messages", []))
            self._path(scope).unlink(missing_ok=True)
        return removed
