"""memrepo's engine: an agent's long-term memory in a local git repository.

The public API, imported lazily so ``import engine`` stays cheap
. Nothing in this package imports Textual.

- :class:`MemoryRepo`: the awaitable repo (open, remember, forget, reads, live changes).
- :class:`MemoryStore`: its synchronous core, for one thread.
- Models: :class:`Candidate`, :class:`WriteResult`, :class:`Action`,
  :class:`CommitInfo`, :class:`RepoStatus`, :class:`RepoState`,
  :class:`FileView`, :class:`EntryView`, :class:`ChangeEvent`,
  :class:`CompactPreview`, :class:`CompactProgress`, :class:`CompactResult`,
  :class:`HealthRow`, :class:`HealthStatus`.
- Errors: :class:`MemrepoError` and its subclasses.
- Dreams: :class:`Dreamer` (sync), :class:`DreamRecord`, :class:`DreamSkipped`,
  :class:`DreamConflict` (docs/architecture.md §6).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "MemoryRepo": "memrepo.engine.repo.repo",
    "MemoryStore": "memrepo.engine.repo.store",
    "Candidate": "memrepo.engine.models",
    "WriteResult": "memrepo.engine.models",
    "Action": "memrepo.engine.models",
    "CommitInfo": "memrepo.engine.models",
    "RepoStatus": "memrepo.engine.models",
    "RepoState": "memrepo.engine.models",
    "FileView": "memrepo.engine.models",
    "EntryView": "memrepo.engine.models",
    "ChangeEvent": "memrepo.engine.models",
    "CompactPreview": "memrepo.engine.models",
    "CompactProgress": "memrepo.engine.models",
    "CompactResult": "memrepo.engine.models",
    "HealthRow": "memrepo.engine.repo.health",
    "HealthStatus": "memrepo.engine.repo.health",
    "MemrepoError": "memrepo.engine.errors",
    "PathRuleError": "memrepo.engine.errors",
    "FormatError": "memrepo.engine.errors",
    "LimitError": "memrepo.engine.errors",
    "RefError": "memrepo.engine.errors",
    "BusyError": "memrepo.engine.errors",
    "BlockedError": "memrepo.engine.errors",
    "GitError": "memrepo.engine.errors",
    "ConfigError": "memrepo.engine.errors",
    "Settings": "memrepo.engine.config",
    "load_settings": "memrepo.engine.config",
    "resolve_repo_path": "memrepo.engine.config",
    "libgit2_version": "memrepo.engine.git.store",
    "Dreamer": "memrepo.engine.dreams.dreamer",
    "DreamConflict": "memrepo.engine.dreams.dreamer",
    "DreamRecord": "memrepo.engine.dreams.record",
    "DreamSkipped": "memrepo.engine.dreams.gate",
    "MemoryStats": "memrepo.engine.history.stats",
    "compute_stats": "memrepo.engine.history.stats",
    "SessionReads": "memrepo.engine.read.readcount",
    "recall_block": "memrepo.engine.read.promptblock",
    "fence_safe": "memrepo.engine.agents.confinedread",
    "raw_too_long": "memrepo.engine.write.policy",
    "text_refusal": "memrepo.engine.write.policy",
    "NEAREST_LINE": "memrepo.engine.read.recallnear",
    "since_mark": "memrepo.engine.read.modeline",
    "block_marks": "memrepo.engine.read.blockmarks",
    "trim_heap": "memrepo.engine.files.heap",
    "stale_did": "memrepo.engine.write.stalewords",
    "stale_named": "memrepo.engine.write.stalewords",
    "semantic_extra_missing": "memrepo.engine.read.semantic_model",
}

if TYPE_CHECKING:  # the names as type checkers see them; at run time each loads on first use
    from memrepo.engine.agents.confinedread import fence_safe
    from memrepo.engine.config import Settings, load_settings, resolve_repo_path
    from memrepo.engine.dreams.dreamer import DreamConflict, Dreamer
    from memrepo.engine.dreams.gate import DreamSkipped
    from memrepo.engine.dreams.record import DreamRecord
    from memrepo.engine.errors import (
        BlockedError,
        BusyError,
        ConfigError,
        FormatError,
        GitError,
        LimitError,
        MemrepoError,
        PathRuleError,
        RefError,
    )
    from memrepo.engine.files.heap import trim_heap
    from memrepo.engine.git.store import libgit2_version
    from memrepo.engine.history.stats import MemoryStats, compute_stats
    from memrepo.engine.models import (
        Action,
        Candidate,
        ChangeEvent,
        CommitInfo,
        CompactPreview,
        CompactProgress,
        CompactResult,
        EntryView,
        FileView,
        RepoState,
        RepoStatus,
        WriteResult,
    )
    from memrepo.engine.read.blockmarks import block_marks
    from memrepo.engine.read.modeline import since_mark
    from memrepo.engine.read.promptblock import recall_block
    from memrepo.engine.read.readcount import SessionReads
    from memrepo.engine.read.recallnear import NEAREST_LINE
    from memrepo.engine.read.semantic_model import semantic_extra_missing
    from memrepo.engine.repo.health import HealthRow, HealthStatus
    from memrepo.engine.repo.repo import MemoryRepo
    from memrepo.engine.repo.store import MemoryStore
    from memrepo.engine.write.policy import raw_too_long, text_refusal
    from memrepo.engine.write.stalewords import stale_did, stale_named

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
