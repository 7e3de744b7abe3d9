#!/usr/bin/env python3
"""Benchmark: the app's memory across pane switches, and its key latency while writes arrive from outside.

Runs ``memrepo`` in tmux at 80x24 on a private copy of a corpus (never the
corpus itself) and, once HEAD and ``MEMORY.md`` are on screen:

1. switches panes ``--switches`` times (the number keys 1..6 in turn, each
   waited for until its box title is on screen) and reads the app's RSS
   (``VmRSS``) after the first round of six (and ``--settle`` seconds, since a
   pane reads what it shows when first shown), half way and at the end: the
   growth per switch over the second half is what "flat across pane switches"
   means (the first half also fills Textual's bounded render caches: its
   1,024-entry style cache alone takes about 70 switches to fill);
2. while another process appends a line to a topic file every
   ``--write-every`` seconds (hand edits the app commits and shows live),
   switches panes ``--keys`` more times and records each key's time from
   ``send-keys`` to its pane on screen (p50 / p95 / max, and how many took
   over 200 ms).

Prints one table row per measure. The peak RSS (``VmHWM``) is printed too.

Usage:
    python benchmarks/bench_app_weight.py --corpus PATH [--switches 60] [--keys 60] [--write-every 0.05]
        [--settle 3] [--memrepo PATH]
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
import threading
import time
from pathlib import Path

from _common import copy_corpus

PANE_MARKS = {
    "1": "─ Files ",
    "2": "─ Inbox ",
    "3": "─ History ",
    "4": "─ Workspace ",
    "5": "─ Health ",
    "6": "─ Dreams ",
}
"""The box title each number key's pane shows (on screen means the key was answered)."""


def tmux(socket: str, *args: str) -> str:
    """Run a tmux command on a private socket; returns stdout."""
    return subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True).stdout


def proc_kb(pid: int, field: str) -> int:
    """A ``/proc/PID/status`` field in KB (``VmRSS``, ``VmHWM``); 0 when unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def wait_for(socket: str, marks: list[str], timeout: float = 60.0, absent: str | None = None) -> float:
    """Poll the screen every 5 ms until every mark is on it; returns the seconds waited."""
    t0 = time.perf_counter()
    screen = ""
    while time.perf_counter() - t0 < timeout:
        screen = tmux(socket, "capture-pane", "-p")
        if all(m in screen for m in marks) and (absent is None or absent not in screen):
            return time.perf_counter() - t0
        time.sleep(0.005)
    raise SystemExit(f"{marks} not on screen after {timeout} s; last screen:\n{screen}")


def switch(socket: str, key: str) -> float:
    """Press a pane's number key; seconds until its box title is on screen."""
    t0 = time.perf_counter()
    tmux(socket, "send-keys", key)
    try:
        wait_for(socket, [PANE_MARKS[key]], timeout=15)
    except SystemExit:  # the key was lost (seen on a machine at load 30): once more, and count the wait
        tmux(socket, "send-keys", key)
        wait_for(socket, [PANE_MARKS[key]], timeout=30)
    return time.perf_counter() - t0


