#!/usr/bin/env python3
"""Benchmark: the cost of secret redaction per write, and bulk inbox triage.

On private copies of one corpus (a memory repo such as one made by
``make_corpus.py``):

- ``redaction on`` / ``redaction off``: 100 ``remember()`` calls each, side
  by side, with the watcher running (as the app and long-lived agents run).
  "Off" replaces the policy's ``redact`` with a pass-through for this run
  only; everything else (salience, routing, locking, commit) is the same.
  One write in ten carries a token, so the "on" run also pays for findings.
- ``accept_many``: 100 inbox entries accepted in one call (one commit).

Prints p50/p95 per write in milliseconds and the redaction cost
(on p50 - off p50, and the ratio), then the bulk accept's total and per-entry
time.

Usage:
    python benchmarks/bench_triage.py --corpus PATH [--writes 100]
"""

from __future__ import annotations

import argparse
import asyncio
import os
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

from memrepo.engine.models import Candidate  # noqa: E402
from memrepo.engine.repo.repo import MemoryRepo  # noqa: E402
from memrepo.engine.write import policy  # noqa: E402

TOKEN = "ghp_" + "A1b2C3d4" * 4 + "Zz9y"


def workspace_ids(root: Path, count: int) -> list[str]:
    """Workspace ids named in the first lines of the corpus's workspace files."""
    ids = []
    for path in sorted((root / "workspaces").glob("*.md"))[:count]:
        match = re.search(r"workspace: (ws-[0-9a-z]{8})", path.read_text(encoding="utf-8"))
        if match:
            ids.append(match.group(1))
    if not ids:
        raise SystemExit(f"{root} has no workspace files naming an id: is it a make_corpus.py repo?")
    return ids


def text(i: int) -> str:
    """Write i's text; one in ten holds a token."""
    if i % 10 == 0:
        return f"Deploy job {i} pushes with token {TOKEN} to the registry"
    return f"Benchmark entry {i}: the release job {i} runs after the integration tests"


async def writes(root: Path, n: int, ids: list[str]) -> list[float]:
    """n remember() calls with the watcher running; seconds each."""
    repo = await MemoryRepo.open(root, Settings(), create=False)
    try:
        repo.start_watching()
        await asyncio.sleep(0.5)
        await repo.remember(Candidate(text="warm-up entry for the benchmark", scope="workspace", workspace=ids[0]))
        times = []
        for i in range(n):
            cand = Candidate(text=text(i), scope="workspace", workspace=ids[i % len(ids)])
            t0 = time.perf_counter()
            result = await repo.remember(cand)
            times.append(time.perf_counter() - t0)
            if result.commit is None:
                raise SystemExit(f"write {i} made no commit: {result}")
        return times
    finally:
        await repo.close()


async def bulk_accept(root: Path, n: int, ids: list[str]) -> tuple[float, int]:
    """Fill the inbox with n untrusted writes, then accept them all at once; seconds and inbox size."""
    repo = await MemoryRepo.open(root, Settings(), create=False)
    try:
        before = len((await repo.read_file("inbox.md")).entries)
        for i in range(n):
            await repo.remember(
                Candidate(
                    text=f"Untrusted note {i} about the staging cluster",
                    scope="workspace",
                    workspace=ids[i % len(ids)],
                    untrusted=True,
                )
            )
        entries = (await repo.read_file("inbox.md")).entries[before:]
        t0 = time.perf_counter()
        result = await repo.accept_many([e.ref for e in entries])
        elapsed = time.perf_counter() - t0
        if result.commit is None or result.reason:
            raise SystemExit(f"bulk accept failed: {result}")
        return elapsed, len(entries)
    finally:
        await repo.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, required=True, help="a memory repo to copy (not modified)")
    ap.add_argument("--writes", type=int, default=100)
    args = ap.parse_args()
    corpus = args.corpus.resolve()
    with tempfile.TemporaryDirectory(prefix="memrepo-bench-") as tmp:
        tmpdir = Path(tmp)
        os.environ["HOME"] = str(tmpdir)
        rows = {}
        real_redact = policy.redact
        for mode in ("on", "off"):
            root = tmpdir / f"redaction-{mode}"
            shutil.copytree(corpus, root, symlinks=True)
            ids = workspace_ids(root, 20)
            policy.redact = real_redact if mode == "on" else (lambda t: (t, []))
            try:
                rows[mode] = asyncio.run(writes(root, args.writes, ids))
            finally:
                policy.redact = real_redact
        print(f"corpus {corpus}: {args.writes} remember() calls per mode, watcher running\n")
        for mode, times in rows.items():
            print(
                f"redaction {mode:<4} p50 {percentile(times, 0.5) * 1000:6.2f} ms   "
                f"p95 {percentile(times, 0.95) * 1000:6.2f} ms"
            )
        on, off = percentile(rows["on"], 0.5), percentile(rows["off"], 0.5)
        print(f"redaction cost  {(on - off) * 1000:+6.2f} ms per write at p50 ({on / off:4.2f}x)\n")
        root = tmpdir / "bulk"
        shutil.copytree(corpus, root, symlinks=True)
        elapsed, count = asyncio.run(bulk_accept(root, args.writes, workspace_ids(root, 20)))
        print(
            f"accept_many     {count} entries in one commit: {elapsed * 1000:7.1f} ms "
            f"({elapsed / count * 1000:5.2f} ms per entry)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
