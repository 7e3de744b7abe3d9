#!/usr/bin/env python3
"""Benchmark: ``memory_recall`` over a run of short MCP sessions on a new repo (breaker5 B5-1).

``codex exec`` sessions last seconds and end with the MCP server's process group killed. On a
private copy of the corpus (no recall index, as a new user's), each of ``--sessions`` sessions
starts a real ``memrepo --repo COPY mcp`` in a process group of its own, initializes it as Codex
does, lists the tools, waits :data:`TURN_S` (the model's turn), calls ``memory_recall`` once (timed from the request to the reply), and after ``--life``
seconds from its start kills the whole group with SIGKILL; the next session starts ``--gap``
seconds later. Prints, per session, the recall's ms and whether a scan of the files answered
(the index not built yet).

Usage:
    python benchmarks/bench_short_sessions.py --corpus PATH [--sessions 5] [--life 5] [--gap 10] [--memrepo CMD]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import sys
import tempfile
import time
from pathlib import Path

from _common import copy_corpus
from bench_mcp_start import _reply, spawn_server

TURN_S = 1.0
"""Seconds from the tools' listing to the recall: the model's turn (the server opens the repo meanwhile)."""

QUERY = "pnpm over npm for tests"
"""A make_corpus.py repo holds lines about it (a query with no hit would not say how it was answered)."""


def session(cmd: list[str], repo: Path, life: float) -> tuple[float, bool]:
    """One short session: (ms of its memory_recall, whether a scan answered)."""
    start = time.monotonic()
    proc = spawn_server(cmd, repo)
    assert proc.stdin is not None
    try:
        _reply(proc, 1)
        proc.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        proc.stdin.write(b'{"jsonrpc": "2.0", "id": 3, "method": "tools/list"}\n')
        proc.stdin.flush()
        _reply(proc, 3)
        time.sleep(TURN_S)  # the model's first turn, before it calls a tool
        call = {"name": "memory_recall", "arguments": {"query": QUERY}}
        asked = time.perf_counter()
        proc.stdin.write(
            (json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}) + "\n").encode()
        )
        proc.stdin.flush()
        answer = _reply(proc, 2)
        took = (time.perf_counter() - asked) * 1000
        text = answer["result"]["content"][0]["text"]
        time.sleep(max(0.0, life - (time.monotonic() - start)))
        if "No memory matches" in text:
            raise SystemExit(f"no hit for {QUERY!r}: the corpus is not a make_corpus.py repo")
        return took, "Answered by a scan" in text
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the session ends as Codex ends it
        proc.wait()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, required=True, help="a memory repo to copy (not modified)")
    ap.add_argument("--sessions", type=int, default=5)
    ap.add_argument("--life", type=float, default=5.0, help="seconds each session lives")
    ap.add_argument("--gap", type=float, default=10.0, help="seconds between sessions")
    ap.add_argument("--memrepo", default=f"{shlex.quote(sys.executable)} -m memrepo.cli.main", help="the command")
    args = ap.parse_args()
    cmd = shlex.split(args.memrepo)
    with tempfile.TemporaryDirectory(prefix="memrepo-bench-") as tmp:
        repo, _head = copy_corpus(args.corpus, Path(tmp))
        for n in range(1, args.sessions + 1):
            took, scan = session(cmd, repo, args.life)
            print(f"session {n}: memory_recall {took:6.0f} ms  {'scan of the files' if scan else 'index'}", flush=True)
            if n < args.sessions:
                time.sleep(args.gap)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
