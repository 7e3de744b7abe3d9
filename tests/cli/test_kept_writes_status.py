"""Writes kept while blocked, as a script sees them (docs/architecture.md §3: blocked states lose nothing).

``memrepo status`` never says "clean" with exit 0 while a kept write waits: exit 3 and the command that
applies it (``memrepo commit-hand-edits``); while still blocked it says they apply once the block is
gone, not "by the next write" (that one is refused too). The kept files are owner only, like every
state file. ``commit-hand-edits --put-back`` of a path not in the repo is an error, not "no question".
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import git, merge_conflict, plain_settings

from memrepo.cli.main import main
from memrepo.engine.errors import BlockedError
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

KEPT = "Learned during the merge"


def _keep_one_in_a_merge(root: Path) -> MemoryStore:
    store = MemoryStore.open(root, plain_settings())
    merge_conflict(root)
    with pytest.raises(BlockedError, match="kept"):
        store.remember(Candidate(text=KEPT, kind="lesson"))
    return store


def test_status_while_blocked_says_the_kept_write_applies_once_the_block_is_gone(repo_path: Path) -> None:
    _keep_one_in_a_merge(repo_path)
    done = CliRunner().invoke(main, ["--repo", str(repo_path), "status"])
    assert done.exit_code == 3
    assert "1 write(s) kept while blocked, applied once the block is gone\n" in done.stdout
    assert "next write" not in done.stdout


def test_status_after_the_merge_is_aborted_exits_3_and_names_the_command_that_applies_it(repo_path: Path) -> None:
    _keep_one_in_a_merge(repo_path)
    git(repo_path, "merge", "--abort")
    repo = ["--repo", str(repo_path)]
    said = CliRunner().invoke(main, [*repo, "status"])
    assert said.exit_code == 3, said.stdout
    assert (
        said.stdout
        == "pending: 1 write(s) kept while blocked, not applied yet: `memrepo commit-hand-edits` applies them\n"
    )  # its first word is never "clean" with exit 3 (breaker11 B11-14)
    assert KEPT not in (repo_path / "lessons.md").read_text()  # status is a read: it applied nothing
    applied = CliRunner().invoke(main, [*repo, "commit-hand-edits"])
    assert applied.exit_code == 0, applied.output
    assert applied.stdout.endswith("applied 1 write(s) kept while blocked\n")
    assert KEPT in (repo_path / "lessons.md").read_text()
    after = CliRunner().invoke(main, [*repo, "status"])
    assert (after.exit_code, after.stdout) == (0, "clean\n")


def test_the_kept_write_and_its_folder_are_owner_only(repo_path: Path) -> None:
    old = os.umask(0o022)  # the usual umask, which made them 0644 and 0755
    try:
        store = _keep_one_in_a_merge(repo_path)
    finally:
        os.umask(old)
    folder = store.entries.pending_dir
    files = list(folder.glob("*.json"))
    assert len(files) == 1
    assert oct(stat.S_IMODE(folder.stat().st_mode)) == oct(0o700)
    assert oct(stat.S_IMODE(files[0].stat().st_mode)) == oct(0o600)


def test_a_pending_folder_an_older_memrepo_left_0755_is_tightened(repo_path: Path) -> None:
    store = MemoryStore.open(repo_path, plain_settings())
    folder = store.entries.pending_dir
    folder.mkdir()
    os.chmod(folder, 0o755)
    _keep_one_in_a_merge(repo_path)
    assert oct(stat.S_IMODE(folder.stat().st_mode)) == oct(0o700)


def test_put_back_of_a_path_not_in_the_repo_is_an_error(repo_path: Path) -> None:
    MemoryStore.open(repo_path, plain_settings())
    repo = ["--repo", str(repo_path)]
    for missing in ("nothere.md", "../outside.md", "/etc/passwd"):
        done = CliRunner().invoke(main, [*repo, "commit-hand-edits", "--put-back", missing])
        assert done.exit_code == 1 and done.stdout == "", (missing, done.output)
        assert f"not in the memory repo (no such file in the work tree or in HEAD): {missing}" in done.stderr
    # a file that is there but has no question: nothing to do, as before (a script asked for no change)
    there = CliRunner().invoke(main, [*repo, "commit-hand-edits", "--put-back", "me.md"])
    assert (there.exit_code, there.stdout) == (0, "no question waits for me.md\n")
    # deleted from the work tree but still in HEAD: in the repo
    (repo_path / "lessons.md").unlink()
    gone = CliRunner().invoke(main, [*repo, "commit-hand-edits", "--put-back", "lessons.md"])
    assert gone.exit_code == 0, gone.output


def test_a_session_start_applies_a_write_kept_during_a_merge_once_it_is_over(repo_path: Path, tmp_path: Path) -> None:
    """breaker11 B11-14: the kept write waited, out of every block, until some other write."""
    import time

    from test_claude_code import hook

    home = tmp_path / "home"
    home.mkdir()
    payload = {"session_id": "s1", "cwd": str(tmp_path), "hook_event_name": "SessionStart", "source": "startup"}
    _keep_one_in_a_merge(repo_path).close()
    assert hook(repo_path, "session-start", payload, home).returncode == 0
    time.sleep(1.0)  # mid-merge: nothing is started, the write stays kept
    assert KEPT not in (repo_path / "lessons.md").read_text()
    git(repo_path, "merge", "--abort")
    started = hook(repo_path, "session-start", payload, home)
    assert started.returncode == 0, started.stderr
    deadline = time.monotonic() + 60
    while KEPT not in (repo_path / "lessons.md").read_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert KEPT in (repo_path / "lessons.md").read_text()
    assert CliRunner().invoke(main, ["--repo", str(repo_path), "status"]).exit_code == 0


def test_the_session_start_that_applies_a_kept_write_shows_it_in_its_own_block(
    repo_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """breaker14 B14-13: the first session after the block ended was told the line was kept, and did not get it.

    The start waits 5 s for the apply by default; a loaded CI machine takes longer to start the process that
    applies it, so the test gives it 120 s (``MEMREPO_KEPT_WAIT_S``): what it checks is that the block is
    rendered again after the apply, not how fast the machine is."""
    monkeypatch.setenv("MEMREPO_KEPT_WAIT_S", "120")
    import json

    from test_claude_code import hook

    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "blog"
    project.mkdir()
    store = MemoryStore.open(repo_path, plain_settings())
    merge_conflict(repo_path)
    with pytest.raises(BlockedError, match="kept"):
        store.remember(Candidate(text="The blog comments use Giscus", scope="workspace", workspace=str(project)))
    store.close()
    git(repo_path, "merge", "--abort")
    payload = {"session_id": "s2", "cwd": str(project), "hook_event_name": "SessionStart", "source": "startup"}
    started = hook(repo_path, "session-start", payload, home)
    assert started.returncode == 0, started.stderr
    block = json.loads(started.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "The blog comments use Giscus" in block


def test_a_session_start_while_still_blocked_says_the_kept_write_is_not_in_its_block(
    repo_path: Path, tmp_path: Path
) -> None:
    """breaker14 B14-13: a kept line missing from the block was missing without a word (the agent took it as lost)."""
    import json

    from test_claude_code import hook

    home = tmp_path / "home"
    home.mkdir()
    _keep_one_in_a_merge(repo_path).close()
    payload = {"session_id": "s3", "cwd": str(tmp_path), "hook_event_name": "SessionStart", "source": "startup"}
    started = hook(repo_path, "session-start", payload, home)
    assert started.returncode == 0, started.stderr
    block = json.loads(started.stdout)["hookSpecificOutput"]["additionalContext"]
    assert KEPT not in block
    note, closing = block.rstrip().splitlines()[-2:]
    assert closing == "</memory_repo>"
    assert note.startswith("(1 write(s) kept while the memory repo is blocked are not in this block: ")
    assert "merge" in note and note.endswith("they are written once the block is gone)")


def test_the_kept_note_names_writes_still_being_applied_and_is_absent_when_none_wait(repo_path: Path) -> None:
    """The other case of B14-13's note: the repo takes writes again, the apply outlasted the hook's wait."""
    from memrepo.cli.quickhook import with_kept_note
    from memrepo.engine.read.keptnote import kept_note

    store = _keep_one_in_a_merge(repo_path)
    store.close()
    git(repo_path, "merge", "--abort")
    git_dir = repo_path / ".git"
    block = "<memory_repo>\nL3 a line\n</memory_repo>\n"
    assert with_kept_note(block, git_dir) == (
        "<memory_repo>\nL3 a line\n(1 write(s) kept while the memory repo was blocked are not in this block yet: "
        "they are being written now, and memory_recall finds them once they are)\n</memory_repo>\n"
    )
    applied = CliRunner().invoke(main, ["--repo", str(repo_path), "commit-hand-edits"])
    assert applied.exit_code == 0, applied.output
    assert kept_note(git_dir) is None
    assert with_kept_note(block, git_dir) == block


def test_a_kept_write_a_later_check_refuses_is_named_not_dropped_with_no_word(repo_path: Path) -> None:
    """breaker31 B31-7: a kept write that no longer passes the candidate's checks is set aside as ``.unreadable``
    when the block is gone; ``status`` then said only "clean". It names it now."""
    store = _keep_one_in_a_merge(repo_path)
    git(repo_path, "merge", "--abort")
    (kept,) = store.entries.pending_dir.glob("*.json")
    kept.write_text(kept.read_text().replace('"kind":"lesson"', '"kind":"not one word"'))  # fails a check now
    assert store.apply_pending() == []
    said = CliRunner().invoke(main, ["--repo", str(repo_path), "status"])
    assert said.stdout.startswith("clean\n"), said.stdout
    assert "1 write(s) kept while blocked could not be applied (refused since): .git/memrepo/pending/" in said.stdout
    assert ".unreadable; read, then delete" in said.stdout
