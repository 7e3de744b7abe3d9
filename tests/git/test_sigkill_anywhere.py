"""200 SIGKILLs at random moments of every write: nothing is stuck, nothing acknowledged is lost.

docs/architecture.md §3, §5, §6: remember, forget, undo, inbox accept, dream,
dream accept, compaction (on one repo) and sync (on a second, with a peer
machine pushing to the same remote) each run in a process of their own,
forked from a server that imported the engine once
(:mod:`helpers.kill_server`), and are killed after a delay drawn from a
seeded RNG over the operation's own running time. After each kill: the next
command works with no manual step, ``git fsck --strict`` is clean, and every
write the killed or earlier processes acknowledged is there (and every
acknowledged removal stays removed).
"""

from __future__ import annotations

import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from helpers.kill_server import execute
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync.sync import set_remote

SERVER = Path(__file__).resolve().parents[1] / "helpers" / "kill_server.py"
KILLS = int(os.environ.get("MEMREPO_KILLS", "200"))
"""SIGKILLs the test lands (each inside a running operation)."""
SEED = int(os.environ.get("MEMREPO_KILL_SEED", "17"))
SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "pe", "du", "go", "ha"]
"""Entry words made of syllables: unique, no near-duplicates, nothing a secret detector flags."""
ENTRY = re.compile(r"^- (.*?)(?: \[[^\]\n]*\])?$", re.M)
"""An entry line: its text, without the metadata."""
OPS = {
    "remember": 4,
    "forget": 2,
    "undo": 2,
    "accept": 2,
    "dream": 2,
    "dream_accept": 2,
    "compact": 1,
    "sync": 3,
}
"""Which operation is killed, by weight."""


class Server:
    """The fork server's pipes: run an operation, kill it, reap it."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.cpu = 0.0
        """CPU seconds the operations used."""
        self.proc = subprocess.Popen(
            [sys.executable, str(SERVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log.open("w"),
            text=True,
            bufsize=1,
        )
        assert "ready" in self._read()

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"the kill server died: {self.log.read_text()}"
        return json.loads(line)

    def _send(self, req: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def start(self, op: str, root: Path, acks: Path, **args: Any) -> int:
        return int(self._send({"run": op, "root": str(root), "acks": str(acks), "args": args})["pid"])

    def reap(self, pid: int) -> dict[str, int]:
        answer = self._send({"wait": pid})
        self.cpu += answer.pop("cpu")
        return answer

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


@dataclass
class Repo:
    """One memory repo under test and what it must (and must not) hold."""

    root: Path
    acks: Path
    present: set[str] = field(default_factory=set)
    """Entry texts an acknowledged write put there and no acknowledged write took away."""
    absent: set[str] = field(default_factory=set)
    """Entry texts an acknowledged forget or undo took away (never written again)."""
    gone_lines: set[str] = field(default_factory=set)
    """Whole lines an acknowledged dream accept removed."""
    inbox: set[str] = field(default_factory=set)
    """Texts waiting in the inbox."""
    commits: dict[str, str] = field(default_factory=dict)
    """Text -> the commit that remembered it, for undo."""
    merges: set[str] = field(default_factory=set)
    """Dream accept merge commits already taken into account."""
    seen: int = 0

    def new_acks(self) -> list[dict[str, Any]]:
        if not self.acks.exists():
            return []
        lines = self.acks.read_text().splitlines()
        fresh, self.seen = lines[self.seen :], len(lines)
        return [json.loads(line) for line in fresh]

    def text(self) -> str:
        out = []
        for path in self.root.rglob("*.md"):
            if ".git" not in path.relative_to(self.root).parts:
                out.append(path.read_text(encoding="utf-8"))
        return "\n".join(out)


@dataclass
class Tally:
    kills: int = 0
    finished: int = 0
    by_op: dict[str, int] = field(default_factory=dict)
    span: dict[str, float] = field(default_factory=dict)


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(3))


def _fresh(rng: random.Random, n: int) -> str:
    return f"kill test note {n} {_word(rng)} {_word(rng)} {_word(rng)} {_word(rng)}"


def _apply(repo: Repo, ack: dict[str, Any]) -> None:
    """What one acknowledged operation promises about the files."""
    if "error" in ack:
        return
    op, args = ack["op"], ack["args"]
    if op == "remember" and ack["action"] in ("added", "inboxed", "reinforced", "replaced"):
        if args.get("inbox"):
            repo.inbox.add(args["text"])
        repo.present.add(args["text"])
        if ack["commit"]:
            repo.commits[args["text"]] = ack["commit"]
    elif op in ("forget", "undo") and ack["commit"]:
        text = args["text"]
        repo.present.discard(text)
        repo.absent.add(text)
        repo.commits.pop(text, None)
    elif op == "accept" and ack["commit"]:
        repo.inbox.discard(args["text"])
        repo.commits.pop(args["text"], None)  # its remember commit's line moved: undo would not find it
    elif op == "dream_accept" and ack.get("merge"):
        _accepted(repo, ack["merge"])
    elif op == "compact":
        repo.commits.clear()  # history is one commit now: nothing to undo


def _accepted(repo: Repo, merge: str) -> None:
    """What a dream accept's merge commit promises: the lines it removed stay removed."""
    diff = git(repo.root, "diff", "-U0", f"{merge}^1", merge)
    removed = {ln[1:] for ln in diff.splitlines() if ln.startswith("-- ")}
    added = {ln[1:] for ln in diff.splitlines() if ln.startswith("+- ")}
    repo.gone_lines |= removed - added
    # An accepted merge of near-duplicates removes one of them: gone on purpose, not lost.
    kept = {m.group(1) for m in ENTRY.finditer("\n".join(added))}
    for m in ENTRY.finditer("\n".join(removed)):
        if m.group(1) not in kept:
            repo.present.discard(m.group(1))
            repo.commits.pop(m.group(1), None)
    repo.merges.add(merge)


