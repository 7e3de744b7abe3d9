"""Undo (docs/architecture.md §8): any memrepo commit reverts in a new commit; a conflicting revert changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import porcelain

from memrepo.cli.main import main
from memrepo.engine.errors import GitError
from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore


def test_undo_reverts_one_commit_and_keeps_later_ones(store: MemoryStore) -> None:
    first = store.remember(Candidate(text="Likes green tea", kind="preference"))
    store.remember(Candidate(text="Works in Berlin now", kind="preference"))
    result = store.undo(first.commit or "")
    assert result.action is Action.UNDONE
    text = (store.root / "me.md").read_text()
    assert "Likes green tea" not in text and "Works in Berlin now" in text
    last = store.log(1)[0]
    assert last.summary == "Undo: Remember preference: Likes green tea"
    assert last.origin == "cli" and last.trailers["Reverts"] == first.commit
    assert porcelain(store.root) == ""


def test_undoing_a_new_workspace_removes_its_file_and_index_link(store: MemoryStore) -> None:
    made = store.remember(Candidate(text="Deploys on Fridays", scope="workspace", workspace="billing"))
    store.undo((made.commit or "")[:7])
    assert not (store.root / "workspaces" / "billing.md").exists()
    assert "[[workspaces/billing]]" not in (store.root / "MEMORY.md").read_text()
    assert porcelain(store.root) == ""


def test_a_conflicting_undo_changes_nothing(store: MemoryStore) -> None:
    first = store.remember(Candidate(text="Deploy with make deploy", subject="deploy", kind="rule"))
    store.remember(Candidate(text="Deploy with the blue-green script", subject="deploy", kind="rule"))
    head, before = store.head(), (store.root / "lessons.md").read_bytes()
    with pytest.raises(GitError, match="conflict"):
        store.undo(first.commit or "")
    assert store.head() == head and (store.root / "lessons.md").read_bytes() == before
    assert porcelain(store.root) == ""


def test_undo_refuses_the_first_commit_and_unknown_ids(store: MemoryStore) -> None:
    root_commit = store.log(10)[-1].id
    with pytest.raises(GitError, match="first commit"):
        store.undo(root_commit)
    with pytest.raises(GitError, match="no commit"):
        store.undo("deadbeef")


def test_undo_of_an_undo_brings_the_entry_back(store: MemoryStore) -> None:
    first = store.remember(Candidate(text="Prefers short answers", kind="preference"))
    undone = store.undo(first.commit or "")
    store.undo(undone.commit or "")
    assert "Prefers short answers" in (store.root / "me.md").read_text()


def test_cli_undo(tmp_path: Path) -> None:
    repo = tmp_path / "mem"
    runner = CliRunner()
    runner.invoke(main, ["--repo", str(repo), "remember", "Uses ruff for linting", "--kind", "rule"])
    commit = runner.invoke(main, ["--repo", str(repo), "log", "-n", "1"]).output.split()[0]
    out = runner.invoke(main, ["--repo", str(repo), "undo", commit])
    assert out.exit_code == 0 and out.output.startswith(f"undid {commit}"), out.output
    assert "Uses ruff" not in (repo / "lessons.md").read_text()
    bad = runner.invoke(main, ["--repo", str(repo), "undo", "nope"])
    assert bad.exit_code == 1 and "no commit" in bad.output


def test_diff_shows_what_a_commit_changed(store: MemoryStore) -> None:
    made = store.remember(Candidate(text="Likes green tea", kind="preference"))
    patch = store.diff(made.commit or "")
    assert "diff --git a/me.md b/me.md" in patch and "+- Likes green tea [by: agent" in patch
    first = store.diff(store.log(10)[-1].id)
    assert "+# Memory" in first and "MEMORY.md" in first
    with pytest.raises(GitError, match="no commit"):
        store.diff("nope")


def test_undoing_a_commit_twice_is_refused_and_adds_no_duplicate(store: MemoryStore) -> None:
    store.remember(Candidate(text="json one is my favourite format", kind="preference"))
    forgot = store.forget("repo:me.md#L5", expect="json one is my favourite format")
    first = store.undo(forgot.commit or "")
    after_first = (store.root / "me.md").read_bytes()
    assert after_first.count(b"json one is my favourite format") == 1
    head = store.head()
    with pytest.raises(GitError, match=rf"already undone by {(first.commit or '')[:7]}"):
        store.undo(forgot.commit or "")
    assert store.head() == head and (store.root / "me.md").read_bytes() == after_first


def test_a_commit_can_be_undone_again_after_its_undo_was_undone(store: MemoryStore) -> None:
    made = store.remember(Candidate(text="Prefers short answers", kind="preference"))
    undone = store.undo(made.commit or "")
    store.undo(undone.commit or "")  # redo: the entry is back
    with pytest.raises(GitError, match="already undone"):
        store.undo(undone.commit or "")
    again = store.undo(made.commit or "")
    assert again.action is Action.UNDONE
    assert "Prefers short answers" not in (store.root / "me.md").read_text()


def test_undo_puts_back_no_entry_that_stands_again(store: MemoryStore) -> None:
    store.remember(Candidate(text="Likes green tea", kind="preference"))
    store.remember(Candidate(text="Works in Berlin", kind="preference"))
    forgot = store.forget("repo:me.md#L5", expect="Likes green tea")
    store.remember(Candidate(text="likes green tea.", kind="preference"))  # the same entry, said again
    head, before = store.head(), (store.root / "me.md").read_bytes()
    with pytest.raises(GitError, match="changes nothing"):
        store.undo(forgot.commit or "")
    assert store.head() == head and (store.root / "me.md").read_bytes() == before


def test_undo_still_moves_an_entry_back_within_a_file(store: MemoryStore) -> None:
    path = store.root / "me.md"
    path.write_text(path.read_text() + "- alpha\n- beta\n- gamma\n")
    store.commit_hand_edits()
    path.write_text(path.read_text().replace("- alpha\n- beta\n- gamma\n", "- beta\n- gamma\n- alpha\n"))
    moved = store.commit_hand_edits()
    store.undo(moved or "")
    assert path.read_text().endswith("- alpha\n- beta\n- gamma\n")


def test_cli_undo_twice_says_already_undone(tmp_path: Path) -> None:
    repo = tmp_path / "mem"
    runner = CliRunner()
    runner.invoke(main, ["--repo", str(repo), "remember", "json one is my favourite format"])
    runner.invoke(main, ["--repo", str(repo), "forget", "repo:me.md#L5", "--expect", "json one is my favourite format"])
    commit = runner.invoke(main, ["--repo", str(repo), "log", "-n", "1"]).output.split()[0]
    first = runner.invoke(main, ["--repo", str(repo), "undo", commit])
    assert first.exit_code == 0, first.output
    undo_id = first.output.split("(")[-1].split(")")[0]
    again = runner.invoke(main, ["--repo", str(repo), "undo", commit])
    assert again.exit_code == 1
    assert again.output.strip().splitlines() == [
        f"memrepo: {commit} (Forget: json one is my favourite format) is already undone by {undo_id}"
    ]
    assert (repo / "me.md").read_text().count("json one is my favourite format") == 1


def test_an_undo_that_would_grow_a_file_past_its_limit_is_refused_and_changes_nothing(store: MemoryStore) -> None:
    from memrepo.engine.errors import LimitError
    from memrepo.engine.format.limits import FILE_MAX_BYTES

    written = store.remember(Candidate(text="An entry to forget and bring back", kind="preference"))
    forgot = store.forget(written.ref or "")
    me = store.root / "me.md"
    me.write_text(me.read_text() + "Notes: " + "x" * (FILE_MAX_BYTES - len(me.read_bytes()) - 20) + "\n")
    store.commit_hand_edits()
    before, head = me.read_bytes(), store.head()
    with pytest.raises(LimitError, match="file limit"):
        store.undo(forgot.commit or "")
    assert me.read_bytes() == before and store.head() == head


def _objects(root: Path) -> dict[str, bytes]:
    folder = root / ".git" / "objects"
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.glob("??/*")}


@pytest.mark.parametrize("left", ["the commit only", "every old object"])
def test_undo_of_a_commit_compaction_took_away_is_refused_cleanly(store: MemoryStore, left: str) -> None:
    """Found by the kill test: a compaction killed half-way deletes only part of the old objects; undo
    of an old commit whose tree is gone raised a raw libgit2 error, and one whose objects all stayed
    would have undone a commit no longer in the history."""
    commit = store.remember(Candidate(text="I keep my notes in plain markdown files", by="user")).commit
    assert commit
    before = _objects(store.root)
    store.compact()
    folder = store.root / ".git" / "objects"
    for rel, data in before.items():
        if left == "every old object" or rel.replace("/", "") == commit:
            (folder / rel).parent.mkdir(exist_ok=True)
            (folder / rel).write_bytes(data)
    head = store.head()
    with pytest.raises(GitError, match="not in the history"):
        store.undo(commit)
    assert store.head() == head and "plain markdown" in (store.root / "me.md").read_text()


def test_the_start_of_a_diff_is_the_full_diff_when_small_and_whole_files_when_cut(store: MemoryStore) -> None:
    made = store.remember(Candidate(text="Likes green tea", kind="preference"))
    assert store.diff_start(made.commit or "", 5000) == (store.diff(made.commit or ""), 0)
    for i in range(40):  # one commit touching many files, as an import or compaction makes
        (store.root / "topics").mkdir(exist_ok=True)
        (store.root / "topics" / f"t{i:02d}.md").write_text(
            f"# T{i}\n\n" + "".join(f"- fact {i}.{k}\n" for k in range(9))
        )
    store.commit_hand_edits()
    head = store.head() or ""
    full = store.diff(head)
    start, left_out = store.diff_start(head, 30)
    assert full.startswith(start) and len(start) < len(full)
    assert start.count("diff --git") + left_out == full.count("diff --git") == 40
    assert left_out > 0 and start.count("\n") >= 30  # whole files until the lines were reached
    with pytest.raises(GitError, match="no commit"):
        store.diff_start("nope", 10)
