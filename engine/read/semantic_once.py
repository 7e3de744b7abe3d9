"""Hybrid recall in a one-shot process (the prompt hook): :func:`fuse_once` fuses with the vectors a long-running
process built, read as they are (docs/architecture.md §4, "Who fuses"); the rule is :mod:`.semantic_fuse`'s."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from .semantic_fuse import RecallInfo, SemanticRecall
from .semantic_model import make_embedder

if TYPE_CHECKING:
    from memrepo.engine.config import SemanticSettings

    from .recall import RecallIndex


ONCE_MIN_COVERED = 0.0
"""The share of entries that must have a vector for a one-shot process (the prompt hook) to fuse: any, since
an entry with no vector keeps its lexical place (:func:`~.recallorder.uncovered_in_place`), the one rule of every
process (it was 0.9, a judgement, when fusing pushed such entries down; docs/architecture.md §4, "Who fuses")."""


def fuse_once(
    index: RecallIndex,
    query: str,
    found: list[tuple[int, tuple]],
    pool: list[tuple[int, tuple]],
    settings: SemanticSettings,
    *,
    workspace_file: str | None,
    workspace_id: str | None,
    scoped: bool,
    limit: int,
    min_covered: float = ONCE_MIN_COVERED,
    related: bool = False,
    warm: SemanticRecall | None = None,
) -> tuple[list[tuple[int, tuple]], RecallInfo]:
    """:meth:`SemanticRecall.fuse` in a one-shot process: the vectors a long-running one built, read as they are.

    Nothing is built or started (no background thread, no vector computed). The model is
    loaded only when the repo has a vectors file made in its vector space (a model change
    leaves the other's vectors until the MCP server or the app rebuilds them) covering at least
    ``min_covered`` of the entries (by default any: the fusion rule holds at every coverage);
    otherwise the lexical list is answered, with no note.

    Args:
        index: the open recall index.
        query: the query.
        found: the lexical hits over the confidence minimum, to ``limit + DEPTH``.
        pool: the lexical hits with no confidence minimum, as deep.
        settings: ``[semantic]`` (or an object with the same fields).
        workspace_file, workspace_id, scoped, limit: as for :meth:`SemanticRecall.fuse`.
        min_covered: the share of entries with a vector needed to fuse (0.0-1.0).
        related: as for :meth:`SemanticRecall.fuse` (the fused list, its info's ``answered`` False, not nothing).
        warm: a long-running process's semantic half (model loaded, vectors read; the recall door), used
            instead of a new one and left open; the same gates apply, the floor is ``settings.answer_similarity``.

    Returns:
        tuple: (item ids with sort keys, best first, at most ``limit``; how it was answered).
        Never raises for the model's or the vectors' sake.
    """
    from .semantic_store import vector_space, vectors_path

    lexical = found[:limit]
    if warm is not None:  # a warm process builds what is missing, as its own recalls do, fusing or not
        with warm._lock:
            warm.kick(index)
    if not vectors_path(index.root).is_file():
        return lexical, RecallInfo()
    embedder = make_embedder(settings) if warm is None else warm.embedder
    if embedder is None:
        return lexical, RecallInfo()
    semantic = SemanticRecall(index.root, settings, embedder, background=False) if warm is None else warm
    try:
        try:
            store = semantic._vectors()
            have, total = store.counts()
            space = store.space()
        except (sqlite3.Error, OSError) as exc:
            return lexical, RecallInfo("lexical", 0.0, f"vectors cannot be read: {exc}")
        covered = have / total if total else 0.0
        if space != vector_space(embedder.model_id) or covered < min_covered:
            return lexical, RecallInfo("lexical", covered, None)
        return semantic.fuse(
            index,
            query,
            found,
            workspace_file=workspace_file,
            workspace_id=workspace_id,
            scoped=scoped,
            limit=limit,
            pool=pool,
            related=related,
            answer_similarity=settings.answer_similarity,
        )
    finally:
        if warm is None:
            semantic.close()
