#!/usr/bin/env python3
"""Benchmark: recall and the context block against ripgrep, on one corpus (docs/architecture.md §4).

Runs on a private copy of a memory repo (one made by ``make_corpus.py``):

- **Queries**: drawn from the corpus itself with a fixed seed: one to three
  consecutive words of random entries, two to four characters of Chinese or
  Japanese entries, a mixed English/CJK query, and a query that matches
  nothing.
- **ripgrep** (the baseline): ``rg -i -n -F -e TERM ...`` over the same folder
  for the same terms, one process per query: every line with any term,
  unranked.
- **recall warm**: ``MemoryStore.recall(query, limit=10)`` on a built index,
  as it runs beside a watcher (no file checks), ranked, hits built.
- **recall checked**: the same without a watcher, so every query first checks
  every file's mtime and size (the fallback).

Also: the index build from cold, the update after one file is edited, the
context block uncached, cached without a watcher (HEAD and two stats), cached
with a watcher, and through the async API. With ``--tokenizer-cmd``, the token
estimate is compared with a real tokenizer on context-block lines.

Usage:
    python benchmarks/bench_recall.py --corpus PATH [--queries 40] [--repeat 5]
        [--tokenizer-cmd "node count.mjs"]   # a command: JSON strings on stdin, one count per line out
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from memrepo.engine.config import Settings

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import percentile  # noqa: E402

from memrepo.engine.format import entries as fmt  # noqa: E402
from memrepo.engine.format.terms import terms  # noqa: E402
from memrepo.engine.read.recall import RecallIndex  # noqa: E402
from memrepo.engine.repo.store import MemoryStore  # noqa: E402

CJK_RE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]{2,}")
WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9-]+")


def make_queries(root: Path, count: int, seed: int = 7) -> list[str]:
    """Queries drawn from the corpus's own entries (fixed seed), plus a mixed and a no-match query."""
    rng = random.Random(seed)
    files = sorted(p for p in root.rglob("*.md") if ".git" not in p.parts)
    texts: list[str] = []
    for path in rng.sample(files, min(len(files), 200)):
        texts += [e.text for _, e in fmt.parse(path.read_bytes(), path.name).entries()]
    english = [t for t in texts if len(WORD_RE.findall(t)) >= 3]
    cjk = [m.group() for t in texts for m in CJK_RE.finditer(t)]
    queries: list[str] = []
    while len(queries) < count - 2:
        if cjk and len(queries) % 4 == 3:
            run = rng.choice(cjk)
            size = rng.randint(2, min(4, len(run)))
            start = rng.randint(0, len(run) - size)
            queries.append(run[start : start + size])
        else:
            words = WORD_RE.findall(rng.choice(english))
            size = rng.randint(1, 3)
            start = rng.randint(0, len(words) - size)
            queries.append(" ".join(words[start : start + size]))
    mixed = f"{WORD_RE.findall(rng.choice(english))[-1]} {rng.choice(cjk)[:2] if cjk else 'x'}"
    return [*queries, mixed, "zzqx-nothing-matches"]


