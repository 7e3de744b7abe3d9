"""``memrepo dream`` and ``memrepo dreams``: run, list, show, diff, accept, reject, undo."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result
from helpers.dream_helpers import make_repo
from helpers.repo_helpers import git

from memrepo.cli.main import main


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result.stdout


def test_dream_then_list_show_diff_accept(repo_path: Path) -> None:
    make_repo(repo_path)
    repo = ["--repo", str(repo_path)]
    out = ok(*repo, "dream", "--provider", "rules")
    assert "pending review" in out and "1 applied, 1 for review, 0 rejected" in out
    dream_id = out.split()[0]
    assert f"review branch dream/{dream_id}" in out
    listed = ok(*repo, "dreams")
    assert listed.startswith(dream_id) and "pending review" in listed
    shown = ok(*repo, "dreams", "show", dream_id)
    assert "auto     delete" in shown and "review   merge" in shown and "near-duplicate" in shown
    diff = ok(*repo, "dreams", "diff", dream_id)
    assert diff.startswith("diff --git a/lessons.md b/lessons.md")
    assert "accepted dream" in ok(*repo, "dreams", "accept", dream_id)
    assert git(repo_path, "log", "-1", "--format=%s").startswith(f"Accept dream {dream_id}")
    again = run(*repo, "dreams", "accept", dream_id)
    assert again.exit_code == 1 and "no review waiting (it is accepted)" in again.stderr
    record = json.loads(ok(*repo, "dreams", "show", dream_id, "--json"))
    assert record["status"] == "accepted" and record["merge_commit"]


def test_reject_and_undo(repo_path: Path) -> None:
    make_repo(repo_path)
    repo = ["--repo", str(repo_path)]
    dream_id = ok(*repo, "dream").split()[0]
    assert "rejected dream" in ok(*repo, "dreams", "reject", dream_id)
    assert "undid dream" in ok(*repo, "dreams", "undo", dream_id)
    assert (repo_path / "lessons.md").read_text().count("Run ruff before committing") == 2
    record = json.loads(ok(*repo, "dreams", "--json").splitlines()[0])
    assert record["status"] == "undone" and record["undo_commit"]


def test_if_due_is_quiet_when_not_due_and_errors_are_one_line(repo_path: Path) -> None:
    make_repo(repo_path)
    repo = ["--repo", str(repo_path)]
    ok(*repo, "dream", "--if-due")
    out = ok(*repo, "dream", "--if-due")
    assert out.startswith("no dream: the last dream was")
    missing = run(*repo, "dreams", "show", "nope")
    assert missing.exit_code == 1 and missing.stderr.strip() == "memrepo: no dream 'nope' (see memrepo dreams)"
    bad = run(*repo, "dream", "--provider", "magic")
    assert bad.exit_code == 2
