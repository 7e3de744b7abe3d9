#!/usr/bin/env python3
"""Benchmark: how soon a new ``memrepo mcp`` answers ``initialize`` and ``tools/list`` (what Codex waits for).

Codex starts its MCP servers beside the first model request and lists only the tools of servers that
have answered by then (breaker5 B5-10): every millisecond before ``tools/list`` is answered is a
chance that the first turn has no memory tools. Each run starts a real ``memrepo --repo COPY mcp``
on a private copy of the corpus (a fresh copy each run: no recall index, as a new user's), sends
``initialize`` (protocol 2025-06-18), ``notifications/initialized`` and ``tools/list`` as Codex
does, and times both replies from the process's start.

Side by side, the baseline is ``python -c pass`` started the same way (the floor an interpreter
imposes before memrepo does anything). Prints medians over ``--runs`` and their ratio to the baseline.

Usage:
    python benchmarks/bench_mcp_start.py --corpus PATH [--runs 7] [--memrepo CMD]
"""

from __future__ import annotations

import argparse
import json
import select
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import copy_corpus

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "codex", "version": "0"}},
}


def _reply(proc: subprocess.Popen, want: int, timeout: float = 120) -> dict:
    assert proc.stdout is not None
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, end - time.monotonic()))
        if not ready:
            break
        line = proc.stdout.readline()
        if not line:
            break
        message = json.loads(line)
        if message.get("id") == want:
            return message
    raise SystemExit(f"no reply to request {want} within {timeout} s")


def spawn_server(cmd: list[str], repo: Path) -> subprocess.Popen:
    """``memrepo mcp`` on ``repo`` as an agent starts it (its own session), ``initialize`` sent, not yet answered."""
    proc = subprocess.Popen(
        [*cmd, "--repo", str(repo), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=repo,
        start_new_session=True,
    )
    assert proc.stdin is not None
    proc.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
    proc.stdin.flush()
    return proc


def one_run(cmd: list[str], corpus: Path) -> tuple[float, float]:
    """One server on a fresh copy: (ms to the ``initialize`` reply, ms to the ``tools/list`` reply)."""
    with tempfile.TemporaryDirectory(prefix="memrepo-bench-") as tmp:
        repo, _head = copy_corpus(corpus, Path(tmp))
        start = time.perf_counter()
        proc = spawn_server(cmd, repo)
        assert proc.stdin is not None
        try:
            _reply(proc, 1)
            initialized = (time.perf_counter() - start) * 1000
            for message in (
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            ):
                proc.stdin.write((json.dumps(message) + "\n").encode())
            proc.stdin.flush()
            tools = _reply(proc, 2)
            listed = (time.perf_counter() - start) * 1000
            if len(tools.get("result", {}).get("tools", [])) != 6:
                raise SystemExit(f"tools/list did not list memrepo's six tools: {tools}")
        finally:
            proc.stdin.close()
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        return initialized, listed


def baseline_ms() -> float:
    """Start-to-exit of ``python -c pass`` in ms."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return (time.perf_counter() - start) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, required=True, help="a memory repo to copy (not modified)")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--memrepo", default=f"{shlex.quote(sys.executable)} -m memrepo.cli.main", help="the command")
    args = ap.parse_args()
    cmd = shlex.split(args.memrepo)
    inits, lists, bases = [], [], []
    for _ in range(args.runs):  # interleaved, so load changes hit both alike
        bases.append(baseline_ms())
        init, listed = one_run(cmd, args.corpus)
        inits.append(init)
        lists.append(listed)
    base = statistics.median(bases)
    init, listed = statistics.median(inits), statistics.median(lists)
    print(f"corpus {args.corpus} ({args.runs} runs, medians)")
    print(f"  python -c pass            {base:7.0f} ms")
    print(f"  initialize answered       {init:7.0f} ms  ({init / base:.1f}x the baseline)")
    print(f"  tools/list answered       {listed:7.0f} ms  ({listed / base:.1f}x the baseline)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
