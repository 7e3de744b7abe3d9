"""Turns a session left in a workspace's checkpoint buffer when it ended without closing (breaker31 B31-15).

A session that crashed, was killed or whose terminal was closed never sends ``SessionEnd``: its buffered turns
waited until some later session in that folder ended, the next session's start did not take them, and ``memrepo
status`` said "clean". A turn idle :data:`IDLE_S` seconds is as good as closed (docs/architecture.md §7,
"Checkpoints"): the next session's start in that workspace distils it as its close would have, and status names it.

A light read (no checkpoint policy imported, no lock): the quick SessionStart hook asks it before it answers.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from memrepo.engine.format.paths import normalize_workspace, session_workspace

IDLE_S = 300.0
"""Seconds a non-empty buffer may stay idle before its stage is eligible (DSH seed ``idleCheckpointMs``)."""


def scope_key(cwd: str | None) -> str:
    """The buffer's scope for a session's folder: ``global`` or the workspace's ``ws-`` id (as
    :meth:`.checkpoint.Checkpointer.scope_of`)."""
    folder = session_workspace(cwd)
    return "global" if folder is None else normalize_workspace(folder)[0]


def left_sessions(data: dict, session_id: str | None, now: float) -> list[tuple[str, int]]:
    """The sessions other than ``session_id`` whose buffered turns are all :data:`IDLE_S` seconds old or older.

    Args:
        data: a scope's buffer (``messages``, each with ``session`` and ``at``, seconds since the epoch).
        session_id: the session asking (its own turns never count), or None.
        now: seconds since the epoch.

    Returns:
        list: ``(session id, turns)`` pairs, the session buffered first first; empty when none.
    """
    newest: dict[str, float] = {}
    counts: dict[str, int] = {}
    for m in data.get("messages") or []:
        if not isinstance(m, dict) or not isinstance(m.get("session"), str) or m["session"] == session_id:
            continue
        if m.get("claimed") or m.get("failures") or m.get("busy"):
            continue  # being distilled now, or waiting for a retry (named by .buffers.Buffers.waiting_line)
        at = m.get("at")
        at = float(at) if isinstance(at, int | float) else now
        newest[m["session"]] = max(newest.get(m["session"], at), at)
        counts[m["session"]] = counts.get(m["session"], 0) + 1
    return [(s, counts[s]) for s in newest if now - newest[s] >= IDLE_S]


def left_in(state_dir: Path, cwd: str | None, session_id: str | None) -> list[tuple[str, int]]:
    """:func:`left_sessions` of the buffer of ``cwd``'s scope in the repo whose ``.git/memrepo`` is ``state_dir``.

    Never raises: an unreadable or missing buffer leaves nothing.
    """
    try:
        path = state_dir / "checkpoints" / f"{scope_key(cwd)}.json"
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return []
    return left_sessions(data, session_id, time.time()) if isinstance(data, dict) else []


def left_line(state_dir: Path) -> str | None:
    """One line for ``memrepo status``: the turns buffered longer than :data:`IDLE_S` seconds, not distilled yet;
    None when there are none. Never raises."""
    try:
        paths = sorted((state_dir / "checkpoints").glob("*.json"))
    except OSError:
        return None
    left: list[tuple[str, int]] = []
    now = time.time()
    for path in paths:
        try:
            data = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            left.extend(left_sessions(data, None, now))
    if not left:
        return None
    n = sum(turns for _s, turns in left)
    names = ", ".join(s for s, _t in left[:3]) + (f" and {len(left) - 3} more" if len(left) > 3 else "")
    return (
        f"{n} message{'s' * (n != 1)} of session{'s' * (len(left) != 1)} {names} buffered over "
        f"{int(IDLE_S // 60)} minutes, not in memory yet (the session ended without closing): distilled at the "
        "next session's start or turn in that folder"
    )


__all__ = ["IDLE_S", "left_in", "left_line", "left_sessions", "scope_key"]
