"""QA fixes for sync and compaction safety: a compacting forget/clear with a sync remote
refuses before changing anything, and tokens in remote URLs are refused or masked.
Real bare remote on local disk, real CLI."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers.repo_helpers import git

from memrepo.cli.main import main
from memrepo.engine.errors import SyncError
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod


def run(repo: Path, *args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--repo", str(repo), *args], input=input, catch_exceptions=True)


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    path = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    return path


@pytest.fixture
def synced(store: MemoryStore, remote: Path) -> MemoryStore:
    sync_mod.set_remote(store.root, str(remote), confirmed_private=True)
    for text in ("Secret one to forget", "Second entry stays", "Third entry stays"):
        store.remember(Candidate(text=text, kind="preference", by="user"))
    sync_mod.sync(store)
    return store


def me(store: MemoryStore) -> list[str]:
    return [e.text for e in store.read_file("me.md").entries]


def ref_of(store: MemoryStore, text: str) -> str:
    return next(e.ref for e in store.read_file("me.md").entries if e.text == text)


def test_forget_compact_with_a_remote_refuses_before_forgetting(synced: MemoryStore) -> None:
    head, before = synced.head(), me(synced)
    ref = ref_of(synced, "Secret one to forget")
    for _ in range(2):  # running it again must not forget the next entry
        refused = run(synced.root, "forget", ref, "--compact")
        assert refused.exit_code == 1
        assert "nothing changed" in refused.stderr and "--replace-remote" in refused.stderr
        assert synced.head() == head and me(synced) == before
    with pytest.raises(SyncError, match="nothing changed"):
        synced.forget(ref, compact=True)
    assert synced.head() == head and me(synced) == before


def test_forget_compact_replace_remote_forgets_compacts_and_replaces(synced: MemoryStore, remote: Path) -> None:
    ref = ref_of(synced, "Secret one to forget")
    done = run(synced.root, "forget", ref, "--compact", "--replace-remote")
    assert done.exit_code == 0, done.stderr
    assert "the remote's history was replaced" in done.stdout
    assert me(synced) == ["Second entry stays", "Third entry stays"]
    assert git(remote, "rev-parse", "refs/heads/main").strip() == synced.head()
    assert "Secret one" not in git(remote, "log", "--all", "-p")


@pytest.mark.parametrize(
    "args", [("clear", "global", "--compact"), ("clear", "--global", "--compact"), ("clear", "--compact", "global")]
)
def test_clear_compact_with_a_remote_refuses_before_clearing(synced: MemoryStore, args: tuple[str, ...]) -> None:
    head, before = synced.head(), me(synced)
    refused = run(synced.root, *args)
    assert refused.exit_code == 1 and "nothing changed" in refused.stderr, refused.output
    assert synced.head() == head and me(synced) == before


def test_store_clear_and_purge_with_compact_refuse_up_front(synced: MemoryStore) -> None:
    head = synced.head()
    synced.remember(Candidate(text="Agent note from task t1", kind="fact", by="agent", task="t1"))
    head = synced.head()
    for call in (lambda: synced.clear_global(compact=True), lambda: synced.purge_task("t1", compact=True)):
        with pytest.raises(SyncError, match="nothing changed"):
            call()
        assert synced.head() == head
    done = run(synced.root, "clear", "global", "--compact", "--replace-remote")
    assert done.exit_code == 0, done.stderr
    assert me(synced) == []


def test_forget_compact_replace_remote_says_when_the_remote_was_not_replaced(
    synced: MemoryStore, remote: Path, tmp_path: Path
) -> None:
    remote.rename(tmp_path / "away.git")  # offline
    ref = ref_of(synced, "Secret one to forget")
    done = run(synced.root, "forget", ref, "--compact", "--replace-remote")
    assert done.exit_code == 1 and "not replaced" in done.stderr and "--replace-remote" in done.stderr
    assert me(synced) == ["Second entry stays", "Third entry stays"]  # forgotten and compacted here
