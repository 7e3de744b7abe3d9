#!/usr/bin/env python3
"""Benchmark: the recall index's first build on a fresh clone, against ripgrep, and its size (docs/architecture.md §4).

For each run the corpus is cloned afresh (``git clone``: no ``.git/memrepo``),
then, in turn:

- **build**: a new process runs the build a recall starts in the background
  (``memrepo.engine.read.recallfile.build_index``, in the foreground here, at
  normal priority); its CPU time (user + system) and wall time are reported;
- **ripgrep** (the baseline): ``rg -i -n -F -e deploy -e pgvector`` over the
  same clone, output discarded, just before and just after the build, the mean
  reported: what reading every file once costs.

``--python`` runs the build with another interpreter (another checkout's
virtualenv), and ``--pythonpath`` puts a checkout first on its path: two
checkouts given alternate, run by run, so both meet the same machine load.

Reported per checkout: the median CPU and wall time of the build, its ratio to
ripgrep, and the size of ``recall.sqlite`` (plus ``vectors.sqlite`` when the
corpus holds one: vectors are kept by text, not copied by a clone) against the
markdown it indexes (the files' bytes, and ``du``'s disk blocks).

Usage:
    python benchmarks/bench_build.py --corpus PATH [--runs N] [--pythonpath DIR ...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import resource, sys, time
from memrepo.engine.read.recallfile import build_index
import os
t = time.perf_counter()
saved = os.dup(1)
build_index(sys.argv[1])
wall = time.perf_counter() - t
use = resource.getrusage(resource.RUSAGE_SELF)
os.write(saved, f"{wall} {use.ru_utime + use.ru_stime}\\n".encode())
"""
"""The build's process: prints its wall and CPU seconds (build_index sends its own output nowhere)."""


def _rg(clone: Path) -> float:
    cmd = ["rg", "-i", "-n", "-F", "-e", "deploy", "-e", "pgvector", str(clone)]
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def _markdown_bytes(root: Path) -> tuple[int, int]:
    """(bytes, disk blocks in bytes) of the markdown files under ``root``, ``.git`` left out."""
    size = blocks = 0
    for path in root.rglob("*.md"):
        if ".git" in path.relative_to(root).parts:
            continue
        st = path.stat()
        size += st.st_size
        blocks += st.st_blocks * 512
    return size, blocks


def _build(python: str, pythonpath: str | None, corpus: Path) -> tuple[float, float, float, int]:
    """One fresh clone built: (wall s, CPU s, rg s, recall.sqlite bytes)."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(corpus), str(clone)], check=True)
        rg_before = _rg(clone)
        out = subprocess.run([python, "-c", CHILD, str(clone)], env=env, capture_output=True, text=True, check=True)
        rg_after = _rg(clone)
        wall, cpu = (float(x) for x in out.stdout.split())
        size = (clone / ".git" / "memrepo" / "recall.sqlite").stat().st_size
    return wall, cpu, (rg_before + rg_after) / 2, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--python", default=sys.executable, help="the interpreter that builds")
    parser.add_argument(
        "--pythonpath", action="append", default=[], help="a folder put first on the build's path (one per checkout)"
    )
    args = parser.parse_args()
    checkouts = args.pythonpath or [""]
    md, md_blocks = _markdown_bytes(args.corpus)
    vectors = args.corpus / ".git" / "memrepo" / "vectors.sqlite"
    vec = vectors.stat().st_size if vectors.is_file() else 0
    files = sum(1 for p in args.corpus.rglob("*.md") if ".git" not in p.relative_to(args.corpus).parts)
    print(f"corpus {args.corpus}: {files:,} markdown files, {md / 1e6:.1f} MB ({md_blocks / 1e6:.1f} MB on disk)")
    got: dict[str, list[tuple[float, float, float, int]]] = {c: [] for c in checkouts}
    for _ in range(args.runs):
        for checkout in checkouts:  # alternate: each checkout meets the same load
            got[checkout].append(_build(args.python, checkout or None, args.corpus))
    print(f"{'checkout':<40} {'cpu s':>7} {'wall s':>7} {'rg s':>6} {'cpu/rg':>7} {'index MB':>9} {'index/md':>9}")
    for checkout, runs in got.items():
        cpu = sorted(r[1] for r in runs)[len(runs) // 2]
        wall = sorted(r[0] for r in runs)[len(runs) // 2]
        rg = sorted(r[2] for r in runs)[len(runs) // 2]
        size = runs[-1][3] + vec
        name = checkout or "(installed)"
        print(f"{name:<40} {cpu:7.2f} {wall:7.2f} {rg:6.3f} {cpu / rg:7.0f} {size / 1e6:9.1f} {size / md:9.2f}")
    if vec:
        print(f"(index MB includes vectors.sqlite of the corpus: {vec / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
