"""The README's two ways for a second machine to join a remote, against a bare remote whose
HEAD names ``master`` (a plain ``git init --bare``): ``git clone -b main URL``, and
``memrepo init`` + ``remote set`` + ``sync``. Real git, real CLI."""

from __future__ import annotations

import subprocess
from pathlib import Path

from click.testing import CliRunner, Result
from helpers.repo_helpers import git, plain_settings

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod


def run(repo: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--repo", str(repo), *args], catch_exceptions=True)


def first_machine(tmp_path: Path) -> tuple[MemoryStore, Path]:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    git(remote, "symbolic-ref", "HEAD", "refs/heads/master")  # whatever init.defaultBranch says
    a = MemoryStore.open(tmp_path / "a", plain_settings())
    sync_mod.set_remote(a.root, str(remote), confirmed_private=True)
    a.remember(Candidate(text="I drink green tea", kind="preference", by="user"))
    assert sync_mod.sync(a).action == "pushed"
    return a, remote


def test_git_clone_dash_b_main_joins_a_remote_whose_head_names_master(tmp_path: Path) -> None:
    _a, remote = first_machine(tmp_path)
    plain = subprocess.run(["git", "clone", "-q", str(remote), str(tmp_path / "plain")], capture_output=True, text=True)
    # memrepo's first push pointed the remote's HEAD (master, which it lacked) at main: a plain clone works too
    assert "remote HEAD refers to nonexistent ref" not in plain.stderr
    assert "I drink green tea" in (tmp_path / "plain" / "me.md").read_text()
    b = tmp_path / "b"
    subprocess.run(["git", "clone", "-q", "-b", "main", str(remote), str(b)], check=True)
    assert run(b, "remote", "set", str(remote), "--yes-private").exit_code == 0
    done = run(b, "sync")
    assert done.exit_code == 0, done.output
    assert "I drink green tea" in (b / "me.md").read_text()


def test_memrepo_init_remote_set_and_sync_join(tmp_path: Path) -> None:
    a, remote = first_machine(tmp_path)
    b = tmp_path / "b"
    assert run(b, "init").exit_code == 0
    assert run(b, "remote", "set", str(remote), "--yes-private").exit_code == 0
    done = run(b, "sync")
    assert done.exit_code == 0, done.output
    assert "I drink green tea" in (b / "me.md").read_text()
    assert git(remote, "rev-parse", "refs/heads/main").strip() == git(b, "rev-parse", "HEAD").strip()
    assert sync_mod.sync(a).action in ("up_to_date", "fast_forwarded")
    assert (a.root / "me.md").read_bytes() == (b / "me.md").read_bytes()
