"""An index write memrepo gave up on (git held ``index.lock`` past the wait) is caught up by the next command.

A real ``git commit -a`` holds ``.git/index.lock`` while its editor is open. When it takes the lock right after
memrepo's commit, memrepo's index update waits :data:`~memrepo.engine.files.lock.GIT_LOCK_WAIT_S` and gives up:
``git status`` says "MM me.md" (the index keeps the old blob), and a plain ``git commit`` by hand of any other
file commits the old me.md back, taking memrepo's new line out of HEAD (checked by hand, round 13). The retry
lived in the writing process only, so a CLI write left it until the next write to me.md. The paths are now
noted in ``.git/memrepo/index-behind.json`` and the next memrepo command (here ``memrepo status``) puts the
entries back to HEAD once git lets go (:mod:`memrepo.engine.git.indexlag`).
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import plain_settings, porcelain

import memrepo.engine.git.commit as commit_mod
from memrepo.cli.main import main
from memrepo.engine.files import lock as gitlocks
from memrepo.engine.git import indexlag
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

LINE = "The shop API runs on Postgres 16"


def _wait(cond: object, what: str) -> None:
    deadline = time.monotonic() + 60  # a hang guard on a loaded machine, not a speed claim
    while not cond():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def _git_commit_holding_the_index(root: Path, go: Path) -> subprocess.Popen[bytes]:
    """``git commit -a`` with an editor that waits for ``go``: git holds index.lock until then."""
    env = {
        **os.environ,
        "GIT_EDITOR": f"while [ ! -e '{go}' ]; do sleep 0.05; done #",
        "GIT_AUTHOR_NAME": "Hand",
        "GIT_AUTHOR_EMAIL": "hand@example.com",
        "GIT_COMMITTER_NAME": "Hand",
        "GIT_COMMITTER_EMAIL": "hand@example.com",
    }
    proc = subprocess.Popen(
        ["git", "commit", "-a", "--allow-empty"],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _wait(lambda: (root / ".git" / "index.lock").exists() or proc.poll() is not None, "git to take index.lock")
    assert proc.poll() is None, "git commit ended before its editor ran"
    return proc


def test_an_index_write_given_up_while_git_holds_the_lock_is_caught_up_by_the_next_command(
    repo_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore.open(repo_path, plain_settings())
    store.remember(Candidate(text="I use vim as my editor"))
    go = tmp_path / "go"
    held: list[subprocess.Popen[bytes]] = []
    real = commit_mod.write_index

    def git_takes_the_lock_first(*args: object) -> None:
        if not held:  # right after memrepo's commit, before its index write: the window git status also hits
            held.append(_git_commit_holding_the_index(repo_path, go))
        real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(commit_mod, "write_index", git_takes_the_lock_first)
    monkeypatch.setattr(gitlocks, "GIT_LOCK_WAIT_S", 0.3)  # the give-up is tested, not the length of the wait
    try:
        store.remember(Candidate(text=LINE))
        assert held, "the index write never ran"
        assert porcelain(repo_path) == "MM me.md\n"  # the index kept the old blob: memrepo gave up
        assert indexlag.noted(store.git.git_dir) == ["me.md"]
        store.close()
        monkeypatch.setattr(commit_mod, "write_index", real)

        again = MemoryStore.open(repo_path, plain_settings())  # a command while git still holds the lock
        again.close()
        assert porcelain(repo_path) == "MM me.md\n" and indexlag.noted(again.git.git_dir) == ["me.md"]
    finally:
        go.touch()
        for proc in held:
            proc.wait(60)

    said = CliRunner().invoke(main, ["--repo", str(repo_path), "status"])
    assert said.exit_code == 0 and said.stdout == "clean\n", said.output
    assert porcelain(repo_path) == ""  # the next command put the entry back to HEAD
    assert indexlag.noted(repo_path / ".git") == []
    assert not (repo_path / ".git" / "memrepo" / indexlag.NAME).exists()
    assert LINE in (repo_path / "me.md").read_text()


def test_a_path_staged_by_hand_is_left_as_it_is(repo_path: Path) -> None:
    """An entry someone staged (``git add`` of text never committed) is theirs: never put back to HEAD."""
    store = MemoryStore.open(repo_path, plain_settings())
    store.remember(Candidate(text=LINE))
    me = repo_path / "me.md"
    committed = me.read_text()
    me.write_text(committed + "- Staged by hand for my own commit [by: user]\n")
    subprocess.run(["git", "add", "me.md"], cwd=repo_path, check=True)
    me.write_text(committed)  # the work tree back to HEAD, the staged text only in the index
    indexlag.note(store.git.git_dir, ["me.md"])  # as if a write had given up on it
    store.close()
    MemoryStore.open(repo_path, plain_settings()).close()
    assert porcelain(repo_path) == "MM me.md\n"
    staged = subprocess.run(["git", "diff", "--cached"], cwd=repo_path, capture_output=True, text=True).stdout
    assert "Staged by hand for my own commit" in staged
    assert indexlag.noted(repo_path / ".git") == []  # nothing of memrepo's is behind: the note goes
