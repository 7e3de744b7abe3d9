#!/usr/bin/env python3
"""Benchmark: ``memrepo sync`` against the git command line, through a local bare remote.

Everything runs on private copies of one corpus (a memory repo such as one
made by ``make_corpus.py``); the corpus itself is never written. Two scenarios
, each timed on identical copies of the same repos:

1. **push**: machine A made ``--commits`` local commits the remote lacks.
   memrepo: ``sync()`` (hand-edit check, fetch, nothing to merge, push).
   git: ``git fetch`` + ``git merge`` (a no-op) + ``git push``.
2. **diverged**: the remote holds ``--entries`` commits from machine A and
   machine B made ``--entries`` commits of its own, every one adding an entry
   to the same file (``me.md``). memrepo: ``sync()`` on B (entry-aware merge,
   push). git: ``git pull --no-rebase`` then ``git push``.

Reports the time of each, the ratio (git time / memrepo time: above 1 means
memrepo is faster), and the conflicts each leaves for a person: for git, the
unmerged paths (its push cannot happen until someone resolves them); for
memrepo, files holding conflict markers (always 0) and entries kept in two
versions (0 here: nobody edited the same entry).

Usage:
    python benchmarks/bench_sync.py --corpus PATH [--commits 100] [--entries 200] [--runs 3]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from memrepo.engine.config import Settings

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import GIT_ENV as _GIT_ENV  # noqa: E402

from memrepo.engine.models import Candidate  # noqa: E402
from memrepo.engine.repo.store import MemoryStore  # noqa: E402
from memrepo.engine.sync import sync as sync_mod  # noqa: E402

GIT_ENV = {**_GIT_ENV, "GIT_MERGE_AUTOEDIT": "no"}


def git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run git quietly; fail the benchmark when ``check`` and it fails."""
    done = subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed in {cwd}: {done.stderr.strip()}")
    return done


def add_entries(store: MemoryStore, count: int, tag: str, kind: str = "preference") -> None:
    """Make ``count`` commits, each remembering one entry (global kinds go to me.md)."""
    for n in range(count):
        result = store.remember(
            Candidate(text=f"{tag} remembers detail number {n} about the setup", kind=kind, by="user"),
            hint=[],
        )
        if result.commit is None:
            raise SystemExit(f"write {n} on {tag} made no commit: {result.action} {result.reason}")


def markers(root: Path) -> int:
    """Files in the work tree holding git conflict markers."""
    found = 0
    for path in root.rglob("*"):
        if ".git" in path.parts or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\n<<<<<<< " in data or data.startswith(b"<<<<<<< "):
            found += 1
    return found


def pair(src_repo: Path, src_remote: Path, dest: Path, name: str) -> tuple[Path, Path]:
    """Copy a machine and the bare remote; point the copy's origin at the copied remote."""
    remote = dest / f"{name}-remote.git"
    repo = dest / name
    shutil.copytree(src_remote, remote, symlinks=True)
    shutil.copytree(src_repo, repo, symlinks=True)
    git(repo, "remote", "set-url", "origin", str(remote))
    git(repo, "config", "memrepo.remoteprivate", str(remote))
    git(repo, "status", "--porcelain")  # fresh stat data for both sides alike
    return repo, remote


def time_memrepo(repo: Path) -> tuple[float, dict[str, int]]:
    store = MemoryStore.open(repo, Settings(), create=False)
    started = time.perf_counter()
    result = sync_mod.sync(store)
    elapsed = time.perf_counter() - started
    return elapsed, {"markers": markers(repo), "kept_both": len(result.conflicts), "pushed": 1}


def time_git(repo: Path, pull: bool) -> tuple[float, dict[str, int]]:
    started = time.perf_counter()
    if pull:
        merged = git(repo, "pull", "--no-rebase", "--no-edit", "-q", "origin", "main", check=False)
    else:
        git(repo, "fetch", "-q", "origin")
        merged = git(repo, "merge", "-q", "--no-edit", "origin/main", check=False)
    pushed = 0
    if merged.returncode == 0:
        git(repo, "push", "-q", "origin", "main")
        pushed = 1
    elapsed = time.perf_counter() - started
    unmerged = git(repo, "diff", "--name-only", "--diff-filter=U").stdout.split()
    return elapsed, {"markers": markers(repo), "unmerged": len(unmerged), "pushed": pushed}


def scenario(title: str, repo: Path, remote: Path, work: Path, runs: int, pull: bool) -> None:
    mem_times, git_times = [], []
    mem_info: dict[str, int] = {}
    git_info: dict[str, int] = {}
    for run in range(runs):
        m_repo, _ = pair(repo, remote, work, f"{title}-mem-{run}")
        g_repo, _ = pair(repo, remote, work, f"{title}-git-{run}")
        elapsed, mem_info = time_memrepo(m_repo)
        mem_times.append(elapsed)
        elapsed, git_info = time_git(g_repo, pull)
        git_times.append(elapsed)
    m, g = min(mem_times), min(git_times)
    print(f"\n{title} (best of {runs})")
    print(f"  {'':10} {'time':>9}  conflicts left for a person")
    print(
        f"  {'git CLI':10} {g * 1000:7.0f} ms  unmerged paths {git_info['unmerged']}, files with markers "
        f"{git_info['markers']}, pushed: {'yes' if git_info['pushed'] else 'no (blocked until resolved)'}"
    )
    print(
        f"  {'memrepo':10} {m * 1000:7.0f} ms  files with markers {mem_info['markers']}, entries kept in both "
        f"versions {mem_info['kept_both']}, pushed: yes"
    )
    print(f"  ratio git/memrepo: {g / m:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", required=True, type=Path, help="a memory repo to copy (never written)")
    parser.add_argument("--commits", type=int, default=100, help="local commits to push (scenario 1)")
    parser.add_argument("--entries", type=int, default=200, help="entries each side adds (scenario 2)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per scenario (best is shown)")
    args = parser.parse_args()
    corpus = args.corpus.resolve()
    if not (corpus / ".git").is_dir() or not (corpus / "MEMORY.md").is_file():
        raise SystemExit(f"{corpus} is not a memory repo (no .git or MEMORY.md)")
    with tempfile.TemporaryDirectory(prefix="bench-sync-") as tmp:
        work = Path(tmp)
        remote = work / "remote.git"
        git(work, "clone", "-q", "--bare", str(corpus), str(remote))
        a, b = work / "a", work / "b"
        git(work, "clone", "-q", str(remote), str(a))
        git(work, "clone", "-q", str(remote), str(b))
        for machine in (a, b):
            sync_mod.set_remote(machine, str(remote), confirmed_private=True)
        print(
            f"corpus {corpus}: {len(git(a, 'ls-files').stdout.split())} files, "
            f"{git(a, 'rev-list', '--count', 'HEAD').stdout.strip()} commits"
        )
        print(f"preparing: {args.commits} local commits on A; {args.entries} entries to me.md on A and on B ...")
        store_a = MemoryStore.open(a, Settings(), create=False)
        add_entries(store_a, args.commits, "A-local", kind="lesson")
        scenario(f"1. push {args.commits} local commits", a, remote, work, args.runs, pull=False)
        git(a, "reset", "-q", "--hard", "origin/main")
        add_entries(MemoryStore.open(a, Settings(), create=False), args.entries, "A")
        git(a, "push", "-q", "origin", "main")
        add_entries(MemoryStore.open(b, Settings(), create=False), args.entries, "B")
        scenario(
            f"2. merge two histories adding {args.entries} entries each to me.md", b, remote, work, args.runs, pull=True
        )


if __name__ == "__main__":
    main()