def writer(path: Path, every: float, stop: threading.Event, count: list[int]) -> None:
    """Append a line to ``path`` every ``every`` seconds until ``stop`` (an outside hand edit)."""
    while not stop.is_set():
        with path.open("a", encoding="utf-8") as fh:
            fh.write(f"- Bench hand edit {count[0]} from outside [by: user]\n")
        count[0] += 1
        stop.wait(every)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, required=True, help="a memory repo to copy (not modified)")
    ap.add_argument("--switches", type=int, default=60)
    ap.add_argument("--keys", type=int, default=60)
    ap.add_argument(
        "--settle", type=float, default=3.0, help="seconds to wait after the first round, for the panes' first reads"
    )
    ap.add_argument("--memrepo", help="the memrepo command to run (another checkout's, for a before/after)")
    ap.add_argument("--write-every", type=float, default=0.05, help="seconds between outside writes")
    args = ap.parse_args()
    if shutil.which("tmux") is None:
        raise SystemExit("tmux is needed")
    memrepo = args.memrepo or shutil.which("memrepo") or str(Path(sys.executable).parent / "memrepo")
    with tempfile.TemporaryDirectory(prefix="memrepo-weight-") as tmp:
        tmpdir = Path(tmp)
        repo, head = copy_corpus(args.corpus, tmpdir)
        socket = f"memrepo-weight-{os.getpid()}"
        env = f"HOME={shlex.quote(str(tmpdir))} TERM=xterm-256color"
        t0 = time.perf_counter()
        tmux(socket, "new-session", "-d", "-x", "80", "-y", "24", f"exec env {env} {memrepo} --repo {repo}")
        pid = 0
        try:
            pid = int(tmux(socket, "display", "-p", "#{pane_pid}").strip() or 0)
            wait_for(socket, [head, "MEMORY.md"])
            ready = time.perf_counter() - t0
            time.sleep(1.0)  # let start-up work (the recall index, the first status) settle
            rss_ready = proc_kb(pid, "VmRSS")
            keys = [str(1 + i % 6) for i in range(1, args.switches + 1)]  # 2, 3, ... 6, 1, 2, ...
            for key in keys[:6]:
                switch(socket, key)
            time.sleep(args.settle)  # each pane reads what it shows when first shown: let those reads land
            rss_round = proc_kb(pid, "VmRSS")
            half = 6 + (len(keys) - 6) // 2
            for key in keys[6:half]:
                switch(socket, key)
            time.sleep(0.5)
            rss_half = proc_kb(pid, "VmRSS")
            for key in keys[half:]:
                switch(socket, key)
            time.sleep(0.5)
            rss_end = proc_kb(pid, "VmRSS")

            target = next(p for p in sorted((repo / "topics").rglob("*.md")))
            stop, count = threading.Event(), [0]
            thread = threading.Thread(target=writer, args=(target, args.write_every, stop, count), daemon=True)
            thread.start()
            try:
                lat = [switch(socket, str(1 + i % 6)) for i in range(1, args.keys + 1)]
            finally:
                stop.set()
                thread.join()
            rss_writes = proc_kb(pid, "VmRSS")
            hwm = proc_kb(pid, "VmHWM")
        finally:
            tmux(socket, "kill-server")
            gone_by = time.monotonic() + 10.0
            while pid and Path(f"/proc/{pid}").exists() and time.monotonic() < gone_by:
                time.sleep(0.05)  # the app finishes its last write into the copy before the copy is removed
        files = sum(1 for p in repo.rglob("*.md") if ".git" not in p.parts)
        later = max(1, args.switches - 6)
        per = (rss_end - rss_round) / later
        lat_ms = sorted(x * 1000 for x in lat)
        p95 = lat_ms[min(len(lat_ms) - 1, int(0.95 * len(lat_ms)))]
        print(f"corpus {args.corpus}: {files:,} files, tmux 80x24\n")
        print("| measure | value |")
        print("|---|---|")
        print(f"| ready (HEAD and MEMORY.md on screen) | {ready * 1000:.0f} ms |")
        print(f"| RSS at ready (+1 s) | {rss_ready / 1024:.0f} MB |")
        print(f"| RSS after the first 6 switches | {rss_round / 1024:.0f} MB |")
        print(f"| RSS after {args.switches} switches | {rss_end / 1024:.0f} MB |")
        print(f"| growth per switch after the first 6 | {per:.0f} KB |")
        second = max(1, args.switches - half)
        print(f"| growth per switch over the second half (caches full) | {(rss_end - rss_half) / second:.0f} KB |")
        print(
            f"| pane key to screen, {count[0]} outside writes during {args.keys} keys | "
            f"p50 {statistics.median(lat_ms):.0f} ms, p95 {p95:.0f} ms, max {lat_ms[-1]:.0f} ms, "
            f"{sum(1 for x in lat_ms if x > 200)} over 200 ms |"
        )
        print(f"| RSS after the writes | {rss_writes / 1024:.0f} MB |")
        print(f"| peak RSS (VmHWM) | {hwm / 1024:.0f} MB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
