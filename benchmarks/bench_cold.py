#!/usr/bin/env python3
"""Benchmark: every entry point that starts a new process, side by side with its baseline, in one run.

For each ``--corpus`` (a memory repo such as ``make_corpus.py`` makes; it is
copied, never changed), on a private copy, these rows run interleaved (one
memrepo run, then one baseline run, ``--runs`` times) and print p50/p95, the
ratio of the medians and the peak RSS of each side:

- ``recall``: ``memrepo recall TERM`` against ``rg -i TERM`` (``grep -ri`` when
  ripgrep is missing). The persisted recall index is built once first (its
  build time is printed: the first run in a repo pays it, no later one);
- ``context``: ``memrepo context --workspace NAME`` against ``cat`` of
  MEMORY.md and that workspace's file, and against ``python3 -c pass``;
- ``changed``: ``memrepo context --workspace NAME`` right after a line was
  appended to that workspace's file and committed by ``git`` (the agent's
  last session wrote there), against ``python3 -c pass``;
- ``remember``: one ``memrepo remember`` process against an append +
  ``git add`` + ``git commit``;
- ``app ready`` / ``app usable``: the terminal app in tmux at 80x24, to HEAD
  and MEMORY.md on screen, then to the first search's hits listed, against a
  bare Textual app with one input (to its label, then to its echo); in the
  first run, once usable, five hand edits of MEMORY.md (a line inserted at
  line 5, the file rewritten) are timed to their line on screen (the usable
  row's note: the goal is 300 ms, no baseline);
- ``MCP first recall``: ``memrepo mcp`` through the SDK's stdio client, from
  tools listed to the first ``memory_recall`` answer, against the SDK's own
  echo server's first call (plus each server's peak RSS);
- ``compaction``: ``compact()`` against ``checkout --orphan`` + commit +
  ``reflog expire`` + ``gc --prune=now`` (``--compact-runs``, on fresh copies),
  with the ``.git`` size of each.

Usage:
    python benchmarks/bench_cold.py --corpus PATH [--corpus PATH ...] [--runs 5] [--compact-runs 1]
        [--skip app,mcp,compact]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from _common import GIT_ENV, percentile  # noqa: E402

GNU_TIME = "/usr/bin/time"

TERM = "pgvector"
"""The recall term (every make_corpus.py corpus holds it in about 6% of its entries)."""

BASELINE_APP = """
from textual.app import App
from textual.widgets import Input, Static

class Bare(App):
    BINDINGS = [("slash", "search", "Search")]

    def compose(self):
        yield Static("baseline ready", id="label")
        yield Input(id="query")

    def on_mount(self):
        self.set_focus(None)

    def action_search(self):
        self.query_one(Input).focus()

    def on_input_changed(self, event):
        self.query_one("#label", Static).update(f"echo {event.value} done")

Bare().run()
"""

ECHO_SERVER = """
import asyncio
from mcp.server.mcpserver import MCPServer

server = MCPServer("echo")

@server.tool()
def echo(text: str) -> str:
    return text

