"""memrepo's scratch files never show in ``git status`` nor land in a user's ``git add -A``
(docs/architecture.md §3): ``.memrepo-tmp-*`` is listed in ``.git/info/exclude`` when a repo is
made and when one made by stock git is first opened."""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers.repo_helpers import plain_settings

from memrepo.engine.format.scratch import TEMP_PREFIX
from memrepo.engine.repo.store import MemoryStore


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True)
    return done.stdout


def left_scratch(repo: Path) -> list[Path]:
    """Temp files as a writer killed between writing and renaming leaves them, at the top and in a folder."""
    made = [repo / f"{TEMP_PREFIX}abc123", repo / "workspaces" / f"{TEMP_PREFIX}x9y8z7"]
    for path in made:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("- half a write [by: user]\n")
    return made


def test_a_new_repo_never_stages_memrepo_scratch_files(tmp_path: Path) -> None:
    repo = MemoryStore.open(tmp_path / "memory", plain_settings()).root
    left_scratch(repo)
    assert git(repo, "status", "--porcelain") == ""
    git(repo, "add", "-A")
    assert git(repo, "diff", "--cached", "--name-only") == ""


def test_a_repo_made_by_git_is_covered_once_memrepo_opens_it(tmp_path: Path) -> None:
    repo = tmp_path / "adopted"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    exclude = repo / ".git" / "info" / "exclude"
    exclude.parent.mkdir(parents=True, exist_ok=True)
    exclude.write_text("# the user's own line\n*.log")  # no newline at the end
    (repo / "MEMORY.md").write_text("# Memory\n")
    git(repo, "add", "MEMORY.md")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "start")
    MemoryStore.open(repo, plain_settings())
    MemoryStore.open(repo, plain_settings())  # a second open adds nothing more
    text = exclude.read_text()
    assert text.startswith("# the user's own line\n*.log\n")
    assert text.count(TEMP_PREFIX) == 1
    (repo / "debug.log").write_text("kept out by the user's own rule\n")
    left_scratch(repo)
    git(repo, "add", "-A")
    assert git(repo, "diff", "--cached", "--name-only") == ""
