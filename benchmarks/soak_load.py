"""The load of ``bench_soak.py``: its writers, hand appender, editor, readers, git loop and server faults.

Each runs in a thread of the soak and notes what it did in a :class:`Tally`; see ``bench_soak.py``'s
docstring for the whole soak and its checks.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import string
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from _common import GIT_ENV  # noqa: E402

GIT_VARS = {k: v for k, v in GIT_ENV.items() if k.startswith("GIT_")}
"""Git's identity and config switches alone (GIT_ENV also holds this process's whole environment)."""

KEEPER = r"""
import asyncio, json, sys, time, traceback
from memrepo.engine.config import load_settings
from memrepo.engine.repo.repo import MemoryRepo

async def main(root, workspace, out):
    settings = load_settings()
    async with await MemoryRepo.open(root, settings, create=False, commit_hand_edits=True) as repo:
        repo.start_watching()
        calls = errors = 0
        shown = set()
        while True:
            await asyncio.sleep(3.0)
            for call in (lambda: repo.recall("pgvector", limit=5), lambda: repo.context(workspace)):
                try:
                    await call()
                    calls += 1
                except Exception as exc:  # counted and shown: the soak's summary reports them
                    errors += 1
                    print(f"keeper error: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
                    if str(exc) not in shown:  # the first of each kind with where it came from
                        shown.add(str(exc))
                        traceback.print_exc()
            with open(out, "w") as f:
                json.dump({"calls": calls, "errors": errors, "error": repo.last_auto_commit_error}, f)

asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
"""

WORDS = [
    "amber",
    "basil",
    "cedar",
    "delta",
    "ember",
    "fjord",
    "garnet",
    "harbor",
    "indigo",
    "juniper",
    "kestrel",
    "lumen",
    "meadow",
    "nectar",
    "orchid",
    "pepper",
    "quartz",
    "raven",
    "saffron",
    "tundra",
    "umber",
    "violet",
    "willow",
    "yarrow",
    "zephyr",
]


def token(rng: random.Random) -> str:
    """A unique marker of letters only (no 16-character run mixing letters and digits: never a secret)."""
    return "zq" + "".join(rng.choices(string.ascii_lowercase, k=10))


@dataclass
class Tally:
    """What the load did, filled by the threads (under :attr:`lock`)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    acked: dict[str, str] = field(default_factory=dict)  # token -> file it went to
    reinforced: int = 0
    failed: list[str] = field(default_factory=list)  # a client that exited non-zero, not killed
    killed: int = 0
    held_refusals: int = 0  # refused: the file holds a stale save's question (one clear line)
    busy: int = 0  # refused: another writer held the lock for 5 s (one clear line, retry)
    hand: dict[str, str] = field(default_factory=dict)  # token -> file
    editor: dict[str, str] = field(default_factory=dict)
    stale_saves: int = 0
    questions_seen: int = 0
    questions_answered: int = 0
    answer_errors: list[str] = field(default_factory=list)
    reads: int = 0
    read_failures: list[str] = field(default_factory=list)
    git_runs: int = 0
    git_failures: list[str] = field(default_factory=list)
    server_kills: int = 0
    server_stops: int = 0
    write_times: list[float] = field(default_factory=list)
    samples: dict[str, list[tuple[float, int, int]]] = field(default_factory=dict)  # name -> (t, fds, rss KB)


def memrepo_cmd() -> list[str]:
    return [sys.executable, "-m", "memrepo.cli.main"]


def proc_stats(pid: int) -> tuple[int, int] | None:
    """(open descriptors, RSS in KB) of a live process, or None."""
    try:
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return fds, int(line.split()[1])
    except OSError:
        return None
    return None


def server_pid(run_dir: Path) -> int | None:
    """The write server's pid from the lock file beside its socket (None when none runs)."""
    for lock in (run_dir / "memrepo").glob("w-*.sock.lock"):
        with contextlib.suppress(OSError, ValueError):
            pid = int(lock.read_text().strip() or 0)
            if pid and Path(f"/proc/{pid}").exists():
                return pid
    return None


class Soak:
    def __init__(
        self, repo: Path, tmp: Path, env: dict[str, str], minutes: float, writers: int, seed: int, kill_rate: float
    ):
        self.repo, self.tmp, self.env = repo, tmp, env
        self.deadline = time.monotonic() + minutes * 60
        self.started = time.monotonic()
        self.writers = writers
        self.seed = seed
        self.kill_rate = kill_rate
        self.t = Tally()
        self.stop = threading.Event()
        self.workspaces = sorted(p.stem for p in (repo / "workspaces").glob("*.md"))[:40]
        self.edited = self.workspaces[:4]  # the editor's files: writers write there too
        self.run_dir = Path(env["XDG_RUNTIME_DIR"])

    def running(self) -> bool:
        return not self.stop.is_set() and time.monotonic() < self.deadline

    def ws_file(self, name: str) -> Path:
        return self.repo / "workspaces" / f"{name}.md"

    # -- the load ---------------------------------------------------------------------

    def writer(self, n: int) -> None:
        rng = random.Random(self.seed * 1000 + n)
        env = dict(self.env)
        if n % 2:
            env["MEMREPO_WRITE_SERVER"] = "0"  # a process that writes itself
        while self.running():
            ws = rng.choice(self.edited if rng.random() < 0.3 else self.workspaces)
            tok = token(rng)
            text = f"Soak writer {n} notes {tok} about {rng.choice(WORDS)} and {rng.choice(WORDS)}"
            cmd = [*memrepo_cmd(), "remember", "--workspace", ws, "--json", text]
            started = time.monotonic()
            proc = subprocess.Popen(cmd, cwd=self.tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            kill = rng.random() < self.kill_rate
            if kill:
                time.sleep(rng.uniform(0.0, 0.6))
                with contextlib.suppress(ProcessLookupError):
                    proc.send_signal(signal.SIGKILL)
            out, err = proc.communicate()
            took = time.monotonic() - started
            with self.t.lock:
                if proc.returncode == -signal.SIGKILL:
                    self.t.killed += 1
                    continue
                if proc.returncode != 0:
                    said = err.decode(errors="replace").strip()
                    if "memrepo keeps the committed text until you decide" in said:
                        self.t.held_refusals += 1  # the file holds a stale save's question: refused, said so
                    elif "memory repo is busy" in said:
                        self.t.busy += 1  # another writer held the lock for 5 s: refused, said so
                    else:
                        self.t.failed.append(f"writer {n} rc={proc.returncode}: {said[-300:]}")
                    continue
                self.t.write_times.append(took)
                try:
                    reply = json.loads(out.decode().strip().splitlines()[-1])
                except (ValueError, IndexError):
                    self.t.failed.append(f"writer {n}: unreadable reply {out[-200:]!r}")
                    continue
                action = reply.get("action")
                if action == "reinforced":
                    self.t.reinforced += 1
                elif action in ("added", "replaced", "inboxed"):
                    self.t.acked[tok] = str(reply.get("path", ""))
                else:
                    self.t.failed.append(f"writer {n}: reply {reply}")
            self.stop.wait(rng.uniform(0.0, 0.3))

    def hand_appender(self) -> None:
        rng = random.Random(self.seed * 7 + 1)
        while self.running():
            ws = rng.choice(self.workspaces[4:])  # not the editor's files: its save would race this append
            tok = token(rng)
            line = f"- Soak hand line {tok} about {rng.choice(WORDS)} [by: user]\n"
            path = self.ws_file(ws)
            with open(path, "a", encoding="utf-8") as f:
                f.write(line)
            with self.t.lock:
                self.t.hand[tok] = f"workspaces/{ws}.md"
            self.stop.wait(rng.uniform(0.5, 2.5))

    def editor(self) -> None:
        """Stale saves: read, wait while writers write, save the old copy plus a line (temp + rename)."""
        rng = random.Random(self.seed * 7 + 2)
        self.stop.wait(20)
        while self.running():
            ws = rng.choice(self.edited)
            path = self.ws_file(ws)
            data = path.read_bytes()
            time.sleep(rng.uniform(2.0, 5.0))  # writers add entries meanwhile
            tok = token(rng)
            new = data + f"- Soak editor line {tok} [by: user]\n".encode()
            tmp = path.with_name(f".{path.name}.soak-editor")  # an editor's scratch name, renamed over
            tmp.write_bytes(new)
            os.replace(tmp, path)
            with self.t.lock:
                self.t.editor[tok] = f"workspaces/{ws}.md"
                self.t.stale_saves += 1
            time.sleep(rng.uniform(4.0, 8.0))  # the user reads the question, then answers it
            self.answer_questions()
            self.stop.wait(rng.uniform(20.0, 50.0))

    def answer_questions(self) -> None:
        """Answer every held hand-edit question "put back" (keep the save, put the dropped entries back)."""
        code = (
            "import json,sys\n"
            "from memrepo.engine.config import load_settings\n"
            "from memrepo.engine.repo.store import MemoryStore\n"
            "s = MemoryStore.open(sys.argv[1], load_settings(), False)\n"
            "out = []\n"
            "try:\n"
            "    for q in s.status().questions:\n"
            "        try:\n"
            "            s.answer_hand_edit(q.path, q.seen, commit=bool(not q.dropped))\n"
            "            out.append([q.path, len(q.dropped or []), ''])\n"
            "        except Exception as exc:\n"
            "            out.append([q.path, len(q.dropped or []), f'{type(exc).__name__}: {exc}'])\n"
            "finally:\n"
            "    s.close()\n"
            "print(json.dumps(out))\n"
        )
        proc = subprocess.run(
            [sys.executable, "-c", code, str(self.repo)], cwd=self.tmp, env=self.env, capture_output=True, text=True
        )
        with self.t.lock:
            if proc.returncode != 0:
                self.t.answer_errors.append(proc.stderr.strip()[-300:])
                return
            for path, _dropped, error in json.loads(proc.stdout.strip().splitlines()[-1]):
                self.t.questions_seen += 1
                if error:
                    self.t.answer_errors.append(f"{path}: {error}")
                else:
                    self.t.questions_answered += 1

    def reader(self) -> None:
        rng = random.Random(self.seed * 7 + 3)
        while self.running():
            if rng.random() < 0.5:
                cmd = [*memrepo_cmd(), "recall", rng.choice(["pgvector", "staging", "Makefiles", "soak"])]
                ok = (0, 1)  # 1: nothing matched
            else:
                cmd = [*memrepo_cmd(), "context", "--workspace", rng.choice(self.workspaces)]
                ok = (0,)
            proc = subprocess.run(cmd, cwd=self.tmp, env=self.env, capture_output=True)
            with self.t.lock:
                self.t.reads += 1
                if proc.returncode not in ok:
                    self.t.read_failures.append(
                        f"{cmd[3]} rc={proc.returncode}: {proc.stderr.decode(errors='replace').strip()[-200:]}"
                    )
            self.stop.wait(rng.uniform(0.5, 2.0))

    def git_loop(self) -> None:
        rng = random.Random(self.seed * 7 + 4)
        env = {**self.env, **GIT_VARS}
        last_gc = time.monotonic()
        while self.running():
            cmds = [["git", "status", "--porcelain"], ["git", "log", "--oneline", "-5"]]
            if time.monotonic() - last_gc > 120:
                cmds.append(["git", "gc", "--quiet"])
                last_gc = time.monotonic()
            for cmd in cmds:
                proc = subprocess.run(cmd, cwd=self.repo, env=env, capture_output=True)
                with self.t.lock:
                    self.t.git_runs += 1
                    if proc.returncode != 0:
                        self.t.git_failures.append(
                            f"{' '.join(cmd)}: {proc.stderr.decode(errors='replace').strip()[-200:]}"
                        )
            self.stop.wait(rng.uniform(1.0, 3.0))

    def server_faults(self) -> None:
        rng = random.Random(self.seed * 7 + 5)
        while self.running():
            self.stop.wait(rng.uniform(150, 300))
            pid = server_pid(self.run_dir)
            if pid is None or not self.running():
                continue
            if rng.random() < 0.5:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                with self.t.lock:
                    self.t.server_kills += 1
            else:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGSTOP)
                    time.sleep(rng.uniform(3.0, 8.0))
                    os.kill(pid, signal.SIGCONT)
                with self.t.lock:
                    self.t.server_stops += 1

    def sampler(self, named: dict[str, int]) -> None:
        while not self.stop.is_set():
            now = time.monotonic() - self.started
            pids = dict(named)
            spid = server_pid(self.run_dir)
            if spid is not None:
                pids[f"write server {spid}"] = spid
            for name, pid in pids.items():
                got = proc_stats(pid)
                if got is not None:
                    with self.t.lock:
                        self.t.samples.setdefault(name, []).append((now, *got))
            self.stop.wait(10.0)
