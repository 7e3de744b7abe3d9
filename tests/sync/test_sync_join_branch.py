"""Joining a remote whose memory is on another branch never empties local files (issue 17 item 7).

Found: joining a remote from a repo on ``master`` emptied its local files (the entries survived
only in history); after the fix for issue 15 such a sync refused instead, so the machine could
not join at all. Now the repo's branch keeps its name and follows the remote's only (or
default) branch, and the two histories are merged entry by entry as in any sync. Real git: a
bare remote on disk, a repo made with stock git, the CLI.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import USER, git, plain_settings, porcelain

from memrepo.cli.main import main
from memrepo.engine.errors import SyncError
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod


def stock_git_repo(path: Path, branch: str, entry: str = "Local machine likes tea") -> Path:
    """A memory repo made by hand with stock git on ``branch``, one entry in me.md."""
    subprocess.run(["git", "init", "-q", "-b", branch, str(path)], check=True)
    (path / "MEMORY.md").write_text("# Memory\n\n## Index\n- [[me]]\n", encoding="utf-8")
    (path / "me.md").write_text(f"# About me\n\n- {entry} [by: user]\n", encoding="utf-8")
    git(path, "add", "-A")
    git(path, *USER, "commit", "-q", "-m", "Start")
    return path


def bare(path: Path, branch: str) -> Path:
    subprocess.run(["git", "init", "-q", "--bare", "-b", branch, str(path)], check=True)
    return path


def other_machine(path: Path, remote: Path, branch: str) -> MemoryStore:
    """A machine that already syncs with ``remote`` on ``branch``, with an entry of its own pushed."""
    if branch == "main":
        store = MemoryStore.open(path, plain_settings(), create=True)
    else:
        store = MemoryStore.open(stock_git_repo(path, branch, "Remote machine drinks coffee"), plain_settings())
    sync_mod.set_remote(store.root, str(remote), confirmed_private=True)
    store.remember(Candidate(text="Remote machine lives in Oslo", kind="identity", by="user"))
    assert sync_mod.sync(store).action == "pushed"
    return store


def texts(store: MemoryStore, path: str = "me.md") -> set[str]:
    return {e.text for e in store.read_file(path).entries}


def head_branch(root: Path) -> str:
    return git(root, "symbolic-ref", "--short", "HEAD").strip()


def remote_heads(remote: Path) -> list[str]:
    return git(remote, "for-each-ref", "--format=%(refname)", "refs/heads").split()


@pytest.mark.parametrize(("local_branch", "remote_branch"), [("master", "main"), ("main", "master")])
def test_joining_a_remote_on_another_branch_merges_entry_by_entry(
    tmp_path: Path, local_branch: str, remote_branch: str
) -> None:
    remote = bare(tmp_path / "remote.git", remote_branch)
    other = other_machine(tmp_path / "other", remote, remote_branch)
    if local_branch == "main":
        local = MemoryStore.open(tmp_path / "local", plain_settings(), create=True)
    else:
        local = MemoryStore.open(stock_git_repo(tmp_path / "local", local_branch), plain_settings())
    local.remember(Candidate(text="Local machine prefers short answers", kind="preference", by="user"))
    before = texts(local)
    assert before and (local.root / "me.md").stat().st_size > 0
    sync_mod.set_remote(local.root, str(remote), confirmed_private=True)

    result = sync_mod.sync(local)  # before: SyncError "the remote has only main" (earlier: me.md emptied)

    assert result.action == "merged", result
    assert result.notice and f"joined the remote's branch {remote_branch}" in result.notice
    assert before <= texts(local)  # not one local entry lost from the files
    assert "Remote machine lives in Oslo" in texts(local)
    assert head_branch(local.root) == local_branch  # the local branch keeps its name
    assert git(local.root, "for-each-ref", "--format=%(refname)", "refs/heads").split() == [
        f"refs/heads/{local_branch}"
    ]
    assert remote_heads(remote) == [f"refs/heads/{remote_branch}"]  # nothing pushed beside the others' branch
    assert git(remote, "rev-parse", remote_branch).strip() == git(local.root, "rev-parse", "HEAD").strip()
    assert git(local.root, "config", f"branch.{local_branch}.merge").strip() == f"refs/heads/{remote_branch}"
    assert porcelain(local.root) == ""
    state = sync_mod.sync_state(local.root)
    assert (state.ahead, state.behind, state.problem) == (0, 0, None)

    # the other machine gets the local entries; both sides then agree, and stay joined
    assert sync_mod.sync(other).action == "fast_forwarded"
    assert before <= texts(other)
    local.remember(Candidate(text="Local machine uses vim", kind="preference", by="user"))
    assert sync_mod.sync(local).action == "pushed"
    assert sync_mod.sync(other).action == "fast_forwarded"
    assert "Local machine uses vim" in texts(other)
    assert (other.root / "me.md").read_bytes() == (local.root / "me.md").read_bytes()


def test_joining_an_empty_remote_pushes_the_branch_under_its_own_name(tmp_path: Path) -> None:
    remote = bare(tmp_path / "remote.git", "main")
    local = MemoryStore.open(stock_git_repo(tmp_path / "local", "master"), plain_settings())
    before = (local.root / "me.md").read_bytes()
    sync_mod.set_remote(local.root, str(remote), confirmed_private=True)
    result = sync_mod.sync(local)
    # the remote's HEAD named main, which it lacked: it names the branch pushed now, and the sync says so
    assert result.action == "pushed" and result.notice is not None and "names master now" in result.notice
    assert (local.root / "me.md").read_bytes() == before
    assert remote_heads(remote) == ["refs/heads/master"]
    assert git(remote, "symbolic-ref", "HEAD").strip() == "refs/heads/master"
    assert head_branch(local.root) == "master"


def test_joining_a_remote_with_unrelated_history_on_the_same_branch_keeps_both(tmp_path: Path) -> None:
    remote = bare(tmp_path / "remote.git", "master")
    other_machine(tmp_path / "other", remote, "master")
    local = MemoryStore.open(stock_git_repo(tmp_path / "local", "master"), plain_settings())
    local.remember(Candidate(text="Local machine prefers short answers", kind="preference", by="user"))
    before = texts(local)
    sync_mod.set_remote(local.root, str(remote), confirmed_private=True)
    result = sync_mod.sync(local)
    assert result.action == "merged" and result.notice is None
    assert before | {"Remote machine lives in Oslo"} <= texts(local)
    assert len(git(local.root, "rev-list", "--max-parents=0", "HEAD").split()) == 2  # both roots kept
    assert remote_heads(remote) == ["refs/heads/master"]


def test_cli_sync_joins_and_says_so(tmp_path: Path) -> None:
    remote = bare(tmp_path / "remote.git", "main")
    other_machine(tmp_path / "other", remote, "main")
    local = stock_git_repo(tmp_path / "local", "master")
    runner = CliRunner()
    assert runner.invoke(main, ["--repo", str(local), "remote", "set", str(remote), "--yes-private"]).exit_code == 0
    done = runner.invoke(main, ["--repo", str(local), "sync"])
    assert done.exit_code == 0, done.output
    assert "joined the remote's branch main" in done.output and "keeps its name" in done.output
    text = (local / "me.md").read_text(encoding="utf-8")
    assert "Local machine likes tea" in text and "Remote machine lives in Oslo" in text


def test_compaction_of_a_joined_repo_replaces_the_followed_branch(tmp_path: Path) -> None:
    remote = bare(tmp_path / "remote.git", "main")
    other = other_machine(tmp_path / "other", remote, "main")
    local = MemoryStore.open(stock_git_repo(tmp_path / "local", "trunk"), plain_settings())
    sync_mod.set_remote(local.root, str(remote), confirmed_private=True)
    assert sync_mod.sync(local).action == "merged"
    ref = next(e.ref for e in local.read_file("me.md").entries if e.text == "Local machine likes tea")
    local.forget(ref)
    local.compact(replace_remote=True)
    assert head_branch(local.root) == "trunk"
    assert remote_heads(remote) == ["refs/heads/main"]
    assert git(remote, "rev-parse", "main").strip() == git(local.root, "rev-parse", "HEAD").strip()
    assert sync_mod.sync(other).action == "adopted"
    assert "Remote machine lives in Oslo" in texts(other) and "Local machine likes tea" not in texts(other)


def test_a_remote_with_several_branches_and_no_default_is_refused_with_the_fix(tmp_path: Path) -> None:
    remote = bare(tmp_path / "remote.git", "main")
    other = other_machine(tmp_path / "other", remote, "main")
    git(other.root, "push", "-q", "origin", "main:refs/heads/backup")
    git(remote, "symbolic-ref", "HEAD", "refs/heads/nowhere")
    local = MemoryStore.open(stock_git_repo(tmp_path / "local", "master"), plain_settings())
    before = (local.root / "me.md").read_bytes()
    sync_mod.set_remote(local.root, str(remote), confirmed_private=True)
    with pytest.raises(SyncError) as info:
        sync_mod.sync(local)
    assert "backup, main" in str(info.value) and "--set-upstream-to=origin/backup" in str(info.value)
    assert (local.root / "me.md").read_bytes() == before
    assert remote_heads(remote) == ["refs/heads/backup", "refs/heads/main"]
    # the fix the message names works
    git(local.root, "fetch", "-q", "origin")
    git(local.root, "branch", "--set-upstream-to=origin/main")
    assert sync_mod.sync(local).action == "merged"
    assert "Remote machine lives in Oslo" in texts(local) and "Local machine likes tea" in texts(local)
