"""``memrepo status`` after a session's write was kept mid-merge and applied once the merge ended (breaker27 B27-7).

A Claude Code session ended while the memory repo was mid-merge: its checkpoint's write was kept (the pen) and
its messages stayed in the checkpoint buffer with the block's whole reason. Once the user finished the merge
and the kept write was applied, status still said "2 messages of session s1 not written yet (BlockedError: ...
a merge is in progress ...", cut mid-word, and exited 3. Now the checkpoint counts a kept new line as done for
the buffer (the pen writes it whole): while blocked, status says the block once and the kept write; after, the
exit code is 0 and nothing names the session's messages.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from click.testing import CliRunner
from helpers.repo_helpers import plain_settings
from test_hook_git_commit_waiting import KEPT, SAID, checkpoint, status, stored, transcript

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def _git(root: Path, *args: str) -> None:
    env_args = ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "core.editor=true"]
    subprocess.run(["git", *env_args, *args], cwd=root, check=True, capture_output=True)


def _mid_merge(root: Path) -> None:
    """A real merge stopped on a conflict in me.md, as `git merge` by hand leaves it."""
    me = root / "me.md"
    _git(root, "checkout", "-q", "-b", "other")
    me.write_text(me.read_text().replace("Lyon", "Paris"))
    _git(root, "commit", "-qam", "other: Paris")
    _git(root, "checkout", "-q", "-")
    me.write_text(me.read_text().replace("Lyon", "Marseille"))
    _git(root, "commit", "-qam", "main: Marseille")
    merged = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "merge", "other"], cwd=root, capture_output=True
    )
    assert merged.returncode != 0 and (root / ".git" / "MERGE_HEAD").exists()


def test_status_after_a_kept_session_write_is_applied(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    assert store.remember(Candidate(text="I live in Lyon", by="user")).commit
    repo = store.root
    store.close()
    _mid_merge(repo)
    project = tmp_path / "billing"
    project.mkdir()
    checkpoint(repo, "s1", transcript(tmp_path / "s.jsonl", "s1", project, SAID, "Noted."), project, "SessionEnd")
    code, said = status(repo)
    assert code == 3 and said.count("a merge is in progress") == 1, said  # the block, said once
    assert "1 write(s) kept while blocked" in said and "not written yet" not in said, said
    _git(repo, "checkout", "--theirs", "me.md")
    _git(repo, "add", "me.md")
    _git(repo, "commit", "-q", "--no-edit")
    done = CliRunner().invoke(main, ["--repo", str(repo), "commit-hand-edits"])  # applies the kept write
    assert done.exit_code == 0, done.output
    assert KEPT in stored(repo)
    code, said = status(repo)
    assert code == 0, said
    assert "not written yet" not in said and "merge" not in said and "session s1" not in said, said