def _check(repo: Repo, what: str) -> None:
    """fsck clean, every acknowledged write there, every acknowledged removal still gone."""
    done = subprocess.run(["git", "fsck", "--strict"], cwd=repo.root, capture_output=True, text=True)
    assert done.returncode == 0, f"after {what}: git fsck --strict: {done.stdout}{done.stderr}"
    text = repo.text()
    lines = set(text.splitlines())
    entries = {m.group(1) for m in ENTRY.finditer(text)}
    missing = sorted(repo.present - entries)
    assert not missing, f"after {what}: acknowledged entries lost: {missing}"
    back = sorted(repo.absent & entries)
    assert not back, f"after {what}: acknowledged removals came back: {back}"
    undone = sorted(ln for ln in repo.gone_lines if ln in lines)
    assert not undone, f"after {what}: an accepted dream was reverted: {undone}"


def _resolve(repo: Repo, op: str, args: dict[str, Any]) -> None:
    """A killed forget, undo, accept or dream accept may or may not have landed: from now on the repo says which."""
    if op == "dream_accept":  # its merge commit, made before the kill, stands: what it removed is gone on purpose
        log = git(repo.root, "log", "--format=%H %s", "main").splitlines()
        for line in log:
            merge, _, subject = line.partition(" ")
            if subject.startswith("Accept dream") and merge not in repo.merges:
                _accepted(repo, merge)
    text = args.get("text")
    if op in ("forget", "undo") and text is not None and text not in {m.group(1) for m in ENTRY.finditer(repo.text())}:
        repo.present.discard(text)
        repo.commits.pop(text, None)
    if op == "accept" and text is not None:
        inbox = repo.root / "inbox.md"
        if not inbox.exists() or text not in inbox.read_text(encoding="utf-8"):
            repo.inbox.discard(text)
            repo.commits.pop(text, None)


def _seed_pair(repo: Repo, rng: random.Random) -> None:
    """Two near-duplicate lessons of the user: the rules dream offers to merge them, for review."""
    base = f"Always check the {_word(rng)} {_word(rng)} before pushing"
    for text in (base, base + " code"):
        _run_clean(repo, "remember", text=text, by="user", kind="lesson")
    for ack in repo.new_acks():
        _apply(repo, ack)


def _run_clean(repo: Repo, op: str, **args: Any) -> None:
    """Run an operation nobody kills, in this process (no fork: cheaper), acknowledged like the others."""
    execute({"run": op, "root": str(repo.root), "acks": str(repo.acks), "args": args})


def _pick_args(op: str, repo: Repo, rng: random.Random, n: int) -> dict[str, Any] | None:
    if op == "remember":
        return {"text": _fresh(rng, n), "by": "user"}
    if op == "forget":
        ready = sorted(repo.present - repo.inbox)
        return {"text": rng.choice(ready)} if ready else None
    if op == "undo":
        ready = sorted(t for t in repo.commits if t in repo.present and t not in repo.inbox)
        if not ready:
            return None
        text = rng.choice(ready)
        return {"commit": repo.commits[text], "text": text}
    if op == "accept":
        ready = sorted(repo.inbox)
        return {"text": rng.choice(ready)} if ready else None
    return {}


def _settle(repo: Repo) -> None:
    """Files a killed process wrote count as saved a while ago (no settle wait, engine/write/settle.py)."""
    past = time.time() - 5
    for path in repo.root.rglob("*.md"):
        if ".git" not in path.relative_to(repo.root).parts:
            os.utime(path, (past, past))


def _make_repos(tmp_path: Path) -> tuple[Repo, Repo, Path]:
    from helpers.dream_helpers import make_repo

    local = Repo(tmp_path / "local", tmp_path / "local-acks.jsonl")
    make_repo(local.root)
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    synced = Repo(tmp_path / "synced", tmp_path / "synced-acks.jsonl")
    store = MemoryStore.open(synced.root, plain_settings())
    set_remote(store.root, str(remote), confirmed_private=True)
    peer = tmp_path / "peer"
    return local, synced, peer


