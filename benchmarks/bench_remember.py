#!/usr/bin/env python3
"""Benchmark: ``remember()`` against the same write done with the git command line.

Both run side by side on private copies of one corpus (a memory repo such as
one made by ``make_corpus.py``). Each write appends one entry to a workspace
file and commits it:

- ``git CLI``: append with Python, then ``git add <path>`` and ``git commit``
  (hooks off, as memrepo never runs them): the baseline.
- ``memrepo scan``: ``await MemoryRepo.remember()`` with a full hand-edit
  scan of the work tree before each write (no watcher running).
- ``memrepo watch``: the same with the watcher running, so only the paths it
  saw change (plus the target and MEMORY.md) are checked for hand edits.

Prints p50/p95 latency per write in milliseconds as the caller sees it and
throughput over the whole run (index updates included), each with its
speed-up ratio over the command line, then checks
that ``git status --porcelain`` is clean after the memrepo writes (the index
kept in step).

Usage:
    python benchmarks/bench_remember.py --corpus PATH [--writes 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from memrepo.engine.config import Settings

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import GIT_ENV, percentile  # noqa: E402

from memrepo.engine.models import Candidate  # noqa: E402
from memrepo.engine.repo.repo import MemoryRepo  # noqa: E402


def copy_corpus(corpus: Path, dest: Path) -> Path:
    """Copy the corpus (with .git) to dest and return it."""
    shutil.copytree(corpus, dest, symlinks=True)
    return dest


def workspace_id(path: Path) -> str:
    """The ``workspace:`` id in a workspace file's first lines."""
    match = re.search(r"workspace: (ws-[0-9a-z]{8})", path.read_text(encoding="utf-8"))
    if match is None:
        raise SystemExit(f"{path} names no workspace id")
    return match.group(1)


def workspaces(root: Path, count: int) -> list[str]:
    """Names of existing workspace files to write to, round robin."""
    files = sorted((root / "workspaces").glob("*.md"))[:count]
    if not files:
        raise SystemExit(f"{root} has no workspaces/*.md: is it a make_corpus.py repo?")
    return [f.name for f in files]


def bench_git_cli(root: Path, writes: int, targets: list[str]) -> list[float]:
    """Append + git add + git commit per write; returns seconds per write."""
    times: list[float] = []
    git = ["git", "-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false"]
    for i in range(writes):
        rel = f"workspaces/{targets[i % len(targets)]}"
        t0 = time.perf_counter()
        with open(root / rel, "a", encoding="utf-8") as fh:
            fh.write(f"- Benchmark entry {i} for the command line [by: agent; added: 2026-11-30]\n")
        subprocess.run([*git, "add", "--", rel], cwd=root, check=True, env=GIT_ENV)
        subprocess.run(
            [*git, "commit", "-q", "-m", f"Remember fact: benchmark entry {i}\n\nOrigin: cli", "--", rel],
            cwd=root,
            check=True,
            env=GIT_ENV,
        )
        times.append(time.perf_counter() - t0)
    return times


async def bench_memrepo(root: Path, writes: int, targets: list[str], watch: bool) -> tuple[list[float], float]:
    """``remember()`` per write on an open MemoryRepo; returns seconds per write and the wall time.

    The wall time runs to the end of the last write's index update, so
    throughput counts all the work, not only what the caller waited for.
    """
    repo = await MemoryRepo.open(root, Settings(), create=False)
    try:
        if watch:
            repo.start_watching()
            await asyncio.sleep(0.5)  # let the watcher register before timing
        # Workspace files name their workspace id in their first entry; writing
        # by that id routes to the same file the command line writes.
        names = [workspace_id(root / "workspaces" / t) for t in targets]
        await repo.remember(Candidate(text="warm-up entry", scope="workspace", workspace=names[0]))
        times: list[float] = []
        started = time.perf_counter()
        for i in range(writes):
            cand = Candidate(
                text=f"Benchmark entry {i} through memrepo",
                scope="workspace",
                workspace=names[i % len(names)],
            )
            t0 = time.perf_counter()
            result = await repo.remember(cand)
            times.append(time.perf_counter() - t0)
            if result.commit is None:
                raise SystemExit(f"write {i} made no commit: {result}")
        await repo.head()  # waits for the last index update on the worker thread
        return times, time.perf_counter() - started
    finally:
        await repo.close()


def report(name: str, times: list[float], wall: float, baseline: tuple[float, float] | None) -> tuple[float, float]:
    """Print one row: latency p50/p95 and throughput, with ratios to the baseline.

    Args:
        name: the row's label.
        times: seconds per write as the caller saw them.
        wall: seconds for all the writes, start to end (throughput).
        baseline: the baseline's (p50, wall), or None for the baseline row.

    Returns:
        tuple[float, float]: this row's (p50, wall).
    """
    p50, p95 = percentile(times, 0.5), percentile(times, 0.95)
    ratio = f"{baseline[0] / p50:4.1f}x" if baseline else "1.0x"
    tput = f"{baseline[1] / wall:4.1f}x" if baseline else "1.0x"
    print(
        f"{name:<14} p50 {p50 * 1000:6.2f} ms ({ratio})  p95 {p95 * 1000:6.2f} ms  "
        f"throughput {len(times) / wall:6.1f} writes/s ({tput})"
    )
    return p50, wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, required=True, help="a memory repo to copy (not modified)")
    ap.add_argument("--writes", type=int, default=200, help="writes per mode")
    ap.add_argument("--workspaces", type=int, default=50, help="distinct files written round robin")
    args = ap.parse_args()
    corpus = args.corpus.resolve()
    if not (corpus / ".git").is_dir():
        raise SystemExit(f"{corpus} is not a git repository")
    with tempfile.TemporaryDirectory(prefix="memrepo-bench-") as tmp:
        tmpdir = Path(tmp)
        os.environ["HOME"] = str(tmpdir)  # no user git config, no user memrepo config
        n_files = sum(1 for p in corpus.rglob("*") if p.is_file() and ".git" not in p.parts)
        print(f"corpus {corpus}: {n_files} files; {args.writes} writes per mode\n")
        cli_root = copy_corpus(corpus, tmpdir / "cli")
        targets = workspaces(cli_root, args.workspaces)
        t0 = time.perf_counter()
        cli = bench_git_cli(cli_root, args.writes, targets)
        base = report("git CLI", cli, time.perf_counter() - t0, None)
        for mode in ("scan", "watch"):
            root = copy_corpus(corpus, tmpdir / mode)
            times, wall = asyncio.run(bench_memrepo(root, args.writes, targets, watch=mode == "watch"))
            report(f"memrepo {mode}", times, wall, base)
            porcelain = subprocess.run(
                ["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True, check=True
            ).stdout
            state = "clean" if not porcelain.strip() else f"NOT clean:\n{porcelain[:500]}"
            print(f"{'':<16} git status after memrepo {mode}: {state}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
