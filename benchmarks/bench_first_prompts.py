#!/usr/bin/env python3
"""Benchmark: a new user's first prompts after the MCP server starts (docs/architecture.md §4, "the recall door").

A fresh clone of the corpus (a make_corpus.py repo: no recall index, no vectors) gets a real
``memrepo --repo CLONE mcp`` process, started as Claude Code starts it (stdin a pipe held open,
``initialize`` then ``notifications/initialized``, protocol 2025-06-18), with the default config
(``[semantic] provider = "auto"``: the bundled local model when installed). Measured:

- **initialize**: ms from the server's start to its ``initialize`` reply (what Claude Code waits for).
- **door**: s from the start until the recall door's socket is in place.
- For each wait W of ``--waits``: a new clone and server, W seconds, then :data:`PROMPTS` fed one after
  another as Claude Code's ``UserPromptSubmit`` payload to ``memrepo --repo CLONE hook prompt``: each
  prompt's wall time (ms) and what it said (its mode line, or ``nothing``, or the stderr line).
- **first door answer** (``--probe``): from the start, "pnpm" every ``--every`` s until a prompt is
  answered through the door (its mode line says ``via the MCP server``) within the budget: N, the
  seconds the server had been up.

Usage:
    python benchmarks/bench_first_prompts.py --corpus PATH [--waits 0,2,5,10] [--probe] [--every 0.5]
        [--memrepo CMD]
"""

from __future__ import annotations

import argparse
import json
import os
import select
import shlex
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from bench_hook_recall import payload  # Claude Code's UserPromptSubmit JSON, one copy

PROMPTS = [
    "which package manager do we use for javascript?",
    "pnpm",
    "should I rebase or merge when I update my branch?",
    "what timezone should the log timestamps be in?",
    "what version of postgres do we run?",
]
"""breaker4's first five questions of a new user on a make_corpus.py repo."""

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "claude-code", "version": "2.0.0"},
    },
}


class Server:
    """A real ``memrepo mcp`` on a clone, initialized as Claude Code does; :attr:`initialize_ms` measured."""

    def __init__(self, cmd: list[str], clone: Path, env: dict[str, str]) -> None:
        self.clone = clone
        self.start = time.monotonic()
        self.proc = subprocess.Popen(
            [*cmd, "--repo", str(clone), "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=clone,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], 120)
        if not ready:
            raise SystemExit("the MCP server did not answer initialize in 120 s")
        reply = json.loads(self.proc.stdout.readline())
        self.initialize_ms = (time.monotonic() - self.start) * 1000
        if reply.get("id") != 1 or "result" not in reply:
            raise SystemExit(f"initialize failed: {reply}")
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        self.proc.stdin.write((json.dumps(note) + "\n").encode())
        self.proc.stdin.flush()

    def door_s(self, timeout: float = 120) -> float | None:
        """Seconds from the start until the door's socket is in place (None: not within ``timeout``)."""
        sock = self.clone / ".git" / "memrepo" / "recall.sock"
        while not sock.exists():
            if time.monotonic() - self.start > timeout or self.proc.poll() is not None:
                return None
            time.sleep(0.05)
        return time.monotonic() - self.start

    def up(self) -> float:
        return time.monotonic() - self.start

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()  # EOF: the MCP server ends, as when Claude Code exits
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def ask(cmd: list[str], clone: Path, env: dict[str, str], prompt: str) -> tuple[float, str]:
    """One hook run: (wall ms, its mode line / ``nothing`` / its stderr)."""
    start = time.perf_counter()
    done = subprocess.run(
        [*cmd, "--repo", str(clone), "hook", "prompt"],
        input=payload(prompt, clone),
        capture_output=True,
        text=True,
        env=env,
    )
    took = (time.perf_counter() - start) * 1000
    if done.returncode:
        raise SystemExit(f"hook: exit {done.returncode}: {done.stderr}")
    if done.stdout:
        lines = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"].splitlines()
        return took, lines[2] if len(lines) > 2 else lines[0]
    return took, "nothing" + (f" [stderr: {done.stderr.strip()}]" if done.stderr.strip() else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--waits", default="0,2,5,10", help="comma-separated seconds to wait before the prompts")
    parser.add_argument("--probe", action="store_true", help="also measure N, the first prompt the door answers")
    parser.add_argument("--every", type=float, default=0.5, help="seconds between the probe's prompts")
    parser.add_argument("--memrepo", default=shutil.which("memrepo") or "memrepo", help="the memrepo command to time")
    args = parser.parse_args()
    cmd = shlex.split(args.memrepo)
    with tempfile.TemporaryDirectory(prefix="first-prompts-") as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        env = {k: v for k, v in os.environ.items() if k not in ("MEMREPO_SEMANTIC", "MEMREPO_RECALL_DOOR")}
        env.update(HOME=str(home), MEMREPO_CONFIG=str(home / "none.toml"), XDG_CACHE_HOME=str(home / ".cache"))
        print(f"corpus {args.corpus}; memrepo: {args.memrepo}")
        runs = [float(w) for w in args.waits.split(",") if w] + ([-1.0] if args.probe else [])
        for n, wait in enumerate(runs):
            clone = Path(tmp) / f"clone{n}"
            subprocess.run(["git", "clone", "-q", str(args.corpus), str(clone)], check=True)
            server = Server(cmd, clone, env)
            try:
                door = server.door_s(timeout=wait + 60) if wait > 0 else None
                head = f"initialize {server.initialize_ms:.0f} ms; door in place at " + (
                    f"{door:.1f} s" if door is not None else "(not waited for)"
                )
                if wait >= 0:
                    time.sleep(max(0.0, wait - server.up()))
                    print(f"wait {wait:g} s: {head}")
                    for prompt in PROMPTS:
                        at = server.up()
                        took, said = ask(cmd, clone, env, prompt)
                        print(f"  at {at:5.1f} s  {took:5.0f} ms  {prompt[:40]:<40}  {said}")
                    continue
                print(f"probe: {head}")
                while True:
                    at = server.up()
                    took, said = ask(cmd, clone, env, "pnpm")
                    if "via the MCP server" in said or at > 120:
                        print(f"  first door answer: prompt at {at:.1f} s after start, {took:.0f} ms: {said}")
                        break
                    time.sleep(args.every)
            finally:
                server.stop()


if __name__ == "__main__":
    main()
