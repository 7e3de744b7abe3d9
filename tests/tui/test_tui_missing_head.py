"""The app never says "clean" while HEAD's branch points at a commit missing from .git/objects
(breaker5 B5-14: after a `git gc --prune=now` beside a write the running app kept showing "clean")."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from helpers.repo_helpers import git
from helpers.tui_helpers import build_repo, settle, wait_for

from memrepo.tui.app import MemrepoApp

SIZE = (80, 24)


async def test_the_header_says_blocked_when_the_branch_points_at_a_missing_commit(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root)
    app = MemrepoApp(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.header.state == "clean"
        # A write's commit the prune deleted: the branch moved to it, its object is gone.
        tree = git(root, "rev-parse", "HEAD^{tree}").strip()
        lost = subprocess.run(
            ["git", "commit-tree", "-p", "HEAD", "-m", "Remember fact: lost", tree],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
            env=dict(
                os.environ,
                GIT_AUTHOR_NAME="a",
                GIT_AUTHOR_EMAIL="a@b",
                GIT_COMMITTER_NAME="a",
                GIT_COMMITTER_EMAIL="a@b",
            ),
        ).stdout.strip()
        (root / ".git" / "objects" / lost[:2] / lost[2:]).unlink()
        ref = root / ".git" / "refs" / "heads" / "main"
        ref.write_text(lost + "\n")  # what the write's ref update did (git update-ref refuses a missing object)
        await wait_for(pilot, lambda: app.header.state == "blocked", what="the header to say blocked")
        await settle(pilot)
        assert app.header.state == "blocked"
