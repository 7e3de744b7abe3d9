#!/usr/bin/env python3
"""Benchmark: one ``memrepo hook prompt`` in a new process, as Claude Code runs it (docs/architecture.md §7).

The corpus (a make_corpus.py repo) is cloned afresh twice, then each prompt of
:data:`PROMPTS` is fed, as Claude Code's ``UserPromptSubmit`` payload on stdin, to
``memrepo --repo CLONE hook prompt`` in these states, interleaved round by round
(each state meets the same load):

- **indexed**: the recall index built; ``MEMREPO_SEMANTIC=off`` (lexical recall).
- **scan**: no index yet, its first build running elsewhere (this benchmark holds the
  build's lock, so no build starts and every run meets the same state): the hook
  answers from a scan of the files when they hold at most ``QUICK_SCAN_BYTES``.
- **hybrid**: the indexed clone with a vectors file covering every entry up to
  ``[semantic] max_entries``, and ``[semantic] hook = true`` (``provider = "auto"``).
  ``--vectors random`` stores random unit vectors made in the local model's vector space:
  what a hook call reads and ranks is the same as with real ones, so the cost is (the
  hits are not; quality is ``hook_systems.py``'s job). ``--vectors real`` embeds them
  (about 15-30 ms an entry).

Reported per state: wall time of the whole process (ms, median and p90 over
prompts x runs), its CPU time (user + system, median: what the load does not inflate
as much) and what the last run printed (its mode line). ``--memrepo CMD``
times another install (an older memrepo) in the same states.

Usage:
    python benchmarks/bench_hook_recall.py --corpus PATH [--runs N] [--vectors random|real]
        [--states indexed,scan,hybrid] [--memrepo CMD]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

PROMPTS = [
    "Can you set up the blue-green deploy for the staging cluster?",
    "what did we decide about pgvector",
    "部署前に何を確認する?",
    "fix the failing load tests and write a conventional commit message",
]
"""Prompts an agent's user types, for a make_corpus.py repo: rare and common words, CJK."""


def payload(prompt: str, cwd: Path) -> str:
    """Claude Code's ``UserPromptSubmit`` JSON (the hooks reference's fields)."""
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": str(cwd / "t.jsonl"),
            "cwd": str(cwd),
            "permission_mode": "default",
            "hook_event_name": "UserPromptSubmit",
            "prompt": prompt,
        }
    )


@contextlib.contextmanager
def build_held(clone: Path) -> Iterator[None]:
    """Hold the background build's lock of ``clone`` (an ``flock`` on ``.git/memrepo``): no build starts."""
    import fcntl

    folder = clone / ".git" / "memrepo"
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        os.close(fd)


