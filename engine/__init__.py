"""memrepo's engine: an agent's long-term memory in a local git repository.

The public API, imported lazily so ``import engine`` stays cheap
(STYLE.md habit 13). Nothing in this package imports Textual.

- :class:`MemoryRepo`: the awaitable repo (open, remember, forget, reads, live changes).
- :class:`MemoryStore`: its synchronous core, for one thread.
- Models: :class:`Candidate`, :class:`WriteResult`, :class:`Action`,
  :class:`CommitInfo`, :class:`RepoStatus`, :class:`RepoState`,
  :class:`FileView`, :class:`EntryView`, :class:`ChangeEvent`,
  :class:`CompactPreview`, :class:`CompactProgress`, :class:`CompactResult`,
  :class:`HealthRow`, :class:`HealthStatus`.
- Errors: :class:`MemrepoError` and its subclasses.
- Dreams: :class:`Dreamer` (sync), :class:`DreamRecord`, :class:`DreamSkipped`,
  :class:`DreamConflict` (DESIGN.md §6).
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "MemoryRepo": "engine.repo",
    "MemoryStore": "engine.store",
    "Candidate": "engine.models",
    "WriteResult": "engine.models",
    "Action": "engine.models",
    "CommitInfo": "engine.models",
    "RepoStatus": "engine.models",
    "RepoState": "engine.models",
    "FileView": "engine.models",
    "EntryView": "engine.models",
    "ChangeEvent": "engine.models",
    "CompactPreview": "engine.models",
    "CompactProgress": "engine.models",
    "CompactResult": "engine.models",
    "HealthRow": "engine.health",
    "HealthStatus": "engine.health",
    "MemrepoError": "engine.errors",
    "PathRuleError": "engine.errors",
    "FormatError": "engine.errors",
    "LimitError": "engine.errors",
    "RefError": "engine.errors",
    "BusyError": "engine.errors",
    "BlockedError": "engine.errors",
    "GitError": "engine.errors",
    "ConfigError": "engine.errors",
    "Settings": "engine.config",
    "load_settings": "engine.config",
    "resolve_repo_path": "engine.config",
    "libgit2_version": "engine.gitstore",
    "Dreamer": "engine.dreamer",
    "DreamConflict": "engine.dreamer",
    "DreamRecord": "engine.dreamrecord",
    "DreamSkipped": "engine.dreamgate",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
