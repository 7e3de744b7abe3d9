"""The git command line as tests use it to check what memrepo did (never used by the engine)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from memrepo.engine.config import Settings

USER = ("-c", "user.name=Test User", "-c", "user.email=test@example.invalid")
"""An identity for commits a test makes by hand (the isolated home has none)."""


def git(root: Path, *args: str) -> str:
    """Run git in ``root``; fail the test when it fails; return stdout."""
    result = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


def porcelain(root: Path) -> str:
    """``git status --porcelain`` with every untracked file: empty when the work tree is clean."""
    return git(root, "status", "--porcelain", "--untracked-files=all")


def commit_by_hand(root: Path, message: str = "by hand") -> None:
    """Commit everything with the git command line (setting up a scenario cheaply)."""
    git(root, "add", "-A")
    git(root, *USER, "commit", "-q", "-m", message)


def merge_conflict(root: Path, name: str = "me.md", heading: str = "# About me") -> None:
    """Stop a real ``git merge`` on a conflict in ``name`` (MERGE_HEAD is left there): a blocked work tree."""
    git(root, "checkout", "-q", "-b", "side")
    (root / name).write_text(f"{heading}\n\n- side version\n")
    commit_by_hand(root, "side")
    git(root, "checkout", "-q", "main")
    (root / name).write_text(f"{heading}\n\n- main version\n")
    commit_by_hand(root, "main")
    subprocess.run(["git", *USER, "merge", "-q", "side"], cwd=root, capture_output=True)
    assert (root / ".git" / "MERGE_HEAD").exists()


def plain_settings() -> Settings:
    """The built-in defaults, except hand edits are committed only before writes (no quiet-period timer).

    What a front end passes to ``MemoryStore.open`` / ``MemoryRepo.open`` (docs/architecture.md §11);
    a fresh object each call, so a test may change it.
    """
    return Settings.model_validate({"writes": {"commit_hand_edits_after": 0}})


def memory_files(root: Path) -> list[tuple[Path, bytes]]:
    """Every memory file in ``root``'s work tree with its bytes, read as a user would see it now.

    A background checkpoint may be writing while a test polls: its atomic write's ``.memrepo-tmp-*``
    file is not a memory file (docs/architecture.md §3, "Scratch files stay out of git"), and a file renamed away between
    the listing and the read is skipped (the next poll reads its successor).
    """
    found = []
    for path in sorted(root.rglob("*.md")):
        if ".git" in path.parts or path.name.startswith(".memrepo-tmp-"):
            continue
        try:
            found.append((path, path.read_bytes()))
        except FileNotFoundError:
            continue
    return found
