#!/usr/bin/env python3
"""Benchmark: a soak of mixed load for N minutes, then a check that nothing was lost and nothing is stuck.

On a private copy of ``--corpus`` (copied, never changed), for ``--minutes``:

- ``--writers`` threads each run ``memrepo remember --workspace NAME TEXT`` in a
  loop (half through the write server, as the shipped CLI hands it; half with
  ``MEMREPO_WRITE_SERVER=0``, a process writing itself); some of these clients
  are sent SIGKILL at a random moment (``--kill-rate``);
- a hand appender adds lines to workspace files with a plain append;
- an "editor" reads a workspace file the writers also write to, waits a few
  seconds, then saves its copy plus one line of its own as editors do (a temp
  file renamed over the file): a stale save, which must be held as a question,
  never committed silently; the soak answers it "put back" a few seconds later,
  as a user would;
- a keeper: one long-running process with the repo open as the app opens it
  (watching, hand edits committed after a quiet spell), calling recall and the
  context block every few seconds;
- ``memrepo recall`` and ``memrepo context`` processes, as hooks and shells run them;
- a ``git`` loop beside all this (``status``, ``log``, and ``gc`` now and then);
- ``memrepo watch`` syncing to a bare remote in the same folder;
- the write server sent SIGKILL, or SIGSTOP for a few seconds, now and then.

The recall index is built once before the load starts (``--cold-index``
leaves its first build to run under the load). Every 10 s it samples the open descriptors and RSS of the long-running
processes (the keeper, ``memrepo watch``, the write server of the moment).

At the end (load stopped) it waits for the keeper to commit the last hand
edits, answers any question left, and checks: every acknowledged write
(exit 0, "added") and every hand and editor line is in HEAD's tree; no write
lock is left held (a last ``remember`` succeeds at once, no ``index.lock``);
descriptors and RSS of each long-running process are flat (last third against
the first third, after a warm-up). It prints a summary and exits 1 when a
check fails.

Usage:
    python benchmarks/bench_soak.py --corpus PATH [--minutes 30] [--writers 8] [--seed 1] [--cold-index] [--keep]
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from soak_load import GIT_VARS, KEEPER, Soak, memrepo_cmd, proc_stats, server_pid

from memrepo.engine.files.oldinode import WATCH_SECONDS

SYNC_INTERVAL_S = 300
"""``[sync] interval_s``'s default: under steady writes ``memrepo watch`` must sync at least this often."""


def _seconds(clock: str) -> int:
    """Seconds since midnight of an ``HH:MM:SS`` stamp (``memrepo watch`` prints them)."""
    h, m, sec = (int(x) for x in clock.split(":"))
    return h * 3600 + m * 60 + sec


def head_text(repo: Path) -> str:
    """Every blob of HEAD's tree, joined (the markers are looked for in it)."""
    env = {**os.environ, **GIT_VARS}
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--format=%(objectname)", "HEAD"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    proc = subprocess.run(
        ["git", "cat-file", "--batch"], cwd=repo, env=env, input=names, capture_output=True, text=True, check=True
    )
    return proc.stdout


