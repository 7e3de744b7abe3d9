"""The smaller repository checks (docs/architecture.md §3, §5, §9): git's ownership refusal says
who owns the folder, who you are and the exact fix; the repo's skipped git hooks are noticed once
by the CLI and shown by Health; compaction refuses while alternates keep old objects reachable."""

from __future__ import annotations

import os
import pwd
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine.errors import GitError
from memrepo.engine.models import Candidate
from memrepo.engine.repo.health import check
from memrepo.engine.repo.store import MemoryStore


def _chown_tree(top: Path, uid: int) -> None:
    for folder, _dirs, files in os.walk(top):
        os.chown(folder, uid, uid)
        for name in files:
            os.chown(os.path.join(folder, name), uid, uid)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to hand the folder to another user")
def test_the_ownership_error_names_the_owner_the_user_and_the_exact_fix(repo_path: Path) -> None:
    MemoryStore.open(repo_path, plain_settings())
    _chown_tree(repo_path, 12345)
    with pytest.raises(GitError) as caught:
        MemoryStore.open(repo_path, plain_settings())
    message = str(caught.value)
    try:
        owner = pwd.getpwuid(12345).pw_name
    except KeyError:
        owner = "uid 12345"
    assert f"owned by {owner}" in message
    assert f"not by you ({pwd.getpwuid(os.geteuid()).pw_name})" in message
    assert f"git config --global --add safe.directory {repo_path}" in message


def _add_hook(store: MemoryStore) -> None:
    hook = store.root / ".git" / "hooks" / "pre-commit"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text("#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)


def test_skipped_hooks_are_noticed_once_by_the_next_cli_write_and_always_by_health(store: MemoryStore) -> None:
    assert all(r.name != "git hooks" for r in check(store))  # only .sample hooks: nothing to say
    _add_hook(store)
    runner = CliRunner()
    first = runner.invoke(main, ["--repo", str(store.root), "remember", "likes green tea"])
    assert first.exit_code == 0, first.output
    assert "pre-commit exists and is skipped" in first.stderr
    second = runner.invoke(main, ["--repo", str(store.root), "remember", "likes black tea"])
    assert second.exit_code == 0 and "skipped" not in second.stderr
    assert (store.state_dir / "hooks-notice-shown").is_file()
    rows = {r.name: r for r in check(store)}
    assert "pre-commit exists and is skipped" in rows["git hooks"].reason


def test_compaction_refuses_while_alternates_keep_the_old_objects_and_says_what_to_do(
    repo_path: Path, tmp_path: Path
) -> None:
    origin = MemoryStore.open(repo_path, plain_settings())
    origin.remember(Candidate(text="a secret to forget", kind="preference"))
    clone = tmp_path / "shared"
    subprocess.run(["git", "clone", "-q", "--shared", str(repo_path), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "remote", "remove", "origin"], check=True)  # no sync remote
    store = MemoryStore.open(clone, plain_settings())
    head = store.head()
    with pytest.raises(GitError) as caught:
        store.compact()
    message = str(caught.value)
    assert "alternates" in message and "repack -a -d" in message and "remove" in message
    assert store.head() == head  # nothing was changed, nothing reported as done
    subprocess.run(["git", "-C", str(clone), "repack", "-q", "-a", "-d"], check=True)
    (clone / ".git" / "objects" / "info" / "alternates").unlink()
    assert MemoryStore.open(clone, plain_settings()).compact().commit
