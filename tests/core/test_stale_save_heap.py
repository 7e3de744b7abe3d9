"""The stale-save look back gives its memory back (engine/write/stalesave.py, engine/files/heap.py,
docs/architecture.md §8): a long-running process that walked 200 versions of a large file does not stay as
large as the walk made it.

Each run is a fresh subprocess (its heap is its own): it makes a repo whose file memrepo rewrote 200
times in the last hour, then reads its RSS before and after one look back (what an editor's stale save
of that file triggers). Both runs find the same entries; the trimmed one stays within 5% of its size before
the look. Compared as a ratio, never as bytes or seconds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memrepo.engine.files.heap import trim_heap

MAKE = r"""
import sys, time
from pathlib import Path

import pygit2

root = Path(sys.argv[1])
repo = pygit2.init_repository(str(root))
sig = pygit2.Signature("t", "t@example.invalid", int(time.time()) - 1800, 0)
lines = [f"- Billing entry {i} about invoices, ledgers and their release train [by: agent]" for i in range(400)]
parents = []
for c in range(220):  # memrepo's writes of the last hour, each adding an entry
    lines.append(f"- Written {c}: the invoice run moved to day {c % 28 + 1} [by: agent]")
    blob = repo.create_blob(("# Billing\n\n" + "\n".join(lines) + "\n").encode())
    ws = repo.TreeBuilder()
    ws.insert("billing.md", blob, pygit2.GIT_FILEMODE_BLOB)
    top = repo.TreeBuilder()
    top.insert("workspaces", ws.write(), pygit2.GIT_FILEMODE_TREE)
    parents = [repo.create_commit("HEAD", sig, sig, f"Remember {c}\n\nOrigin: remember", top.write(), parents)]
"""
"""A repo whose workspace file memrepo rewrote 220 times in the last hour."""

WALK = r"""
import json, sys
from pathlib import Path

from memrepo.engine.git.store import GitStore
from memrepo.engine.write import stalesave

root, trim = Path(sys.argv[1]), sys.argv[2] == "trim"
rel = "workspaces/billing.md"
if not trim:
    stalesave.trim_heap = lambda: False
store = GitStore(root)
committed = store._repo.revparse_single("HEAD:" + rel).data
first = store._repo.revparse_single("HEAD~199:" + rel).data
now = first  # an editor's copy read before the last 199 writes: the look walks 200 versions
stalesave._entry_lines(committed, rel)  # the parser loaded: what is measured is the walk


def rss():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))


before = rss()
dropped = stalesave.dropped_entries(store, rel, committed, now)
after = rss()
print(json.dumps({"before": before, "after": after, "dropped": dropped}))
"""


def _run(repo: Path, mode: str) -> dict:
    out = subprocess.run([sys.executable, "-c", WALK, str(repo), mode], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not Path("/proc/self/status").exists() or not trim_heap(), reason="needs glibc and /proc")
def test_the_look_back_leaves_the_process_little_larger_than_before(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    subprocess.run([sys.executable, "-c", MAKE, str(repo)], check=True)
    kept = _run(repo, "keep")
    trimmed = _run(repo, "trim")
    assert kept["dropped"] == trimmed["dropped"] and len(kept["dropped"]) == 199  # the walk found the entries
    # The look reads each version's bytes and splits them into lines (no parse per version, since the base
    # look) and the trim gives the pages back; a parse per version left the untrimmed process more than 10%
    # larger than before the look.
    grown_trimmed = trimmed["after"] - trimmed["before"]
    assert grown_trimmed < 0.05 * trimmed["before"], trimmed
