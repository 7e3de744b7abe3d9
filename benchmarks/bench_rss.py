#!/usr/bin/env python3
"""Benchmark: the resident memory of a process that holds a repo open as the MCP server does, with hybrid recall.

On a private copy of ``--corpus`` (copied, never changed; its ``.git/memrepo``
comes along, so an index and vectors built once are reused), in this process:

1. ``MemoryRepo.open`` and ``warm_recall`` (the MCP server's start);
2. with ``--build-vectors``, the vectors brought up to date here first
   (bounded by ``[semantic] max_entries``; hours at 20,000 files on a loaded
   machine if none exist yet: build them once on the corpus, then measure);
3. a few recalls of every kind, as an agent sends them.

After each step it prints RSS, split into anonymous memory (the heaps: what
memrepo holds) and file-backed pages (shared libraries and mapped files, which
the kernel drops under memory pressure: compare anonymous memory across
machines), and the peak. At the end it prints what ``malloc_trim(0)`` gives back
(glibc only): a large share means freed memory the process keeps.

Usage:
    python benchmarks/bench_rss.py --corpus PATH [--build-vectors] [--in-place]
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import tempfile
import time
from pathlib import Path

from _common import copy_corpus

QUERIES = [
    "the team",
    "postgres upgrade",
    "which database does billing use",
    "deploy on fridays",
    "who reviews frontend changes",
    "pnpm",
    "東京の案件",
]
"""A very common word, keywords, paraphrases, CJK (as in the lead's RSS check of issue 30)."""


def _rss() -> tuple[float, float, float]:
    """(RSS, anonymous, file-backed) in MB, from /proc/self/status (zeros where there is none)."""
    got: dict[str, float] = {}
    try:
        with open("/proc/self/status") as f:
            for line in f:
                key = line.split(":", 1)[0]
                if key in ("VmRSS", "RssAnon", "RssFile"):
                    got[key] = int(line.split()[1]) / 1024
    except OSError:
        pass
    return got.get("VmRSS", 0.0), got.get("RssAnon", 0.0), got.get("RssFile", 0.0)


def _say(step: str) -> None:
    rss, anon, file = _rss()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{step:<40} rss {rss:6.0f} MB  anon {anon:6.0f}  file {file:5.0f}  peak {peak:6.0f}", flush=True)


async def _measure(root: Path, build_vectors: bool) -> None:
    from memrepo.engine.config import Settings
    from memrepo.engine.repo.repo import MemoryRepo

    settings = Settings()
    _say("started")
    repo = await MemoryRepo.open(root, settings, create=False)
    try:
        start = time.perf_counter()
        await repo.warm_recall()
        _say(f"index ready ({time.perf_counter() - start:.0f} s)")
        if build_vectors:
            from memrepo.engine.read.semantic_build import build_vectors as build
            from memrepo.engine.read.semantic_model import make_embedder

            start = time.perf_counter()
            stored = build(root, make_embedder(settings.semantic), settings.semantic.max_entries)
            _say(f"{stored} vectors built ({time.perf_counter() - start:.0f} s)")
        for query in QUERIES:
            hits = await repo.recall(query)
            _say(f"recall {query!r}: {len(hits)} hits")
        from memrepo.engine.files.heap import trim_heap

        before = _rss()[0]
        if trim_heap():
            print(f"malloc_trim(0) gave back {before - _rss()[0]:.1f} MB", flush=True)
        _say("after the trim")
    finally:
        await repo.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--build-vectors", action="store_true", help="bring the vectors up to date before measuring")
    parser.add_argument(
        "--in-place", action="store_true", help="use the corpus itself (its .git/memrepo is written), not a copy"
    )
    args = parser.parse_args()
    if args.in_place:
        asyncio.run(_measure(args.corpus.resolve(), args.build_vectors))
        return
    with tempfile.TemporaryDirectory(prefix="bench-rss-") as tmp:
        root, _head = copy_corpus(args.corpus, Path(tmp))
        asyncio.run(_measure(root, args.build_vectors))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