@pytest.mark.slow
def test_200_sigkills_at_random_moments_lose_nothing_and_block_nothing(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    local, synced, peer_root = _make_repos(tmp_path)
    server = Server(tmp_path / "server.log")
    started = time.perf_counter()
    tally = Tally()
    try:
        _run_clean(synced, "sync")
        assert synced.new_acks()[-1]["action"] == "pushed"
        subprocess.run(["git", "clone", "-q", str(tmp_path / "remote.git"), str(peer_root)], check=True)
        peer = Repo(peer_root, tmp_path / "peer-acks.jsonl")
        set_remote(peer.root, str(tmp_path / "remote.git"), confirmed_private=True)
        n = pairs = 0
        names, weights = list(OPS), list(OPS.values())
        while tally.kills < KILLS:
            n += 1
            assert n < KILLS * 4, f"only {tally.kills} kills landed in {n} tries"
            op = rng.choices(names, weights)[0]
            repo = synced if op == "sync" else local
            if op == "accept" and not local.inbox:
                _run_clean(local, "remember", text=_fresh(rng, n), by="agent", inbox=True)
                _apply(local, local.new_acks()[-1])
            if op == "dream" and not pairs:
                _seed_pair(local, rng)
                pairs = 1
            if op == "sync" and rng.random() < 0.5:  # another machine pushed meanwhile: this sync merges, moves main
                _run_clean(peer, "remember", text=_fresh(rng, n), by="user")
                _run_clean(peer, "sync")
                for ack in peer.new_acks():
                    _apply(peer, ack)
            args = _pick_args(op, repo, rng, n)
            if args is None:
                continue
            span = tally.span.get(op, 0.3)
            delay = rng.uniform(0.0, span)
            pid = server.start(op, repo.root, repo.acks, **args)
            time.sleep(delay)
            os.kill(pid, signal.SIGKILL)
            status = server.reap(pid)
            killed = status == {"signal": signal.SIGKILL}
            assert killed or status == {"exit": 0}, f"{op} {args}: {status}: {server.log.read_text()[-3000:]}"
            for ack in repo.new_acks():
                _apply(repo, ack)
                if ack["op"] == "dream_accept" and ack.get("merge"):
                    pairs = 0
                if ack["op"] == "sync" and "error" not in ack:  # the peer pushed before it started
                    repo.present |= peer.present
                if not killed:
                    took = ack["took"]
                    tally.span[op] = 0.7 * span + 0.3 * took if op in tally.span else took
            if not killed:
                tally.finished += 1
                continue
            tally.kills += 1
            tally.by_op[op] = tally.by_op.get(op, 0) + 1
            what = f"kill {tally.kills} ({op} {args} after {delay * 1000:.0f} ms)"
            _settle(repo)
            # The next command works with no manual step.
            _run_clean(repo, "remember", text=_fresh(rng, n), by="user")
            acks = repo.new_acks()
            assert acks and acks[-1].get("action") == "added", f"after {what}, the next write: {acks[-1:]}"
            if op == "sync":  # a push killed holding the remote's ref lock: the next write cleared it
                remote = tmp_path / "remote.git"  # (a killed pack write's temp .lock under objects/ blocks nothing)
                left = sorted(
                    str(p.relative_to(remote)) for p in [*remote.glob("*.lock"), *remote.rglob("refs/**/*.lock")]
                )
                assert not left, f"after {what}, the next write left the remote's ref lock files {left}"
            for ack in acks:
                _apply(repo, ack)
            _resolve(repo, op, args)
            _check(repo, what)
            _run_clean(repo, "status")
            assert repo.new_acks()[-1].get("state") == "clean", f"after {what}: {repo.acks.read_text()[-500:]}"
        # Both machines end with everything either acknowledged.
        for repo in (synced, peer, synced):
            _run_clean(repo, "sync")
            assert "error" not in repo.new_acks()[-1]
        synced.present |= peer.present
        peer.present |= synced.present
        for repo in (local, synced, peer):
            _check(repo, "the end")
    finally:
        server.close()
    took = time.perf_counter() - started
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    print(  # for the record (-s): what the kills cost
        f"\nCPU: this process {me.ru_utime + me.ru_stime:.1f} s, its children {kids.ru_utime + kids.ru_stime:.1f} s"
    )
    print(
        f"\n{tally.kills} kills ({tally.by_op}), {tally.finished} finished before the kill, {took:.1f} s, "
        f"{server.cpu:.1f} s CPU in the operations"
    )
    assert tally.kills == KILLS
    assert KILLS < 100 or set(tally.by_op) == set(OPS), tally.by_op