def fill_vectors(clone: Path, real: bool) -> int:
    """Give every entry up to ``[semantic] max_entries`` a vector of the local model's space; return how many."""
    import random

    from memrepo.engine.config import SemanticSettings
    from memrepo.engine.read.semantic_build import build_vectors
    from memrepo.engine.read.semantic_model import LocalEmbedder
    from memrepo.engine.read.semantic_store import VectorStore

    embedder = LocalEmbedder()
    if real:
        return build_vectors(clone, embedder, SemanticSettings().max_entries)
    store = VectorStore(clone)
    try:
        store.use_model(embedder.model_id)
        todo = store.reconcile(SemanticSettings().max_entries)
        rng = random.Random(7)
        stored = 0
        for start in range(0, len(todo), 2_000):
            rows = []
            for iid, text in todo[start : start + 2_000]:
                vec = [rng.gauss(0, 1) for _ in range(384)]
                norm = sum(x * x for x in vec) ** 0.5
                rows.append((iid, text, [x / norm for x in vec]))
            stored += store.add(rows)
        return stored
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=5, help="runs of each prompt in each state")
    parser.add_argument("--states", default="indexed,scan", help="comma-separated: indexed, scan, hybrid")
    parser.add_argument("--vectors", choices=("random", "real"), default="random")
    parser.add_argument("--memrepo", default=shutil.which("memrepo") or "memrepo", help="the memrepo command to time")
    args = parser.parse_args()
    states = args.states.split(",")
    with tempfile.TemporaryDirectory(prefix="hook-recall-") as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        cache = str(home / ".cache")
        base = {**os.environ, "HOME": str(home), "MEMREPO_CONFIG": str(home / "none.toml"), "XDG_CACHE_HOME": cache}
        lexical = {**base, "MEMREPO_SEMANTIC": "off"}
        hybrid = {k: v for k, v in base.items() if k != "MEMREPO_SEMANTIC"}
        if "hybrid" in states:  # [semantic] hook = true, validated as a command would (the hook reads it then)
            from memrepo.engine.config import load_settings

            config = home / "hybrid.toml"
            config.write_text("[semantic]\nhook = true\n", encoding="utf-8")
            os.environ["XDG_CACHE_HOME"] = cache
            load_settings(config)
            hybrid["MEMREPO_CONFIG"] = str(config)
        indexed, scanned = Path(tmp) / "indexed", Path(tmp) / "scanned"
        for clone in (indexed, scanned):
            subprocess.run(["git", "clone", "-q", str(args.corpus), str(clone)], check=True)
        files = sum(1 for p in scanned.rglob("*.md") if ".git" not in p.parts)
        size = sum(p.stat().st_size for p in scanned.rglob("*.md") if ".git" not in p.parts)
        print(f"corpus {args.corpus}: {files:,} markdown files, {size / 1e6:.1f} MB; memrepo: {args.memrepo}")
        if "indexed" in states or "hybrid" in states:
            start = time.perf_counter()
            code = "import sys; from memrepo.engine.read.recallfile import build_index; build_index(sys.argv[1])"
            subprocess.run([sys.executable, "-c", code, str(indexed)], check=True)
            print(f"index built in {time.perf_counter() - start:.1f} s")
        if "hybrid" in states:
            start = time.perf_counter()
            print(
                f"{fill_vectors(indexed, args.vectors == 'real'):,} {args.vectors} vectors in {time.perf_counter() - start:.1f} s"
            )
        plan = {
            "indexed": (indexed, lexical),
            "scan": (scanned, lexical),
            "hybrid": (indexed, hybrid),
        }
        times: dict[str, list[float]] = {s: [] for s in states}
        cpu: dict[str, list[float]] = {s: [] for s in states}
        said: dict[str, str] = {}
        cmd = shlex.split(args.memrepo)
        with build_held(scanned):
            for _run in range(args.runs):
                for prompt in PROMPTS:
                    for state in states:
                        clone, env = plan[state]
                        used = resource.getrusage(resource.RUSAGE_CHILDREN)
                        start = time.perf_counter()
                        done = subprocess.run(
                            [*cmd, "--repo", str(clone), "hook", "prompt"],
                            input=payload(prompt, clone),
                            capture_output=True,
                            text=True,
                            env=env,
                        )
                        times[state].append((time.perf_counter() - start) * 1000)
                        after = resource.getrusage(resource.RUSAGE_CHILDREN)
                        cpu[state].append((after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime) * 1000)
                        if done.returncode:
                            raise SystemExit(f"{state}: exit {done.returncode}: {done.stderr}")
                        if done.stdout:
                            text = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
                            said[state] = text.splitlines()[2] if len(text.splitlines()) > 2 else text
                        elif state not in said:
                            said[state] = "(nothing)" + (f" stderr: {done.stderr.strip()}" if done.stderr else "")
        print(f"{'state':<10}{'median ms':>10}{'p90 ms':>9}{'CPU ms':>8}  mode line of an answer")
        for state, took in times.items():
            p90 = sorted(took)[int(0.9 * (len(took) - 1))]
            line = f"{state:<10}{statistics.median(took):>10.0f}{p90:>9.0f}{statistics.median(cpu[state]):>8.0f}"
            print(f"{line}  {said.get(state, '')}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