def time_rg(root: Path, query: str) -> float:
    args = ["rg", "-i", "-n", "--no-heading", "-F", "-g", "*.md"]
    for term in terms(query) or [query]:
        args += ["-e", term]
    started = time.perf_counter()
    subprocess.run([*args, str(root)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def row(name: str, values: list[float], baseline: float | None = None) -> str:
    p50, p95 = percentile(values, 0.5), percentile(values, 0.95)
    ratio = f"   {baseline / p50:6.1f}x faster than rg at p50" if baseline else ""
    return f"  {name:<26} p50 {p50 * 1000:8.3f} ms   p95 {p95 * 1000:8.3f} ms{ratio}"


def bench(corpus: Path, n_queries: int, repeat: int, tokenizer_cmd: str | None) -> None:
    with tempfile.TemporaryDirectory(prefix="memrepo-bench-recall-") as tmp:
        root = Path(tmp) / "repo"
        shutil.copytree(corpus, root, symlinks=True)
        files = sum(1 for p in root.rglob("*.md") if ".git" not in p.parts)
        queries = make_queries(root, n_queries)
        print(f"corpus: {corpus} ({files:,} markdown files); {len(queries)} queries x {repeat}")

        started = time.perf_counter()
        cold = RecallIndex(root)
        cold.sync()
        build = time.perf_counter() - started
        print(f"index build from cold: {build:.2f} s for {len(cold):,} entries")

        store = MemoryStore.open(root, Settings(), create=False)
        store.WATCH_SETTLE_S = 0.0  # a watcher, once set, vouches for the files at once
        store.adopt_recall_index(cold)
        store.recall("warm up")
        rg = [time_rg(root, q) for _ in range(repeat) for q in queries]
        store.set_watched(True)
        warm, hits = [], 0
        for _ in range(repeat):
            for q in queries:
                t = time.perf_counter()
                hits += len(store.recall(q, limit=10))
                warm.append(time.perf_counter() - t)
        store.set_watched(False)
        checked = []
        for q in queries:
            t = time.perf_counter()
            store.recall(q, limit=10)
            checked.append(time.perf_counter() - t)
        rg_p50 = percentile(rg, 0.5)
        print("recall (ranked, top 10) vs ripgrep (unranked lines):")
        print(row("ripgrep rg -i", rg))
        print(row("recall warm (watcher)", warm, rg_p50))
        print(row("recall checked (no watcher)", checked, rg_p50))
        print(f"  {hits / repeat / len(queries):.1f} hits per query on average")

        index = store.recall_index()
        paths = [path for (path,) in index._db.execute("SELECT path FROM files ORDER BY path")]
        target = paths[len(paths) // 2]
        full = root / target
        updates = []
        for i in range(20):
            full.write_text(full.read_text(encoding="utf-8") + f"- bench edit {i} [by: user]\n", encoding="utf-8")
            t = time.perf_counter()
            index.sync([target])
            updates.append(time.perf_counter() - t)
        print(row("update after one edit", updates))

        ws = store.workspaces()
        workspace = ws[len(ws) // 2].id if ws else None
        uncached = []
        for _ in range(repeat):
            store.reads.clear_context()
            t = time.perf_counter()
            block = store.context(workspace)
            uncached.append(time.perf_counter() - t)
        cached = []
        for _ in range(2000):
            t = time.perf_counter()
            store.context(workspace)
            cached.append(time.perf_counter() - t)
        store.set_watched(True)
        store.context(workspace)
        watched = []
        for _ in range(2000):
            t = time.perf_counter()
            store.context(workspace)
            watched.append(time.perf_counter() - t)
        print(f"context block ({block.tokens} tokens, {len(block.refs)} lines, workspace {workspace}):")
        print(row("uncached", uncached))
        print(row("cached, no watcher", cached))
        print(row("cached, watcher", watched))
        print("  (goal: cached under 0.050 ms)")

        async def through_api() -> list[float]:
            from memrepo.engine.repo.repo import MemoryRepo

            repo = await MemoryRepo.open(root, Settings(), create=False)
            try:
                repo.start_watching()
                await asyncio.sleep(MemoryStore.WATCH_SETTLE_S + 0.3)
                await repo.context(workspace)
                out = []
                for _ in range(2000):
                    t = time.perf_counter()
                    await repo.context(workspace)
                    out.append(time.perf_counter() - t)
                return out
            finally:
                await repo.close()

        print(row("cached, async API", asyncio.run(through_api())))

        if tokenizer_cmd:
            lines = [line for w in ws[:300] for line in store.context(w.id).text.splitlines()]
            out = subprocess.run(
                shlex.split(tokenizer_cmd),
                input="\n".join(json.dumps(x) for x in lines),
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            from memrepo.engine.format.tokens import estimate_tokens

            true = [int(x) for x in out]
            est = [estimate_tokens(x) for x in lines]
            pairs = [(e, t) for e, t in zip(est, true, strict=True) if t]
            errors = [(e - t) / t for e, t in pairs]
            total = (sum(e for e, _ in pairs) - sum(t for _, t in pairs)) / sum(t for _, t in pairs)
            print(
                f"token estimate vs {tokenizer_cmd!r} on {len(pairs):,} block lines: total {total:+.1%}, "
                f"mean |error| {sum(abs(x) for x in errors) / len(errors):.1%}, "
                f"under by >10% on {sum(1 for x in errors if x < -0.1) / len(errors):.1%} of lines"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, required=True, help="a memory repo to copy and measure")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tokenizer-cmd", help="reads JSON strings, one per line, prints one token count per line")
    args = parser.parse_args()
    if shutil.which("rg") is None:
        sys.exit("ripgrep (rg) is needed for the baseline: apt-get install ripgrep")
    if not (args.corpus / "MEMORY.md").is_file():
        sys.exit(f"{args.corpus} is not a memory repo (no MEMORY.md)")
    bench(args.corpus, args.queries, args.repeat, args.tokenizer_cmd)


if __name__ == "__main__":
    main()
