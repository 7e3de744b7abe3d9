"""``memrepo`` run inside another memory repo says which repo it works on (breaker finding B6-9).

The repo is ``--repo``, else ``MEMREPO_REPO``, else the config's ``repo``, else ``~/agent-memory``
(README, Configuration): never the current folder. Run inside another memory repo, ``memrepo recall
laptop`` said "no memory matches" for a line that is there, and ``status`` and ``dream`` worked on
~/agent-memory with no word of it. Now one line on stderr names the repo used and how to use this one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

ROOT = Path(__file__).resolve().parents[2]


def run(cwd: Path, home: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    full = dict(os.environ, HOME=str(home), PYTHONPATH=str(ROOT), MEMREPO_CONFIG=str(home / "none.toml"), **env)
    return subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=full,
        timeout=120,
    )


def test_a_command_inside_another_memory_repo_names_the_repo_it_works_on(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    MemoryStore.open(home / "agent-memory", plain_settings()).close()  # the default repo
    other = MemoryStore.open(tmp_path / "c200", plain_settings())
    other.remember(Candidate(text="My laptop is a ThinkPad X1 running Fedora", by="user"))
    other.close()
    (other.root / "topics").mkdir(exist_ok=True)
    note = (
        f"memrepo: working on ~/agent-memory (the default repo), not the memory repo in this folder, "
        f"{other.root}: pass --repo {other.root} to use it"
    )
    for args in (("recall", "laptop"), ("status",), ("context",)):  # the quick path and click's
        done = run(other.root / "topics", home, *args)
        assert done.stderr.splitlines()[:1] == [note], (args, done.stderr)
        assert done.stderr.count("working on") == 1
    done = run(other.root, home, "--repo", ".", "recall", "laptop")  # the folder's repo, asked for: no note
    assert done.returncode == 0 and "ThinkPad" in done.stdout and "working on" not in done.stderr
    done = run(other.root, home, "recall", "laptop", MEMREPO_REPO=str(other.root))  # the same repo: no note
    assert done.returncode == 0 and "working on" not in done.stderr
    done = run(tmp_path, home, "status")  # not inside a memory repo: no note
    assert "working on" not in done.stderr
