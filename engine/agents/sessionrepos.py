"""Which memory repo each agent session uses (docs/architecture.md §6, "Tasks a dream reads").

A dream reads every Claude Code and Codex transcript of the machine. A user
may keep two memory repos (work and personal, or a scratch repo): a session
connected to one must not be copied into the other (breaker11 B11-9). The
hooks that read a session's transcript name their repo here, once per
session; a dream skips a session another repo claims. A session no hook ever
saw (hooks not installed, killed before its first turn) is claimed by none,
and any repo's dream may read it, as before.

The map lives in the user's cache folder (``<user cache>/memrepo/session-repos.json``):
session ids and repo paths only, no memory text. Losing it loses nothing: a
dream then reads as it did before this file existed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from memrepo.engine.configpath import user_cache_folder
from memrepo.engine.errors import MemrepoError
from memrepo.engine.files.atomic import atomic_write

FILE = "session-repos.json"
"""The map's file name in the user's cache folder."""
KEPT = 1_000
"""Sessions kept in the map (the oldest are dropped): a dream reads sessions of the last days."""


def map_path() -> Path:
    """The map's path: ``<user cache>/memrepo/session-repos.json`` (platformdirs' rule, XDG on Linux)."""
    return user_cache_folder() / FILE


def _key(repo: Path) -> str:
    return os.path.realpath(repo)


def _load(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def claim(session_id: str, repo: Path) -> None:
    """Name ``repo`` as the memory repo of ``session_id``; writes only when the map says otherwise.

    Args:
        session_id: the agent's session id (the hook payload's ``session_id``).
        repo: the memory repo the hook serves.

    Never raises: a map that cannot be written leaves dreams reading as before.
    """
    if not session_id:
        return
    path = map_path()
    owners = _load(path)
    want = _key(repo)
    if owners.get(session_id) == want:
        return
    owners.pop(session_id, None)
    owners[session_id] = want
    while len(owners) > KEPT:
        owners.pop(next(iter(owners)))
    try:
        atomic_write(path, json.dumps(owners).encode("utf-8"), private=True)
    except (MemrepoError, OSError):  # a cache: the dream then reads as before
        return


def claimed_elsewhere(session_ids: list[str], repo: Path) -> set[str]:
    """The sessions of ``session_ids`` that a hook of ANOTHER memory repo read.

    Args:
        session_ids: agent session ids (a task's id without its ``claude_code:`` / ``codex:`` prefix).
        repo: the memory repo whose dream asks.

    Returns:
        set[str]: the ids a dream of ``repo`` must not read; empty when the map is missing or unreadable.
    """
    owners = _load(map_path())
    if not owners:
        return set()
    mine = _key(repo)
    return {s for s in session_ids if s in owners and owners[s] != mine}


__all__ = ["claim", "claimed_elsewhere", "map_path"]