def flat(samples: list[tuple[float, int, int]], warmup_s: float) -> tuple[str, bool]:
    """Whether descriptors and RSS stayed flat: the last third against the first third (after warm-up): the
    lowest descriptor count, the median RSS."""
    kept = [s for s in samples if s[0] >= samples[0][0] + warmup_s] or samples
    if len(kept) < 6:
        return f"{len(kept)} samples (too few to judge)", True
    third = len(kept) // 3
    first, last = kept[:third], kept[-third:]
    # Descriptors at their lowest (no client connected): a leak raises the floor, a busy moment only the peak.
    fd0, fd1 = min(s[1] for s in first), min(s[1] for s in last)
    rss0, rss1 = statistics.median(s[2] for s in first), statistics.median(s[2] for s in last)
    ok = fd1 <= fd0 + 2 and rss1 <= rss0 * 1.15 + 4096
    text = (
        f"fds {fd0:.0f} -> {fd1:.0f} (max {max(s[1] for s in kept)}), "
        f"RSS {rss0 / 1024:.0f} -> {rss1 / 1024:.0f} MB (max {max(s[2] for s in kept) / 1024:.0f}), {len(kept)} samples"
    )
    return text, ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, required=True, help="a memory repo (copied, never changed)")
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--writers", type=int, default=8)
    ap.add_argument("--kill-rate", type=float, default=0.05, help="share of writer clients sent SIGKILL")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", action="store_true", help="keep the private copy (its path is printed)")
    ap.add_argument(
        "--cold-index", action="store_true", help="start without the recall index (its first build runs under load)"
    )
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="memrepo-soak-"))
    repo = tmp / "repo"
    shutil.copytree(args.corpus.resolve(), repo, symlinks=True)
    (tmp / "run").mkdir(mode=0o700)
    env = {**os.environ, "HOME": str(tmp), "MEMREPO_REPO": str(repo), "XDG_RUNTIME_DIR": str(tmp / "run")}
    env.pop("MEMREPO_WRITE_SERVER", None)
    genv = {**env, **GIT_VARS}
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(tmp / "remote.git")], env=genv, check=True)
    subprocess.run(
        [*memrepo_cmd(), "remote", "set", "--yes-private", str(tmp / "remote.git")],
        cwd=tmp,
        env=env,
        check=True,
        capture_output=True,
    )
    if not args.cold_index:  # steady state: the index exists, as in any repo used before
        subprocess.run([*memrepo_cmd(), "recall", "pgvector"], cwd=tmp, env=env, capture_output=True, check=True)
    logs = {name: open(tmp / f"{name}.log", "w") for name in ("keeper", "watch")}  # noqa: SIM115 (closed at the end)
    keeper = subprocess.Popen(
        [sys.executable, "-c", KEEPER, str(repo), "project-0000", str(tmp / "keeper.json")],
        cwd=tmp,
        env=env,
        stdout=logs["keeper"],
        stderr=subprocess.STDOUT,
    )
    watch = subprocess.Popen(
        [*memrepo_cmd(), "watch"], cwd=tmp, env=env, stdout=logs["watch"], stderr=subprocess.STDOUT
    )
    soak = Soak(repo, tmp, env, args.minutes, args.writers, args.seed, args.kill_rate)
    load = [threading.Thread(target=soak.writer, args=(n,), daemon=True) for n in range(args.writers)]
    load += [
        threading.Thread(target=f, daemon=True)
        for f in (soak.hand_appender, soak.editor, soak.reader, soak.git_loop, soak.server_faults)
    ]
    sampler = threading.Thread(
        target=soak.sampler, args=({"keeper": keeper.pid, "memrepo watch": watch.pid},), daemon=True
    )
    print(
        f"soak: {args.minutes:g} min on {repo} ({len(soak.workspaces)} workspaces, {args.writers} writers)", flush=True
    )
    sampler.start()
    for th in load:
        th.start()
    try:
        while soak.running():
            time.sleep(5)
            if keeper.poll() is not None or watch.poll() is not None:
                print("a long-running process ended early", flush=True)
                break
    except KeyboardInterrupt:
        pass
    soak.stop.set()
    for th in load:
        th.join(timeout=120)  # a write under way ends; every loop sleeps on the stop event
    # The last hand edits: the keeper commits them after its quiet spell.
    settle_started = time.monotonic()
    pending = True
    while time.monotonic() - settle_started < 60:
        status = subprocess.run(
            ["git", "status", "--porcelain", "--", "."], cwd=repo, env=genv, capture_output=True, text=True
        ).stdout
        if not status.strip():
            pending = False
            break
        soak.answer_questions()
        time.sleep(2)
    settle = time.monotonic() - settle_started
    leftover = subprocess.run(
        ["git", "status", "--porcelain"], cwd=repo, env=genv, capture_output=True, text=True
    ).stdout.strip()

    # The write server's descriptor floor: with 8 writers some client is always connected, so it is judged
    # here, with none left: every connection closed and every old inode let go (WATCH_SECONDS after its write).
    drained = None
    drain_pid = server_pid(soak.run_dir)
    if drain_pid is not None:
        time.sleep(WATCH_SECONDS + 2.5)
        drained = proc_stats(drain_pid)

    # No stuck lock: a last write goes through at once, no index.lock is left.
    t0 = time.monotonic()
    last = subprocess.run(
        [*memrepo_cmd(), "remember", "--workspace", soak.workspaces[-1], "Soak last write after the load"],
        cwd=tmp,
        env={**env, "MEMREPO_WRITE_SERVER": "0"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    last_s = time.monotonic() - t0
    index_lock = (repo / ".git" / "index.lock").exists()
    soak.stop.set()
    sampler.join(timeout=15)
    keeper_state = {}
    with contextlib.suppress(OSError, ValueError):
        keeper_state = json.loads((tmp / "keeper.json").read_text())
    for proc in (keeper, watch):
        proc.send_signal(signal.SIGTERM)
    for proc in (keeper, watch):
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    spid = server_pid(soak.run_dir)
    if spid is not None:
        os.kill(spid, signal.SIGTERM)

    text = head_text(repo)
    worktree = "\n".join(p.read_text(errors="replace") for p in repo.rglob("*.md") if ".git" not in p.parts)
    t = soak.t
    lost_acked = [tok for tok in t.acked if tok not in text]
    lost_hand = [tok for tok in t.hand if tok not in text]
    lost_editor = [tok for tok in t.editor if tok not in text]
    uncommitted = [tok for tok in [*lost_acked, *lost_hand, *lost_editor] if tok in worktree]
    remote_head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=tmp / "remote.git", env=genv, capture_output=True, text=True
    ).stdout.strip()
    local_head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, env=genv, capture_output=True, text=True
    ).stdout.strip()
    fsck = subprocess.run(["git", "fsck", "--no-dangling"], cwd=repo, env=genv, capture_output=True, text=True)

    ok = True
    out = []
    minutes = (time.monotonic() - soak.started) / 60
    out.append(f"soak summary ({minutes:.1f} min, load average at the end {os.getloadavg()[0]:.1f})")
    wt = sorted(t.write_times)
    p50 = wt[len(wt) // 2] if wt else 0
    p95 = wt[int(len(wt) * 0.95)] if wt else 0
    out.append(
        f"  acknowledged writes: {len(t.acked)} (reinforced {t.reinforced}); clients SIGKILLed {t.killed}; refused while a question was held {t.held_refusals}; busy {t.busy}; failed {len(t.failed)}; write p50 {p50:.2f} s, p95 {p95:.2f} s"
    )
    out.append(
        f"  hand appends: {len(t.hand)}; editor stale saves: {t.stale_saves}; questions answered {t.questions_answered} of {t.questions_seen}"
    )
    out.append(
        f"  reads (recall/context processes): {t.reads}, failed {len(t.read_failures)}; keeper calls {keeper_state.get('calls')}, errors {keeper_state.get('errors')}"
    )
    out.append(
        f"  git runs: {t.git_runs}, failed {len(t.git_failures)}; write server SIGKILLed {t.server_kills}, SIGSTOPped {t.server_stops}"
    )
    lost = len(lost_acked) + len(lost_hand) + len(lost_editor) - len(uncommitted)
    out.append(
        f"  lost: {len(lost_acked)} acknowledged, {len(lost_hand)} hand, {len(lost_editor)} editor not in HEAD ({len(uncommitted)} of them still in the work tree, uncommitted); {lost} gone"
    )
    ok &= not lost_acked and not lost_hand and not lost_editor
    out.append(
        f"  hand edits committed {settle:.1f} s after the load stopped"
        + ("" if not pending else f"; still uncommitted: {leftover[:300]!r}")
    )
    ok &= not pending
    out.append(f"  last write after the load: rc {last.returncode} in {last_s:.2f} s; index.lock left: {index_lock}")
    ok &= last.returncode == 0 and not index_lock
    out.append(
        f"  remote HEAD {'=' if remote_head == local_head else '!='} local HEAD (a sync after the last writes may still be due); git fsck rc {fsck.returncode}"
    )
    ok &= fsck.returncode == 0
    pushes = [line[:8] for line in (tmp / "watch.log").read_text().splitlines() if " sync: " in line]
    gaps = [_seconds(b) - _seconds(a) for a, b in itertools.pairwise(pushes)]
    longest = max([*gaps, _seconds(time.strftime("%H:%M:%S")) - _seconds(pushes[-1])] if pushes else [0])
    out.append(
        f"  memrepo watch synced {len(pushes)} times (sync interval {SYNC_INTERVAL_S} s); longest wait without a sync"
        f" {longest:.0f} s" + ("  TOO LONG" if longest > 2 * SYNC_INTERVAL_S + 60 else "")
    )
    ok &= longest <= 2 * SYNC_INTERVAL_S + 60
    if drained is not None:
        # its first sample may come before its first write opened what every write keeps (6 where the floor is 7)
        under = [s[1] for s in t.samples.get(f"write server {drain_pid}", [])][1:]
        low = min(under) if under else None
        good = low is None or drained[0] <= low
        out.append(
            f"  write server {drain_pid} with no client left: {drained[0]} fds (its lowest under load: {low}),"
            f" RSS {drained[1] / 1024:.0f} MB" + ("" if good else "  NOT BACK TO THE FLOOR")
        )
        ok &= good
    series = tmp / "series.json"
    series.write_text(json.dumps(t.samples))
    out.append(f"  fd and RSS samples (seconds, fds, RSS KB) of each long-running process: {series}")
    for name, samples in sorted(t.samples.items()):
        if name.startswith("write server") and samples[-1][0] - samples[0][0] < 120:
            out.append(f"  {name}: lived {samples[-1][0] - samples[0][0]:.0f} s ({len(samples)} samples), not judged")
            continue
        desc, good = flat(samples, 60)
        out.append(f"  {name}: {desc}{'' if good else '  NOT FLAT'}")
        ok &= good
    for what, items in (
        ("failed writes", t.failed),
        ("failed reads", t.read_failures),
        ("git failures", t.git_failures),
        ("answer errors", t.answer_errors),
    ):
        if items:
            out.append(f"  {what} (first 5 of {len(items)}):")
            out.extend(f"    {item}" for item in items[:5])
    if t.failed or t.read_failures or t.answer_errors or (keeper_state.get("errors") or 0):
        ok = False
    for tok in [*lost_acked, *lost_hand, *lost_editor][:10]:
        where = t.acked.get(tok) or t.hand.get(tok) or t.editor.get(tok)
        out.append(f"    missing {tok} ({where})")
    out.append("  result: " + ("PASS" if ok else "FAIL"))
    print("\n".join(out), flush=True)
    for f in logs.values():
        f.close()
    if args.keep or not ok:
        print(f"kept: {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
