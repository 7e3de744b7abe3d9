"""Real git projects for the workspace tests: a repo with one commit and an ``origin`` remote."""

from __future__ import annotations

import subprocess
from pathlib import Path

ORIGIN = "git@github.com:jlee/shop.git"
FACT = "The shop DB runs Postgres 15 on db-shop-1"


def git(*args: str, cwd: Path | None = None) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "protocol.file.allow=always", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def make_project(path: Path, origin: str | None = ORIGIN) -> Path:
    """A git repo with one commit and, unless None, an ``origin`` remote."""
    path.mkdir(parents=True)
    git("init", "-q", "-b", "main", str(path))
    (path / "README").write_text("shop\n")
    git("add", "README", cwd=path)
    git("commit", "-q", "-m", "first", cwd=path)
    if origin:
        git("remote", "add", "origin", origin, cwd=path)
    return path
