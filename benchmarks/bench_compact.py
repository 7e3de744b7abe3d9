#!/usr/bin/env python3
"""Benchmark: history compaction (``compact()``) side by side with the git command-line sequence.

On two private copies of one corpus (a memory repo, e.g. ``make_corpus.py
--commits 10000``):

- ``memrepo``: ``MemoryStore.compact()`` (orphan commit, refs and reflogs
  gone, one new pack: the old packs' entries of the kept objects copied as
  they are, libgit2's pack builder for the rest; old packs and loose objects
  deleted, engine state scrubbed).
- ``git CLI``: the seed's sequence (phase 1 §7.2): ``git checkout --orphan``,
  ``git commit``, replace ``main``, ``git reflog expire --expire=now --all``,
  ``git gc --prune=now``.

Each side runs ``--runs`` times on fresh copies; the median wall time is
compared, and the ``.git`` size after (bytes of every file under ``.git``).
Goal: memrepo within 1.5x git's time and 1.1x its ``.git`` size.

Usage:
    python benchmarks/bench_compact.py --corpus PATH [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from memrepo.engine.config import Settings

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memrepo.engine.git.measure import git_dir_size  # noqa: E402
from memrepo.engine.repo.store import MemoryStore  # noqa: E402

GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@localhost.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@localhost.invalid",
}


def commits(root: Path) -> int:
    """Commits reachable from any ref."""
    out = subprocess.run(["git", "rev-list", "--all", "--count"], cwd=root, capture_output=True, text=True)
    return int(out.stdout.strip() or 0)


def memrepo_compact(root: Path) -> float:
    """compact() on the repo; wall seconds (opening the store included)."""
    started = time.perf_counter()
    MemoryStore.open(root, Settings(), create=False).compact()
    return time.perf_counter() - started


def git_compact(root: Path) -> float:
    """The git command-line sequence; wall seconds."""
    env = {**os.environ, **GIT_ENV}

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)

    started = time.perf_counter()
    git("checkout", "-q", "--orphan", "compact-tmp")
    git("commit", "-q", "-m", "Compact history")
    git("branch", "-D", "main")
    git("branch", "-m", "main")
    git("reflog", "expire", "--expire=now", "--all")
    git("gc", "-q", "--prune=now")
    return time.perf_counter() - started


def run(corpus: Path, runs: int) -> None:
    """Time both sides on fresh copies and print the comparison."""
    if not (corpus / ".git").is_dir():
        raise SystemExit(f"{corpus} is not a git repository")
    before = commits(corpus)
    size_before = git_dir_size(corpus / ".git")
    times: dict[str, list[float]] = {"memrepo": [], "git CLI": []}
    sizes: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="bench-compact-") as tmp:
        for n in range(runs):
            for name, fn in (("memrepo", memrepo_compact), ("git CLI", git_compact)):
                copy = Path(tmp) / f"{name.replace(' ', '-')}-{n}"
                shutil.copytree(corpus, copy, symlinks=True)
                # Warm the copy's page cache equally for both sides.
                subprocess.run(["git", "status", "-s"], cwd=copy, capture_output=True)
                times[name].append(fn(copy))
                sizes[name] = git_dir_size(copy / ".git")
                assert commits(copy) == 1, f"{name} left {commits(copy)} commits"
                shutil.rmtree(copy)
    ours, theirs = statistics.median(times["memrepo"]), statistics.median(times["git CLI"])
    print(f"corpus: {corpus} ({before:,} commits, .git {size_before / 1e6:.1f} MB), {runs} run(s) each")
    print(f"{'':10} {'median s':>10} {'runs':>30} {'.git after':>12}")
    for name in ("memrepo", "git CLI"):
        shown = ", ".join(f"{t:.2f}" for t in times[name])
        print(f"{name:10} {statistics.median(times[name]):10.2f} {shown:>30} {sizes[name] / 1e3:10.1f} KB")
    time_ratio = ours / theirs
    size_ratio = sizes["memrepo"] / sizes["git CLI"]
    print(f"time ratio memrepo/git: {time_ratio:.2f}x (goal <= 1.5x) {'ok' if time_ratio <= 1.5 else 'MISSED'}")
    print(f".git size ratio memrepo/git: {size_ratio:.2f}x (goal <= 1.1x) {'ok' if size_ratio <= 1.1 else 'MISSED'}")


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True, help="a memory repo to copy (never modified)")
    parser.add_argument("--runs", type=int, default=3, help="runs per side (median reported)")
    args = parser.parse_args()
    run(args.corpus.resolve(), args.runs)


if __name__ == "__main__":
    main()
