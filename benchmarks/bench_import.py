#!/usr/bin/env python3
"""Benchmark: ``memrepo import`` of N generic JSON Lines items against a git-CLI loop.

Both run side by side on private copies of one corpus (a memory repo such as
one made by ``make_corpus.py``; the corpus itself is never written). Each of
the N items is one fact and one commit:

- ``git CLI``: append the entry to me.md with Python, then ``git add me.md``
  and ``git commit`` (hooks off): the baseline, with no policy, no dedupe and
  no marker.
- ``memrepo import``: :func:`memrepo.engine.importers.import_source` on a JSONL file of
  the same N facts: policy and redaction, routing, dedupe, one commit per
  fact, the marker appended per item. Then a second run, which must add
  nothing (and is timed too).

Prints total seconds, items per second and the speed-up over the command
line, then checks that ``git status --porcelain`` is clean and the commit
count grew by exactly N.

Usage:
    python benchmarks/bench_import.py --corpus PATH [--items 300]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from memrepo.engine.config import Settings

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import GIT_ENV  # noqa: E402

from memrepo.engine.importers import import_source  # noqa: E402
from memrepo.engine.repo.store import MemoryStore  # noqa: E402


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "core.hooksPath=/dev/null", *args],
        cwd=root,
        env=GIT_ENV,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def facts(n: int) -> list[str]:
    return [f"Imported benchmark fact {i}: the widget service {i % 17} uses port {8000 + i}" for i in range(n)]


def run_git(root: Path, texts: list[str]) -> float:
    start = time.perf_counter()
    for text in texts:
        with (root / "me.md").open("a", encoding="utf-8") as fh:
            fh.write(f"- {text} [by: agent; kind: fact]\n")
        git(root, "add", "me.md")
        git(root, "commit", "-q", "-m", f"Remember fact: {text[:60]}")
    return time.perf_counter() - start


def commit_count(root: Path) -> int:
    return int(git(root, "rev-list", "--count", "HEAD").strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", required=True, type=Path, help="A memory repo to copy (never written).")
    parser.add_argument("--items", type=int, default=300, help="Facts to import (default 300).")
    args = parser.parse_args()
    corpus = args.corpus.expanduser().resolve()
    if not (corpus / ".git").is_dir():
        print(f"bench_import: {corpus} is not a git repo", file=sys.stderr)
        return 2
    texts = facts(args.items)
    with tempfile.TemporaryDirectory(prefix="bench-import-") as tmp:
        base = Path(tmp)
        git_copy, mem_copy = base / "git", base / "mem"
        shutil.copytree(corpus, git_copy, symlinks=True)
        shutil.copytree(corpus, mem_copy, symlinks=True)
        source = base / "facts.jsonl"
        source.write_text("".join(json.dumps({"text": t, "kind": "fact"}) + "\n" for t in texts))

        git_s = run_git(git_copy, texts)

        store = MemoryStore.open(mem_copy, Settings(), create=False)
        before = commit_count(mem_copy)
        start = time.perf_counter()
        report = import_source(store, source, "jsonl")
        mem_s = time.perf_counter() - start
        start = time.perf_counter()
        again = import_source(store, source, "jsonl")
        again_s = time.perf_counter() - start
        grew = commit_count(mem_copy) - before
        clean = git(mem_copy, "status", "--porcelain") == ""

    n = args.items
    print(f"corpus {corpus} ({n} items, one commit each)")
    print(f"{'run':<22}{'seconds':>10}{'items/s':>10}{'vs git CLI':>12}")
    print(f"{'git CLI loop':<22}{git_s:>10.2f}{n / git_s:>10.1f}{1.0:>11.2f}x")
    print(f"{'memrepo import':<22}{mem_s:>10.2f}{n / mem_s:>10.1f}{git_s / mem_s:>11.2f}x")
    print(f"{'memrepo import again':<22}{again_s:>10.2f}{'':>10}{'':>12}  (adds {again.counts.get('added', 0)})")
    ok = report.counts.get("added") == n and grew == n and clean and not again.counts.get("added")
    print(f"added {report.counts.get('added', 0)}, commits +{grew}, status clean: {clean}: {'OK' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
