#!/usr/bin/env python3
"""Benchmark: ``memory_recall`` and ``memory_context`` through the MCP stdio server vs the engine in-process.

On a private copy of a corpus (a memory repo such as one made by
``make_corpus.py``; the original is never written), the same queries run:

- ``in-process``: ``await MemoryRepo.recall()`` / ``context()`` with the
  watcher running and the recall index warm: the baseline.
- ``MCP stdio``: ``memrepo --repo COPY mcp`` as a real subprocess, driven
  by the official SDK's stdio client (``session.call_tool``): what an agent
  pays per call, JSON-RPC framing, pipes and argument validation included.

Prints p50/p95 per call in milliseconds, the ratio to in-process and the
absolute overhead per call, plus the server's start-up time (process start
to tools listed).

Usage:
    python benchmarks/bench_mcp.py --corpus PATH [--calls 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from memrepo.engine.config import Settings

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import percentile  # noqa: E402

from memrepo.engine.repo.repo import MemoryRepo  # noqa: E402


def workload(root: Path, calls: int, seed: int = 7) -> tuple[list[str], list[str]]:
    """(queries, workspace ids): words drawn from entries, workspaces from the workspace files."""
    rng = random.Random(seed)
    words: list[str] = []
    for path in sorted(root.rglob("*.md"))[:400]:
        if ".git" in path.parts:
            continue
        words.extend(w for w in re.findall(r"[a-z]{5,}", path.read_text("utf-8", "replace").lower())[:50])
    ids = re.findall(
        r"workspace: (ws-[0-9a-f]{8})",
        "".join(p.read_text("utf-8", "replace")[:400] for p in sorted((root / "workspaces").glob("*.md"))),
    )
    if not words or not ids:
        raise SystemExit(f"{root} has no entries or no workspaces: is it a make_corpus.py repo?")
    queries = [" ".join(rng.sample(words, 2)) for _ in range(calls)]
    return queries, [rng.choice(ids) for _ in range(calls)]


async def in_process(root: Path, queries: list[str], spaces: list[str]) -> dict[str, list[float]]:
    repo = await MemoryRepo.open(root, Settings(), create=False)
    repo.start_watching()
    await repo.warm_recall()
    await asyncio.sleep(1.2)  # the watcher is trusted after it settles (docs/architecture.md §4)
    out: dict[str, list[float]] = {"recall": [], "context": []}
    try:
        for query, ws in zip(queries, spaces, strict=True):
            t = time.perf_counter()
            await repo.recall(query, ws, 10)
            out["recall"].append(time.perf_counter() - t)
            t = time.perf_counter()
            await repo.context(ws)
            out["context"].append(time.perf_counter() - t)
    finally:
        await repo.close()
    return out


async def over_stdio(root: Path, queries: list[str], spaces: list[str]) -> tuple[float, dict[str, list[float]]]:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memrepo.cli.main", "--repo", str(root), "mcp"],
        env=env,
        cwd=str(root.parent),
    )
    out: dict[str, list[float]] = {"recall": [], "context": []}
    started = time.perf_counter()
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            startup = time.perf_counter() - started
            await asyncio.sleep(1.2)
            await session.call_tool("memory_recall", {"query": "warm up"})
            for query, ws in zip(queries, spaces, strict=True):
                t = time.perf_counter()
                result = await session.call_tool("memory_recall", {"query": query, "cwd": ws, "limit": 10})
                out["recall"].append(time.perf_counter() - t)
                if result.is_error:
                    raise SystemExit(f"memory_recall failed: {result.content}")
                t = time.perf_counter()
                result = await session.call_tool("memory_context", {"cwd": ws})
                out["context"].append(time.perf_counter() - t)
                if result.is_error:
                    raise SystemExit(f"memory_context failed: {result.content}")
    return startup, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True, help="A memory repo to copy (never written).")
    parser.add_argument("--calls", type=int, default=200, help="Calls of each tool.")
    args = parser.parse_args()
    corpus = args.corpus.resolve()
    if not (corpus / "MEMORY.md").is_file():
        raise SystemExit(f"{corpus} is not a memory repo (no MEMORY.md)")
    with tempfile.TemporaryDirectory(prefix="bench-mcp-") as tmp:
        root = Path(tmp) / "memory"
        shutil.copytree(corpus, root, symlinks=True)
        queries, spaces = workload(root, args.calls)
        base = asyncio.run(in_process(root, queries, spaces))
        startup, mcp = asyncio.run(over_stdio(root, queries, spaces))
    files = sum(1 for _ in corpus.glob("**/*.md") if ".git" not in _.parts)
    print(f"corpus {corpus} ({files} markdown files), {args.calls} calls of each tool")
    print(f"MCP server start-up (process start to tools listed): {startup * 1000:.0f} ms")
    print(
        f"{'tool':<16}{'in-process p50/p95 ms':>24}{'MCP stdio p50/p95 ms':>24}{'ratio p50':>11}{'overhead p50 ms':>17}"
    )
    for tool in ("recall", "context"):
        b50, b95 = percentile(base[tool], 0.5) * 1000, percentile(base[tool], 0.95) * 1000
        m50, m95 = percentile(mcp[tool], 0.5) * 1000, percentile(mcp[tool], 0.95) * 1000
        ratio = m50 / b50 if b50 else float("inf")
        print(f"memory_{tool:<9}{b50:>12.2f} / {b95:<9.2f}{m50:>12.2f} / {m95:<9.2f}{ratio:>10.1f}x{m50 - b50:>17.2f}")


if __name__ == "__main__":
    main()
