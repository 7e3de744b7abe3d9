"""A bare remote made by ``git init --bare`` whose HEAD names ``master`` (git's default in many installs):
after ``memrepo sync`` a real ``git clone`` of it checks the memory out (docs/architecture.md §5).

memrepo pushes ``main``; the remote's HEAD still named the ``master`` it never got, so ``git clone``
warned "remote HEAD refers to nonexistent ref, unable to checkout" and gave an empty folder. The first
push into a local bare remote whose HEAD names no branch it has points HEAD at the branch pushed, and
says so; a remote whose HEAD names a branch it has is never changed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from helpers.repo_helpers import git

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def _memrepo(*args: str) -> subprocess.CompletedProcess[str]:
    script = shutil.which("memrepo", path=str(Path(sys.executable).parent))
    assert script is not None
    env = dict(os.environ, MEMREPO_CONFIG=os.devnull + ".none")
    return subprocess.run([script, *args], capture_output=True, text=True, env=env, timeout=120)


def _bare(path: Path, branch: str) -> Path:
    subprocess.run(["git", "init", "-q", "--bare", "-b", branch, str(path)], check=True)
    return path


def test_a_clone_of_a_master_headed_bare_remote_checks_the_memory_out(store: MemoryStore, tmp_path: Path) -> None:
    store.remember(Candidate(text="Cloned memory keeps this line", kind="preference", by="user"))
    remote = _bare(tmp_path / "usb" / "memory.git", "master")
    assert _memrepo("--repo", str(store.root), "remote", "set", str(remote), "--yes-private").returncode == 0

    done = _memrepo("--repo", str(store.root), "sync")

    assert done.returncode == 0, done.stderr
    assert "pushed" in done.stdout and "HEAD" in done.stdout and "names main now" in done.stdout
    assert git(remote, "symbolic-ref", "HEAD").strip() == "refs/heads/main"
    clone = subprocess.run(
        ["git", "clone", str(remote), str(tmp_path / "laptop")], capture_output=True, text=True, check=True
    )
    assert "nonexistent ref" not in clone.stderr
    assert "Cloned memory keeps this line" in (tmp_path / "laptop" / "me.md").read_text(encoding="utf-8")
    again = _memrepo("--repo", str(store.root), "sync")
    assert again.returncode == 0 and "HEAD" not in again.stdout, "said once, when it was done"


def test_a_remote_head_naming_a_branch_it_has_is_left_alone(store: MemoryStore, tmp_path: Path) -> None:
    remote = _bare(tmp_path / "memory.git", "main")
    other = tmp_path / "other"
    subprocess.run(["git", "clone", "-q", str(remote), str(other)], check=True, capture_output=True)
    (other / "README").write_text("another project's branch\n", encoding="utf-8")
    git(other, "add", "README")
    git(other, "-c", "user.name=o", "-c", "user.email=o@x", "commit", "-qm", "other")
    git(other, "push", "-q", "origin", "HEAD:refs/heads/trunk")
    git(remote, "symbolic-ref", "HEAD", "refs/heads/trunk")
    assert _memrepo("--repo", str(store.root), "remote", "set", str(remote), "--yes-private").returncode == 0

    _memrepo("--repo", str(store.root), "sync")  # joins trunk (the remote's only branch), merged entry by entry

    assert git(remote, "symbolic-ref", "HEAD").strip() == "refs/heads/trunk"
