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
- **nodoor**: the indexed clone, semantic recall not turned off, no warm process: the hook looks for a
  recall door (one failed connect) and answers lexically, as **indexed** does.
- **door**: a third clone, indexed, with vectors as for **hybrid**, and a real ``memrepo mcp`` process
  running on it (its stdin held open): the hook asks its recall door (docs/architecture.md §4), with
  the default config (``[semantic] hook`` false). The server's own CPU is not counted (it is not reaped).

Reported per state: wall time of the whole process (ms, median and p90 over
prompts x runs), its CPU time (user + system, median: what the load does not inflate
as much) and what the last run printed (its mode line). ``--memrepo CMD``
times another install (an older memrepo) in the same states.

Usage:
    python benchmarks/bench_hook_recall.py --corpus PATH [--runs N] [--vectors random|real]
        [--states indexed,scan,hybrid,nodoor,door] [--memrepo CMD]
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
    "Can you fix the flaky test in tests/test_checkout.py? It fails on CI when the retry fires twice, "
    "I think it's the double charge bug we tracked.",
]
"""Prompts an agent's user types, for a make_corpus.py repo: rare and common words, CJK, and a task-style prompt
of a sentence of context (a long prompt nothing answers at the minimum asks recall twice, engine/read/recallnear.py)."""


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


@contextlib.contextmanager
def door_open(clone: Path, env: dict[str, str], cmd: list[str], wanted: bool) -> Iterator[int | None]:
    """A real ``memrepo mcp`` on ``clone`` (stdin held open) until its recall door listens; stopped at the end.

    Yields:
        int | None: the server's pid (None when not ``wanted``).
    """
    if not wanted:
        yield None
        return
    server = subprocess.Popen(
        [*cmd, "--repo", str(clone), "mcp"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env, cwd=clone
    )
    try:
        deadline = time.monotonic() + 120
        while not (clone / ".git" / "memrepo" / "recall.sock").exists():
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("door: the MCP server opened no recall door")
            time.sleep(0.1)
        yield server.pid
    finally:
        server.terminate()
        server.wait(30)


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
    parser.add_argument("--states", default="indexed,scan", help="comma-separated: indexed, scan, hybrid, nodoor, door")
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
        indexed, scanned, warm = Path(tmp) / "indexed", Path(tmp) / "scanned", Path(tmp) / "warm"
        for clone in (indexed, scanned, *((warm,) if "door" in states else ())):
            subprocess.run(["git", "clone", "-q", str(args.corpus), str(clone)], check=True)
        files = sum(1 for p in scanned.rglob("*.md") if ".git" not in p.parts)
        size = sum(p.stat().st_size for p in scanned.rglob("*.md") if ".git" not in p.parts)
        print(f"corpus {args.corpus}: {files:,} markdown files, {size / 1e6:.1f} MB; memrepo: {args.memrepo}")
        code = "import sys; from memrepo.engine.read.recallfile import build_index; build_index(sys.argv[1])"
        if any(s in states for s in ("indexed", "hybrid", "nodoor")):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code, str(indexed)], check=True)
            print(f"index built in {time.perf_counter() - start:.1f} s")
        if "door" in states:
            subprocess.run([sys.executable, "-c", code, str(warm)], check=True)
        for state, clone in (("hybrid", indexed), ("door", warm)):
            if state in states:
                start = time.perf_counter()
                made = fill_vectors(clone, args.vectors == "real")
                print(f"{state}: {made:,} {args.vectors} vectors in {time.perf_counter() - start:.1f} s")
        plan = {
            "indexed": (indexed, lexical),
            "scan": (scanned, lexical),
            "hybrid": (indexed, hybrid),
            "nodoor": (indexed, base),
            "door": (warm, base),
        }
        times: dict[str, list[float]] = {s: [] for s in states}
        cpu: dict[str, list[float]] = {s: [] for s in states}
        said: dict[str, str] = {}
        cmd = shlex.split(args.memrepo)
        server_cpu: list[float] = []
        with build_held(scanned), door_open(warm, base, shlex.split(args.memrepo), "door" in states) as server:
            for _run in range(args.runs):
                for prompt in PROMPTS:
                    for state in states:
                        clone, env = plan[state]
                        served = process_cpu(server) if state == "door" else 0.0
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
                        if state == "door":
                            server_cpu.append((process_cpu(server) - served) * 1000)
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
        if server_cpu:
            print(
                f"door: the MCP server's CPU per answer (ms, all its threads), median {statistics.median(server_cpu):.0f}"
                f", p90 {sorted(server_cpu)[int(0.9 * (len(server_cpu) - 1))]:.0f}"
            )
        sys.stdout.flush()


def process_cpu(pid: int | None) -> float:
    """The CPU seconds (user + system) a running process used so far, from ``/proc`` (Linux); 0.0 elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
