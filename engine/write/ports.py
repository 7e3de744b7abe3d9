"""What the engine's collaborators see of an open store: two protocols, so they need not import it.

:class:`~.store.MemoryStore` satisfies both. Compaction, sync, dreams and the
conflict writers take a :class:`WriteAccess` (the one write transaction and
the git store); checkpoints and distillation take a :class:`MemoryAccess`
(also remember, forget, recall and context). Typing against these instead of
``MemoryStore`` keeps the import graph acyclic (docs/architecture.md §1).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

from memrepo.engine.config import Settings
from memrepo.engine.files.lock import WriteLock
from memrepo.engine.git.store import GitStore
from memrepo.engine.models import Candidate, ContextBlock, Origin, RecallHit, WriteResult

from .writer import Transaction


class WriteAccess(Protocol):
    """An open memory repo as its writers see it: work tree, git store, lock and the write transaction."""

    git: GitStore
    """The git store; compaction replaces it (old packs are gone)."""

    settings: Settings
    """The process's one settings object (sync reads ``[sync]`` from it)."""

    @property
    def root(self) -> Path:
        """The work tree's absolute path."""
        ...

    @property
    def lock(self) -> WriteLock:
        """The cross-process write lock."""
        ...

    @property
    def state_dir(self) -> Path:
        """The engine's state folder, ``.git/memrepo/``."""
        ...

    def list_files(self) -> list[tuple[str, int]]:
        """Every work-tree file with its size."""
        ...

    def commit_hand_edits(self, paths: list[str] | None = None, leave_staged: bool = False) -> str | None:
        """Commit files changed by hand ("Hand edits")."""
        ...

    def transaction(
        self, purpose: str, scan: list[str] | None = None, *, hand_edits: bool = True
    ) -> AbstractContextManager[Transaction]:
        """The one write transaction (:meth:`.writer.Writer.transaction`)."""
        ...


class MemoryAccess(WriteAccess, Protocol):
    """An open memory repo as checkpoints and distillation see it: also remember, forget, recall, context."""

    def remember(self, cand: Candidate) -> WriteResult:
        """Save one memory through the governed writer."""
        ...

    def forget(
        self, ref: str, origin: Origin = "cli", task: str | None = None, expect: str | None = None
    ) -> WriteResult:
        """Remove one entry in its own commit."""
        ...

    def recall(self, query: str, workspace: str | None = None, limit: int = 10) -> list[RecallHit]:
        """Search the memory folder."""
        ...

    def context(self, workspace: str | None = None) -> ContextBlock:
        """The context block an agent gets."""
        ...
