#!/usr/bin/env python3
"""Benchmark: time from starting ``memrepo`` to its first painted screen, in a real terminal.

Runs the app in tmux at 80x24 on a private copy of a corpus and polls the
screen every 10 ms. Two marks per run:

- ``first paint``: the screen first shows anything;
- ``ready``: the screen shows HEAD's short id and ``MEMORY.md`` in the tree
  (the Folder pane is loaded and usable).

Side by side, the baseline is a minimal Textual app (one Static widget) started
the same way: the floor Python + Textual impose before memrepo does anything.
Prints the median over ``--runs`` and the ratio to the baseline.

Usage:
    python benchmarks/bench_startup.py --corpus PATH [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import copy_corpus

BASELINE_APP = """
from textual.app import App
from textual.widgets import Static

class Hello(App):
    def compose(self):
        yield Static("baseline ready")

Hello().run()
"""


def tmux(socket: str, *args: str) -> str:
    """Run a tmux command on a private socket; returns stdout."""
    return subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True).stdout


def time_screen(command: str, ready: list[str], env: dict[str, str], timeout: float = 30.0) -> tuple[float, float]:
    """Start ``command`` in tmux at 80x24; return seconds to first paint and to ready."""
    socket = f"memrepo-bench-{os.getpid()}-{time.monotonic_ns()}"
    env_prefix = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    t0 = time.perf_counter()
    tmux(socket, "new-session", "-d", "-x", "80", "-y", "24", f"env {env_prefix} {command}")
    first = None
    try:
        while time.perf_counter() - t0 < timeout:
            screen = tmux(socket, "capture-pane", "-p")
            now = time.perf_counter() - t0
            if first is None and screen.strip():
                first = now
            if all(marker in screen for marker in ready):
                return first or now, now
            time.sleep(0.01)
        raise SystemExit(f"not ready after {timeout} s; last screen:\n{screen}")
    finally:
        tmux(socket, "kill-server")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, required=True, help="a memory repo to copy (not modified)")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    if shutil.which("tmux") is None:
        raise SystemExit("tmux is needed")
    memrepo = shutil.which("memrepo") or str(Path(sys.executable).parent / "memrepo")
    with tempfile.TemporaryDirectory(prefix="memrepo-bench-") as tmp:
        tmpdir = Path(tmp)
        repo, head = copy_corpus(args.corpus, tmpdir)
        baseline = tmpdir / "baseline.py"
        baseline.write_text(BASELINE_APP)
        env = {"HOME": str(tmpdir), "TERM": "xterm-256color"}
        rows = {"baseline": [], "memrepo": []}
        for _ in range(args.runs):
            rows["baseline"].append(
                time_screen(f"{shlex.quote(sys.executable)} {shlex.quote(str(baseline))}", ["baseline ready"], env)
            )
            rows["memrepo"].append(
                time_screen(f"{shlex.quote(memrepo)} --repo {shlex.quote(str(repo))}", [head, "MEMORY.md"], env)
            )
        files = sum(1 for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts)
        print(f"corpus {args.corpus}: {files} files; median of {args.runs} runs, tmux 80x24\n")
        base_first = statistics.median(r[0] for r in rows["baseline"])
        base_ready = statistics.median(r[1] for r in rows["baseline"])
        for name, runs in rows.items():
            first = statistics.median(r[0] for r in runs)
            ready = statistics.median(r[1] for r in runs)
            print(
                f"{name:<10} first paint {first * 1000:7.0f} ms ({first / base_first:4.2f}x baseline)   "
                f"ready {ready * 1000:7.0f} ms ({ready / base_ready:4.2f}x baseline)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