asyncio.run(server.run_stdio_async())
"""


@dataclass
class Row:
    """One row of the table: memrepo's and the baseline's samples."""

    name: str
    baseline: str
    ours: list[float] = field(default_factory=list)
    theirs: list[float] = field(default_factory=list)
    ours_rss: list[int] = field(default_factory=list)  # KB
    theirs_rss: list[int] = field(default_factory=list)
    note: str = ""


def build_index(repo: Path, env: dict[str, str]) -> float:
    """Build the persisted recall index as a user's first recalls do; seconds until a recall reads it.

    A first ``memrepo recall`` in a repo of 400 files or more answers from a scan while the index builds
    in a child process (docs/architecture.md §4), so the timed runs would measure that scan: recall is
    asked again, twice a second, until its answer no longer says it came from a scan.
    """
    started = time.perf_counter()
    while True:
        proc = subprocess.run([*memrepo_cmd(), "recall", TERM], cwd=repo, env=env, capture_output=True)
        if b"scan" not in proc.stderr or time.perf_counter() - started > 3600:
            return time.perf_counter() - started
        time.sleep(0.5)


def run_timed(
    cmd: list[str], cwd: Path, env: dict[str, str] | None = None, shell: bool = False, ok: tuple[int, ...] = (0,)
) -> tuple[float, int]:
    """Run a command to its end; (wall seconds, peak RSS in KB of the process).

    The peak RSS comes from GNU ``time`` (``/usr/bin/time -f %M``) when it is
    there: a forked child's own ``ru_maxrss`` counts the parent's pages from
    before its exec. Both sides pay the same wrapper.

    Args:
        cmd: the command, or ``[script]`` for ``/bin/sh -c`` with ``shell``.
        ok: exit codes that are no failure (``grep`` exits 1 when nothing matches).
    """
    argv = ["/bin/sh", "-c", cmd[0]] if shell else list(cmd)
    report = None
    if os.path.exists(GNU_TIME):
        fd, report = tempfile.mkstemp(prefix="memrepo-cold-rss-")
        os.close(fd)
        argv = [GNU_TIME, "-q", "-f", "%M", "-o", report, *argv]
    started = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - started
    rss = 0
    if report is not None:
        text = Path(report).read_text().strip().splitlines()
        os.unlink(report)
        rss = int(text[-1]) if text and text[-1].isdigit() else 0
    if proc.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode()}")
    return took, rss


def memrepo_cmd() -> list[str]:
    """How to start memrepo from this checkout's interpreter."""
    return [sys.executable, "-m", "memrepo.cli.main"]


def first_workspace(repo: Path) -> tuple[str, str]:
    """(name, file) of the first workspace file (the name is its file name without ``.md``)."""
    first = sorted((repo / "workspaces").glob("*.md"))[0]
    return first.stem, f"workspaces/{first.name}"


# -- the app, in tmux ---------------------------------------------------------


def tmux(socket: str, *args: str) -> str:
    return subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True).stdout


