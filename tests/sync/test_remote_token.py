"""Tokens in HTTPS remote URLs: refused at ``remote set``, masked wherever an existing one is shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers.repo_helpers import git

from memrepo.cli.main import main
from memrepo.engine.errors import SyncError
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod


def run(repo: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--repo", str(repo), *args], catch_exceptions=True)


TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"


def test_remote_set_refuses_a_token_in_the_url(store: MemoryStore) -> None:
    url = f"https://user:{TOKEN}@example.invalid/memory.git"
    with pytest.raises(SyncError, match="token_env"):
        sync_mod.set_remote(store.root, url, confirmed_private=True)
    refused = run(store.root, "remote", "set", url, "--yes-private")
    assert refused.exit_code == 1 and "token_env" in refused.stderr and TOKEN not in refused.output
    assert sync_mod.remote_url(store.root) is None
    # A user name alone is fine (no secret in it).
    sync_mod.set_remote(store.root, "https://user@example.invalid/memory.git", confirmed_private=True)
    assert sync_mod.remote_url(store.root) == "https://user@example.invalid/memory.git"


def test_a_token_already_in_git_config_is_masked_wherever_shown(store: MemoryStore) -> None:
    url = f"https://user:{TOKEN}@127.0.0.1:9/memory.git"  # port 9: nothing listens, fails fast
    git(store.root, "remote", "add", "origin", url)
    git(store.root, "config", "memrepo.remoteprivate", url)
    shown = run(store.root, "remote", "show")
    assert TOKEN not in shown.output and "user:***@127.0.0.1" in shown.output
    synced = run(store.root, "sync")
    assert synced.exit_code == 1 and TOKEN not in synced.output
    assert TOKEN not in json.dumps(sync_mod.sync_state(store.root).model_dump(mode="json"))
    health = run(store.root, "health", "--json")
    assert TOKEN not in health.output
    assert TOKEN not in (store.root / ".git" / "memrepo" / "sync.json").read_text()
