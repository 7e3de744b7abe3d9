#!/usr/bin/env python3
"""Benchmark: the first ``memrepo recall`` on a fresh clone, against ripgrep run side by side (docs/architecture.md §4).

For each query, the corpus is cloned afresh (``git clone``: no ``.git/memrepo``,
so no recall index), then, in turn:

- **memrepo**: ``memrepo --repo CLONE recall QUERY --json`` (the console
  script, a new process, as a person or an agent runs it), timed from start
  to exit. With no index it answers from a scan of the files and starts the
  build in the background (docs/architecture.md §4); an older memrepo builds
  the index first.
- **ripgrep** (the baseline): ``rg -i -n -F -e TERM ...`` over the clone for
  the query's words, one process, output discarded: every line with any
  term, unranked; run just before and just after memrepo, the mean reported
  (the first meets the files as memrepo does, the second after memrepo read them).
- **second**: the same recall once more, while the background build runs.

The background build a run started is then stopped (by its process id) and
the clone removed. Reported: each time, the ratio memrepo / ripgrep, and what
the answer said of the build (its ``scan`` field).

Usage:
    python benchmarks/bench_first_recall.py --corpus PATH [--memrepo CMD] [--queries N] [--keep-build]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUERIES = [
    "blue-green deploy",
    "pgvector",
    "部署前",
    "conventional commit messages",
    "staging cluster load tests",
    "item 4242",
]
"""Queries for a make_corpus.py repo: rare and common words, a phrase, CJK, a number."""


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return time.perf_counter() - start, done.stdout


def _builds(clone: Path) -> list[int]:
    """The process ids of background builds of ``clone`` (their command line names it)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(b"build_index" in part for part in cmdline) and str(clone).encode() in cmdline:
            pids.append(int(entry.name))
    return pids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--memrepo", default=shutil.which("memrepo") or "memrepo", help="the memrepo command to time")
    parser.add_argument("--queries", type=int, default=len(QUERIES))
    parser.add_argument(
        "--keep-build", action="store_true", help="wait for the background build instead of stopping it"
    )
    args = parser.parse_args()
    env = {**os.environ, "MEMREPO_CONFIG": os.devnull + ".none"}  # no config file: the defaults
    files = sum(1 for p in args.corpus.rglob("*.md") if ".git" not in p.parts)
    print(f"corpus {args.corpus} ({files:,} markdown files); memrepo: {args.memrepo}")
    print(f"{'query':<30} {'memrepo s':>9} {'rg s':>6} {'ratio':>7} {'second s':>8}  answer")
    ratios = []
    for query in QUERIES[: args.queries]:
        with tempfile.TemporaryDirectory(prefix="first-recall-") as tmp:
            clone = Path(tmp) / "clone"
            subprocess.run(["git", "clone", "-q", str(args.corpus), str(clone)], check=True)
            cmd = [*shlex.split(args.memrepo), "--repo", str(clone), "recall", query, "--json"]
            rg = ["rg", "-i", "-n", "-F", *[a for word in query.split() for a in ("-e", word)], str(clone)]
            rg_before, _ = _timed(rg, env)  # ripgrep before and after: each meets the page cache as memrepo does
            took, out = _timed(cmd, env)
            rg_after, _ = _timed(rg, env)
            rg_took = (rg_before + rg_after) / 2
            second, _ = _timed(cmd, env)
            lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
            said = (lines[0].get("scan") or "index") if lines else "no hit"
            ratios.append(took / rg_took)
            print(f"{query:<30} {took:9.2f} {rg_took:6.3f} {took / rg_took:7.1f} {second:8.2f}  {said}")
            if args.keep_build:
                while _builds(clone):
                    time.sleep(1)
            for pid in _builds(clone):
                os.kill(pid, signal.SIGKILL)
    ratios.sort()
    print(f"first recall / rg: median {ratios[len(ratios) // 2]:.1f}x, worst {ratios[-1]:.1f}x")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
