#!/usr/bin/env python3
"""Benchmark: validating and applying 40 dream operations, and accepting a review branch.

On private copies of one corpus (a memory repo such as one made by
``make_corpus.py``; never written in place):

- ``input``: the aliased input (48,000-character cap) of the folder.
- ``validate``: strict parsing plus validation and classification of 40 operations.
- ``auto commit``: 40 automatic operations (edits of agent lines) applied
  and committed once on main, under the write lock, hand edits checked first.
- ``review branch``: 40 review operations (edits of user lines) committed on
  ``dream/<id>`` in a temporary pygit2 worktree, worktree removed.
- ``accept``: the review branch merged with ``--no-ff`` into main.

Baselines, side by side, with the git command line on another copy and the
same file contents: ``git add`` + ``git commit`` for the auto commit;
``git worktree add -b`` + ``git commit`` + ``git worktree remove`` for the
review branch; ``git merge --no-ff`` for accept.

Usage:
    python benchmarks/bench_dream.py --corpus PATH [--runs 3]
"""

from __future__ import annotations

import argparse
import json
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

from memrepo.engine.dreams import apply as dreamapply  # noqa: E402
from memrepo.engine.dreams import ops as dreamops  # noqa: E402
from memrepo.engine.dreams.input import build_input  # noqa: E402
from memrepo.engine.dreams.record import DreamRecord, new_id  # noqa: E402
from memrepo.engine.repo.store import MemoryStore  # noqa: E402

GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost.invalid", "-c", "core.hooksPath=/dev/null"]


def ops_for(din, by: str, n: int = 40) -> str:
    """40 edits of distinct ``by`` lines outside MEMORY.md and the inbox."""
    ops = []
    for alias, ref in din.lines.items():
        if ref.by == by and not ref.inbox and not ref.header and ref.path != "MEMORY.md":
            ops.append({"op": "edit", "line": alias, "text": f"{ref.text[:400]} (checked)", "reason": "benchmark"})
        if len(ops) == n:
            break
    if len(ops) < n:
        raise SystemExit(f"the corpus has only {len(ops)} {by} lines in the dream input; need {n}")
    return json.dumps({"operations": ops})


def one_run(corpus: Path, work: Path) -> dict[str, float]:
    """Time every step once on fresh copies; returns seconds per step."""
    mine, theirs = work / "mine", work / "git"
    shutil.copytree(corpus, mine, symlinks=True)
    shutil.copytree(corpus, theirs, symlinks=True)
    store = MemoryStore.open(mine, Settings(), create=False)
    store.status()  # fresh stat data in the copied index, as the first status of any session does
    subprocess.run(["git", "status", "--porcelain"], cwd=theirs, capture_output=True, check=True)
    files = [p for p, _ in store.list_files()]
    out: dict[str, float] = {}

    t0 = time.perf_counter()
    din = build_input(mine, files, [])
    out["input"] = time.perf_counter() - t0

    # -- auto: 40 edits of agent lines
    answer = ops_for(din, "agent")
    t0 = time.perf_counter()
    items = dreamops.plan(dreamops.parse_output(answer), din, set(files), mine)
    out["validate"] = time.perf_counter() - t0
    assert sum(i.record.classification == "auto" for i in items) == 40, dreamops.counts(items)
    current = {p: (mine / p).read_bytes() for p in din.files}
    auto_files = dreamapply.render(din, items, current, store.git.now().date().isoformat())
    record = DreamRecord(id=new_id())
    t0 = time.perf_counter()
    dreamapply.apply(store, record, din, items)
    out["auto commit"] = time.perf_counter() - t0
    assert record.auto_commit and not record.branch

    for path, data in auto_files.items():
        (theirs / path).write_bytes(data)
    t0 = time.perf_counter()
    subprocess.run(["git", "add", "--", *auto_files], cwd=theirs, check=True)
    subprocess.run([*GIT, "commit", "-q", "-m", "Dream: 40 changes"], cwd=theirs, check=True)
    out["git: auto commit"] = time.perf_counter() - t0

    # -- review: 40 edits of user lines on a branch in a temporary worktree
    din = build_input(mine, files, [])
    items = dreamops.plan(dreamops.parse_output(ops_for(din, "user")), din, set(files), mine)
    current = {p: (mine / p).read_bytes() for p in din.files}
    review_files = dreamapply.render(din, items, current, store.git.now().date().isoformat())
    record = DreamRecord(id=new_id())
    t0 = time.perf_counter()
    dreamapply.apply(store, record, din, items)
    out["review branch"] = time.perf_counter() - t0
    assert record.branch and not record.auto_commit

    tmp = Path(tempfile.mkdtemp(prefix="bench-wt-"))
    t0 = time.perf_counter()
    subprocess.run(
        ["git", "worktree", "add", "-q", "-b", "dream/bench", str(tmp / "wt"), "HEAD"], cwd=theirs, check=True
    )
    for path, data in review_files.items():
        (tmp / "wt" / path).write_bytes(data)
    subprocess.run(["git", "add", "--", *review_files], cwd=tmp / "wt", check=True)
    subprocess.run([*GIT, "commit", "-q", "-m", "Dream: 40 changes for review"], cwd=tmp / "wt", check=True)
    subprocess.run(["git", "worktree", "remove", "--force", str(tmp / "wt")], cwd=theirs, check=True)
    out["git: review branch"] = time.perf_counter() - t0
    shutil.rmtree(tmp, ignore_errors=True)

    # -- accept: --no-ff merge of the review branch (main moved on: one hand edit in another file)
    t0 = time.perf_counter()
    dreamapply.accept(store, record)
    out["accept"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    subprocess.run([*GIT, "merge", "-q", "--no-ff", "-m", "Accept dream", "dream/bench"], cwd=theirs, check=True)
    out["git: accept"] = time.perf_counter() - t0
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", required=True, type=Path, help="a memory repo to copy (never written)")
    parser.add_argument("--runs", type=int, default=3, help="runs on fresh copies (median reported)")
    args = parser.parse_args()
    corpus = args.corpus.resolve()
    if not (corpus / "MEMORY.md").is_file() or not (corpus / ".git").is_dir():
        raise SystemExit(f"{corpus} is not a memory repo")
    runs = []
    for n in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="bench-dream-") as work:
            runs.append(one_run(corpus, Path(work)))
            print(f"run {n + 1}/{args.runs} done", file=sys.stderr)
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    print(f"corpus: {corpus} ({sum(1 for p in corpus.rglob('*.md') if '.git' not in p.parts):,} markdown files)")
    print(f"median of {args.runs} runs, milliseconds")
    print(f"  {'input (aliased, 48k cap)':<28}{med['input'] * 1000:9.1f}")
    print(f"  {'validate 40 operations':<28}{med['validate'] * 1000:9.1f}")
    print(f"  {'step':<28}{'memrepo':>9}{'git CLI':>10}{'ratio':>8}")
    for step in ("auto commit", "review branch", "accept"):
        mine, base = med[step], med[f"git: {step}"]
        print(f"  {step:<28}{mine * 1000:9.1f}{base * 1000:10.1f}{mine / base:8.2f}")


if __name__ == "__main__":
    main()
