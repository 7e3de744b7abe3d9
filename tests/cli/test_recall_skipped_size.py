"""``memrepo recall`` says once when a file was too large to search (breaker3 F15).

Before: a word found only in a 50 MB topics/huge.md gave "no memory matches" with no word of the file recall
never read (files over 1 MB are not indexed). Now one line on stderr names it, in plain and --json output,
on the quick path (a new process, the recall index) and click's (several words), with and without hits.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.read.recallentries import MAX_INDEXED_FILE
from memrepo.engine.repo.store import MemoryStore

NOTE = "memrepo: not searched, over recall's 1 MB limit: topics/huge.md (1.1 MB); split it into smaller files"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text="Uses pnpm for installs", by="user"))
    huge = store.root / "topics" / "huge.md"
    huge.parent.mkdir()
    lines = ["# Huge\n", "\n"] + [f"- rocket fuel note {i:06d} with some padding text\n" for i in range(23_000)]
    huge.write_text("".join(lines), encoding="utf-8")
    assert MAX_INDEXED_FILE < huge.stat().st_size < 1.15 * (1 << 20)
    subprocess.run(["git", "-C", str(store.root), "add", "topics/huge.md"], check=True)
    subprocess.run(
        ["git", "-C", str(store.root), "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "huge"],
        check=True,
    )
    return store.root


def quick(root: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """``memrepo --repo ROOT ARGS`` through the console script's quick path, as a new process."""
    probe = "import sys; sys.argv = ['memrepo', *sys.argv[1:]]; from memrepo.cli import quick; quick.run()"
    env = dict(os.environ, MEMREPO_CONFIG=str(tmp_path / "none.toml"))
    return subprocess.run(
        [sys.executable, "-c", probe, "--repo", str(root), *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_a_recall_that_finds_nothing_names_the_file_it_did_not_read(repo: Path, tmp_path: Path) -> None:
    done = quick(repo, tmp_path, "recall", "rocket")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [NOTE, "memrepo: no memory matches 'rocket'"]
    with contextlib.closing(sqlite3.connect(repo / ".git" / "memrepo" / "recall.sqlite")) as db:
        assert db.execute("SELECT v FROM info WHERE k='built'").fetchone() == ("1",)  # the index said it, not a walk
    clicked = CliRunner().invoke(main, ["--repo", str(repo), "recall", "rocket", "fuel"])  # several words: click
    assert clicked.exit_code == 1
    assert clicked.stderr.splitlines() == [NOTE, "memrepo: no memory matches 'rocket fuel'"]


def test_the_note_comes_once_with_hits_and_in_json(repo: Path, tmp_path: Path) -> None:
    done = quick(repo, tmp_path, "recall", "pnpm", "--json")
    assert done.returncode == 0
    assert done.stderr.splitlines() == [NOTE]
    assert json.loads(done.stdout)["text"] == "Uses pnpm for installs"  # stdout stays one JSON object per hit
    clicked = CliRunner().invoke(main, ["--repo", str(repo), "recall", "pnpm", "installs"])
    assert clicked.exit_code == 0 and clicked.stderr.splitlines() == [NOTE]


def test_no_note_without_a_large_file(repo: Path, tmp_path: Path) -> None:
    (repo / "topics" / "huge.md").write_text("# Huge\n\n- rocket fuel is kerosene\n", encoding="utf-8")
    done = quick(repo, tmp_path, "recall", "rocket")
    assert done.returncode == 0 and done.stderr == "" and "kerosene" in done.stdout