def vm_hwm(pid: int) -> int:
    """Peak RSS (KB) of a live process, from /proc (0 when unknown)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def app_run(
    command: str,
    ready: list[str],
    usable: list[str],
    query: str,
    env: dict[str, str],
    typing: str | None = None,
    hand_edit: Path | None = None,
) -> tuple[float, float, int, list[float]]:
    """Start ``command`` in tmux 80x24; seconds to ``ready`` on screen, then (``/`` and ``query`` typed) to
    ``usable``, the app's peak RSS, and with ``hand_edit`` (the repo's MEMORY.md) the seconds from each of
    :data:`HAND_EDITS` hand edits to their line on screen (:func:`hand_edits_on_screen`)."""
    socket = f"memrepo-cold-{os.getpid()}-{time.monotonic_ns()}"
    env_prefix = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    t0 = time.perf_counter()
    tmux(socket, "new-session", "-d", "-x", "80", "-y", "24", f"exec env {env_prefix} {command}")
    try:
        pid = int(tmux(socket, "display", "-p", "#{pane_pid}").strip() or 0)
        marks: list[float] = []
        sent = False
        screen = ""
        while time.perf_counter() - t0 < 120:
            screen = tmux(socket, "capture-pane", "-p")
            if not marks and all(m in screen for m in ready):
                marks.append(time.perf_counter() - t0)
            if marks and not sent:
                tmux(socket, "send-keys", "/")
                while typing and typing not in tmux(socket, "capture-pane", "-p"):  # the search input is up
                    time.sleep(0.01)
                tmux(socket, "send-keys", "-l", query)
                sent = True
            if sent and all(m in screen for m in usable):
                marks.append(time.perf_counter() - t0)
                edits = hand_edits_on_screen(socket, hand_edit) if hand_edit else []
                return marks[0], marks[1], vm_hwm(pid), edits
            time.sleep(0.01)
        raise SystemExit(f"{command}: not usable after 120 s; last screen:\n{screen}")
    finally:
        tmux(socket, "kill-server")


HAND_EDITS = 5
"""Hand edits timed to the screen in each run of the app."""


def hand_edits_on_screen(socket: str, memory: Path) -> list[float]:
    """Close the search, then :data:`HAND_EDITS` times insert a line at line 5 of ``memory`` (an editor's save:
    the file rewritten whole) and time it to the screen (the Folder pane shows MEMORY.md's top); a second
    between edits, so each is its own change. Seconds per edit."""
    tmux(socket, "send-keys", "Escape")
    time.sleep(1.0)
    out = []
    for k in range(HAND_EDITS):
        word = f"Zebra{k:02d}{os.getpid() % 1000:03d}q"
        lines = memory.read_text("utf-8").split("\n")
        lines.insert(4, f"- {word} crossing on Elm street [by: user]")
        started = time.perf_counter()
        memory.write_text("\n".join(lines), "utf-8")
        while word not in tmux(socket, "capture-pane", "-p"):
            if time.perf_counter() - started > 30:
                raise SystemExit(f"a hand edit to {memory} not on screen after 30 s")
            time.sleep(0.005)
        out.append(time.perf_counter() - started)
        time.sleep(1.0)
    return out


# -- the MCP server -----------------------------------------------------------


async def mcp_first_call(command: list[str], tool: str, arguments: dict, cwd: Path) -> tuple[float, int]:
    """Seconds from tools listed to the first ``tool`` answer, and the server's peak RSS."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ), cwd=str(cwd))
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            started = time.perf_counter()
            result = await session.call_tool(tool, arguments)
            took = time.perf_counter() - started
            if getattr(result, "isError", False) or getattr(result, "is_error", False):
                raise SystemExit(f"{tool} failed: {result.content}")
            rss = 0
            marker = " ".join(command[1:])
            for proc in Path("/proc").iterdir():  # the server: our child running that command
                if proc.name.isdigit():
                    try:
                        cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                    except OSError:
                        continue
                    if marker in cmdline and int(proc.name) != os.getpid():
                        rss = max(rss, vm_hwm(int(proc.name)))
            return took, rss


# -- compaction -----------------------------------------------------------------


def git_dir_size(path: Path) -> int:
    """Bytes under ``.git`` outside memrepo's own state (``.git/memrepo``: the recall index, pending writes)."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and "memrepo" not in p.relative_to(path).parts)


def compact_pair(corpus: Path, tmp: Path, n: int) -> tuple[float, float, int, int]:
    """(memrepo seconds, git seconds, memrepo .git bytes, git .git bytes) on two fresh copies."""
    out = []
    for side in ("memrepo", "git"):
        copy = tmp / f"compact-{side}-{n}"
        shutil.copytree(corpus, copy, symlinks=True)
        subprocess.run(["git", "status", "-s"], cwd=copy, capture_output=True)  # warm both the same
        if side == "memrepo":  # in this process, as bench_compact.py times it: the work, not the start
            from memrepo.engine.config import Settings
            from memrepo.engine.repo.store import MemoryStore

            started = time.perf_counter()
            MemoryStore.open(copy, Settings(), create=False).compact()
            took = time.perf_counter() - started
        else:
            script = (
                "git checkout -q --orphan compact-tmp && git commit -q -m 'Compact history' && "
                "git branch -D main -q && git branch -m main && git reflog expire --expire=now --all && "
                "git gc -q --prune=now"
            )
            took, _rss = run_timed([script], copy, env=GIT_ENV, shell=True)
        out.append((took, git_dir_size(copy / ".git")))
        shutil.rmtree(copy)
    return out[0][0], out[1][0], out[0][1], out[1][1]


# -- one corpus -------------------------------------------------------------------


def bench_corpus(corpus: Path, runs: int, compact_runs: int, skip: set[str]) -> tuple[list[Row], str]:
    with tempfile.TemporaryDirectory(prefix="memrepo-cold-") as tmp_name:
        tmp = Path(tmp_name)
        repo = tmp / "repo"
        shutil.copytree(corpus.resolve(), repo, symlinks=True)
        env = {**os.environ, "HOME": str(tmp), "MEMREPO_REPO": str(repo)}
        files = sum(1 for p in repo.rglob("*.md") if ".git" not in p.parts)
        build = build_index(repo, env)
        grep = ["rg", "-i", TERM, "."] if shutil.which("rg") else ["grep", "-ri", "--exclude-dir=.git", TERM, "."]
        ws_name, ws_file = first_workspace(repo)
        rows = {
            "recall": Row("`memrepo recall TERM`", f"`{grep[0]} -i`", note=f"index built once: {build:.1f} s"),
            "context": Row("`memrepo context --workspace NAME`", "`cat` of the two files"),
            "pass": Row("`memrepo context --workspace NAME`", "`python3 -c pass`"),
            "remember": Row("`memrepo remember` whole process", "append + `git add` + `git commit`"),
            "changed": Row("`memrepo context` after its own workspace file changed", "`python3 -c pass`"),
        }
        for i in range(runs):
            row = rows["recall"]
            for side in (0, 1) if i % 2 == 0 else (1, 0):  # alternate which goes first
                if side == 0:
                    t, rss = run_timed([*memrepo_cmd(), "recall", TERM], repo, env)
                    row.ours.append(t)
                    row.ours_rss.append(rss)
                else:
                    t, rss = run_timed(grep, repo, env, ok=(0, 1))
                    row.theirs.append(t)
                    row.theirs_rss.append(rss)
            t, rss = run_timed([*memrepo_cmd(), "context", "--workspace", ws_name], repo, env)
            for key in ("context", "pass"):
                rows[key].ours.append(t)
                rows[key].ours_rss.append(rss)
            t, rss = run_timed(["cat", "MEMORY.md", ws_file], repo, env)
            rows["context"].theirs.append(t)
            rows["context"].theirs_rss.append(rss)
            t, rss = run_timed(["python3", "-c", "pass"], repo, env)
            rows["pass"].theirs.append(t)
            rows["pass"].theirs_rss.append(rss)
            # The agent's last session wrote to the workspace's file (a line appended in place and
            # committed by git, so no memrepo process kept a block for it): the next hook's context.
            script = (
                f"printf -- '- Bench workspace line {i} about cold starts [by: user]\\n' >> {shlex.quote(ws_file)} && "
                f"git add {shlex.quote(ws_file)} && git commit -q -m 'bench ws {i}'"
            )
            run_timed([script], repo, env={**env, **GIT_ENV}, shell=True)
            t, rss = run_timed([*memrepo_cmd(), "context", "--workspace", ws_name], repo, env)
            rows["changed"].ours.append(t)
            rows["changed"].ours_rss.append(rss)
            t, rss = run_timed(["python3", "-c", "pass"], repo, env)
            rows["changed"].theirs.append(t)
            rows["changed"].theirs_rss.append(rss)
            t, rss = run_timed([*memrepo_cmd(), "remember", f"Bench fact number {i} about cold starts"], repo, env)
            rows["remember"].ours.append(t)
            rows["remember"].ours_rss.append(rss)
            script = (
                f"printf -- '- Bench line {i} [by: user]\\n' >> lessons.md && git add lessons.md && "
                f"git commit -q -m 'bench {i}'"
            )
            t, rss = run_timed([script], repo, env={**env, **GIT_ENV}, shell=True)
            rows["remember"].theirs.append(t)
            rows["remember"].theirs_rss.append(rss)
        out = list(rows.values())

        if "app" not in skip and shutil.which("tmux"):
            head = subprocess.run(
                ["git", "rev-parse", "--short=7", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
            ).stdout.strip()
            baseline = tmp / "baseline_app.py"
            baseline.write_text(BASELINE_APP)
            tenv = {"HOME": str(tmp), "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
            ready = Row("app ready (HEAD and MEMORY.md on screen)", "bare Textual app ready")
            usable = Row("app usable (first search answered)", "bare Textual app echoes input")
            memrepo = " ".join(shlex.quote(a) for a in memrepo_cmd()) + f" --repo {shlex.quote(str(repo))}"
            for i in range(runs):
                for side in (0, 1) if i % 2 == 0 else (1, 0):
                    if side == 0:
                        # HEAD moves with each remember above; read it again
                        head = subprocess.run(
                            ["git", "rev-parse", "--short=7", "HEAD"], cwd=repo, capture_output=True, text=True
                        ).stdout.strip()
                        r, u, rss, edits = app_run(
                            memrepo,
                            [head, "MEMORY.md"],
                            ["ms · enter opens"],
                            TERM,
                            tenv,
                            "Type to search",
                            hand_edit=repo / "MEMORY.md" if i == 0 else None,
                        )
                        ready.ours.append(r)
                        usable.ours.append(u)
                        usable.ours_rss.append(rss)
                        if edits:
                            usable.note = (
                                f"a hand edit on screen: p50 {percentile(edits, 0.5) * 1000:.0f} ms, "
                                f"max {max(edits) * 1000:.0f} ms ({len(edits)} edits)"
                            )
                    else:
                        cmd = f"{shlex.quote(sys.executable)} {shlex.quote(str(baseline))}"
                        r, u, rss, _ = app_run(cmd, ["baseline ready"], [f"{TERM} done"], TERM, tenv)
                        ready.theirs.append(r)
                        usable.theirs.append(u)
                        usable.theirs_rss.append(rss)
            out += [ready, usable]

        if "mcp" not in skip:
            echo = tmp / "echo_server.py"
            echo.write_text(ECHO_SERVER)
            row = Row("MCP: first `memory_recall` after tools listed", "the SDK's echo, first call")
            for _ in range(runs):
                t, rss = asyncio.run(
                    mcp_first_call([*memrepo_cmd(), "--repo", str(repo), "mcp"], "memory_recall", {"query": TERM}, tmp)
                )
                row.ours.append(t)
                row.ours_rss.append(rss)
                t, rss = asyncio.run(mcp_first_call([sys.executable, str(echo)], "echo", {"text": "hi"}, tmp))
                row.theirs.append(t)
                row.theirs_rss.append(rss)
            out.append(row)

        if "compact" not in skip and compact_runs > 0:
            row = Row("compaction", "the git sequence (orphan, commit, reflog expire, gc)")
            sizes = []
            for n in range(compact_runs):
                ours, theirs, ours_size, theirs_size = compact_pair(repo, tmp, n)
                row.ours.append(ours)
                row.theirs.append(theirs)
                sizes.append(ours_size / theirs_size)
            row.note = f".git {sizes[-1]:.2f}x git's (outside .git/memrepo)"
            out.append(row)
        return out, f"{files:,} files"


def fmt_s(values: list[float]) -> str:
    if not values:
        return "-"
    p50, p95 = percentile(values, 0.5), percentile(values, 0.95)
    if p95 < 1:
        return f"{p50 * 1000:.0f} / {p95 * 1000:.0f} ms"
    return f"{p50:.2f} / {p95:.2f} s"


def fmt_rss(values: list[int]) -> str:
    return f"{max(values) / 1024:.0f} MB" if values and max(values) else "-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, action="append", required=True, help="a memory repo (copied, never changed)")
    ap.add_argument("--runs", type=int, default=5, help="interleaved runs of each row")
    ap.add_argument("--compact-runs", type=int, default=1)
    ap.add_argument("--skip", default="", help="comma-separated: app, mcp, compact")
    args = ap.parse_args()
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    print(f"{args.runs} interleaved runs per row; p50 / p95; ratio of the p50s; peak RSS of one process\n")
    print(
        "| entry point | corpus | memrepo p50 / p95 | baseline | baseline p50 / p95 | ratio | RSS memrepo / baseline | note |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for corpus in args.corpus:
        rows, size = bench_corpus(corpus, args.runs, args.compact_runs, skip)
        for row in rows:
            ratio = percentile(row.ours, 0.5) / percentile(row.theirs, 0.5) if row.ours and row.theirs else 0
            print(
                f"| {row.name} | {size} | {fmt_s(row.ours)} | {row.baseline} | {fmt_s(row.theirs)} | "
                f"{ratio:.1f}x | {fmt_rss(row.ours_rss)} / {fmt_rss(row.theirs_rss)} | {row.note} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
