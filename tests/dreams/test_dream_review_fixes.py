"""QA fixes around dream reviews: rejecting a stale dream, honest undo and diff messages, show after a compaction."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers.dream_helpers import make_repo, make_stale
from helpers.repo_helpers import git, plain_settings

from memrepo.cli.main import main
from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.errors import RefError
from memrepo.engine.repo.store import MemoryStore


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def test_a_stale_dream_can_be_rejected_and_its_branch_goes(repo_path: Path) -> None:
    store, dreamer, dream_id = make_stale(repo_path)
    head = store.head()
    assert git(repo_path, "branch", "--list", "dream/*").strip() == f"dream/{dream_id}"
    assert dreamer.reject(dream_id).status == "rejected"
    assert git(repo_path, "branch", "--list", "dream/*").strip() == ""
    assert dreamer.show(dream_id).status == "rejected" and store.head() == head
    with pytest.raises(RefError, match="no review waiting"):
        dreamer.reject(dream_id)


def test_a_stale_dream_whose_branch_is_gone_says_so(repo_path: Path) -> None:
    _store, dreamer, dream_id = make_stale(repo_path)
    git(repo_path, "branch", "-D", f"dream/{dream_id}")
    with pytest.raises(RefError, match=r"branch dream/\S+ is gone"):
        dreamer.reject(dream_id)
    assert dreamer.show(dream_id).status == "stale"


def test_cli_rejects_a_stale_dream(repo_path: Path) -> None:
    make_stale(repo_path)
    dream_id = Dreamer(MemoryStore.open(repo_path, plain_settings())).list()[0].id
    result = run("--repo", str(repo_path), "dreams", "reject", dream_id)
    assert result.exit_code == 0 and result.stdout.strip() == f"rejected dream {dream_id}", result.stderr
    assert git(repo_path, "branch", "--list", "dream/*").strip() == ""


def test_cli_undo_after_an_accepted_review_says_the_review_stays(repo_path: Path) -> None:
    store = make_repo(repo_path)
    dreamer = Dreamer(store)
    record = dreamer.accept(dreamer.run().id)
    merged = (repo_path / "lessons.md").read_text()
    assert "before pushing code [by: user" in merged
    result = run("--repo", str(repo_path), "dreams", "undo", record.id)
    assert result.exit_code == 0, result.stderr
    done = dreamer.show(record.id)
    auto, undo, review = (done.auto_commit or "")[:7], (done.undo_commit or "")[:7], (done.review_commit or "")[:7]
    assert result.stdout.strip() == (
        f"undid the automatic commit of dream {record.id} ({auto}) in {undo}; "
        f"its accepted review stays: memrepo undo {review} reverts it"
    )
    lessons = (repo_path / "lessons.md").read_text()
    assert lessons.count("Run ruff before committing") == 2  # the automatic dedupe is undone
    assert "before pushing code [by: user" in lessons  # the accepted merge stays, as the message says
    # and the hint works: undoing the review commit brings the two near-duplicates back
    follow = run("--repo", str(repo_path), "undo", review)
    assert follow.exit_code == 0, follow.stderr
    lessons = (repo_path / "lessons.md").read_text()
    assert "- Always run the full test suite before pushing [by: user]" in lessons


def test_cli_undo_with_the_review_waiting_says_it_still_waits(repo_path: Path) -> None:
    store = make_repo(repo_path)
    record = Dreamer(store).run()
    result = run("--repo", str(repo_path), "dreams", "undo", record.id)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip().endswith("; its review still waits for accept or reject")
    assert result.stdout.startswith(f"undid the automatic commit of dream {record.id} ")


def test_cli_diff_of_a_wholly_automatic_dream_says_why_there_is_none(repo_path: Path) -> None:
    twice = "# Lessons\n\n- Run ruff first [by: agent]\n- Run ruff first [by: agent]\n"
    store = make_repo(repo_path, {"lessons.md": twice})
    record = Dreamer(store).run()
    assert record.status == "applied" and not record.branch
    result = run("--repo", str(repo_path), "dreams", "diff", record.id)
    assert result.exit_code == 0 and result.stdout == ""
    assert result.stderr.strip() == (
        f"no review diff: every operation was applied automatically in {(record.auto_commit or '')[:7]}"
    )


def test_cli_diff_of_an_empty_dream_says_it_made_no_changes(repo_path: Path) -> None:
    store = make_repo(repo_path, {"lessons.md": "# Lessons\n\n- Run ruff first [by: agent]\n"})
    record = Dreamer(store).run()
    assert record.status == "empty"
    result = run("--repo", str(repo_path), "dreams", "diff", record.id)
    assert result.exit_code == 0 and result.stderr.strip() == f"no review diff: dream {record.id} made no changes"


def test_cli_show_after_a_compaction_marks_the_branch_and_commits_gone(repo_path: Path) -> None:
    store = make_repo(repo_path)
    record = Dreamer(store).run()
    before = run("--repo", str(repo_path), "dreams", "show", record.id).stdout
    assert f"branch: dream/{record.id}\n" in before and "gone" not in before
    store.compact()
    shown = run("--repo", str(repo_path), "dreams", "show", record.id)
    assert shown.exit_code == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert f"branch: dream/{record.id} (gone: deleted by a compaction)" in lines
    assert f"base: {record.base} (gone from the history by a compaction)" in lines
    assert f"auto commit: {record.auto_commit} (gone from the history by a compaction)" in lines
    diff = run("--repo", str(repo_path), "dreams", "diff", record.id)
    assert diff.exit_code == 1 and "its base commit" in diff.stderr and "gone from the history" in diff.stderr


def test_cli_show_after_accept_says_the_branch_was_deleted(repo_path: Path) -> None:
    store = make_repo(repo_path)
    dreamer = Dreamer(store)
    record = dreamer.accept(dreamer.run().id)
    lines = run("--repo", str(repo_path), "dreams", "show", record.id).stdout.splitlines()
    assert f"branch: dream/{record.id} (deleted: accepted)" in lines
    assert f"base: {record.base}" in lines
