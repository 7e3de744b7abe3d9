"""A write memrepo committed that a git command beside it dropped is named by Health, never "clean"
(breaker24 B24-10; engine/git/lostcommits.py, docs/architecture.md §3).

A kept write applied in the instant a person's ``git rebase`` started was dropped by that rebase's ``--abort``
(the branch reset to where the rebase began): only the reflog held it. Real git here: the abort's effect is a
reset of the branch past memrepo's commit; a rebase or amend that copies memrepo's commits keeps their lines and
is no loss, nor is a line forgotten after such a copy.
"""

from __future__ import annotations

from click.testing import CliRunner
from helpers.repo_helpers import USER, git, merge_conflict

from memrepo.cli.main import main
from memrepo.engine.git.lostcommits import lost_commits
from memrepo.engine.models import Candidate
from memrepo.engine.repo.health import check
from memrepo.engine.repo.healthrow import HealthStatus
from memrepo.engine.repo.store import MemoryStore


def _row(store: MemoryStore):
    (found,) = [r for r in check(store) if r.name == "lost writes"]
    return found


def test_a_memrepo_commit_reset_away_by_git_is_named(store: MemoryStore) -> None:
    store.remember(Candidate(text="Fact before the rebase", by="user"))
    before = store.head()
    lost = store.remember(Candidate(text="Agent fact number A23 here", by="user")).commit
    assert _row(store).status is HealthStatus.OK
    git(store.root, "reset", "-q", "--hard", before)  # what `git rebase --abort` did: main back past A23
    assert "A23" not in (store.root / "me.md").read_text()
    (found,) = lost_commits(store.root / ".git")
    assert found.commit == lost and any("Agent fact number A23 here" in line for line in found.lines)
    row = _row(store)
    assert row.status is HealthStatus.FAIL and lost[:7] in row.reason and f"git cherry-pick {lost[:12]}" in row.reason
    git(store.root, *USER, "cherry-pick", lost)  # the way the row names puts it back
    assert _row(store).status is HealthStatus.OK


def test_rewritten_copies_and_later_forgets_are_no_loss(store: MemoryStore) -> None:
    store.remember(Candidate(text="First fact here", by="user"))
    store.remember(Candidate(text="Second fact here", by="user"))
    git(store.root, *USER, "-c", "core.editor=true", "rebase", "-q", "--force-rebase", "HEAD~2")  # new ids, same lines
    git(store.root, *USER, "commit", "-q", "--amend", "--no-edit")
    assert lost_commits(store.root / ".git") == []
    ref = next(e.ref for e in store.read_file("me.md").entries if "Second fact" in e.text)
    assert ref and store.forget(ref).commit  # the rebased copy held the line; the forget removed it on the branch
    assert lost_commits(store.root / ".git") == []
    assert _row(store).status is HealthStatus.OK


def test_status_is_never_clean_while_a_write_is_lost(store: MemoryStore) -> None:
    store.remember(Candidate(text="Fact before the rebase", by="user"))
    before = store.head()
    lost = store.remember(Candidate(text="Agent fact number A20 here", by="user")).commit
    status = ["--repo", str(store.root), "status"]
    assert CliRunner().invoke(main, status).stdout == "clean\n"
    git(store.root, "reset", "-q", "--hard", before)
    said = CliRunner().invoke(main, status)
    assert said.exit_code == 3 and said.stdout.startswith("lost writes: 1 write memrepo committed"), said.stdout
    assert f"git cherry-pick {lost[:12]}" in said.stdout and "clean" not in said.stdout.split(":")[0]


def test_a_write_committed_while_the_reflog_is_read_is_not_lost(store: MemoryStore, monkeypatch) -> None:
    """breaker29 B29-5: ``status`` beside ``memrepo remember`` read the branch's head, then its reflog; a commit
    landing in between was in the reflog and not under the head it had read, so it was named a lost write (with a
    cherry-pick of a commit already on the branch). The head is read again before anything is named."""
    from memrepo.engine.git import lostcommits

    store.remember(Candidate(text="Fact before the race", by="user"))
    walk = lostcommits._recent_ancestors

    def then_a_write_lands(repo, head, since):
        found = walk(repo, head, since)
        store.remember(Candidate(text="Fact written during the read B29", by="user"))  # the branch moves on
        return found

    monkeypatch.setattr(lostcommits, "_recent_ancestors", then_a_write_lands)
    assert lost_commits(store.root / ".git") == []
    assert "Fact written during the read B29" in (store.root / "me.md").read_text()


def test_a_commit_whose_lines_went_into_a_stash_names_the_stash(store: MemoryStore) -> None:
    """`git stash` resets the branch to the commit it read first: a "Hand edits" commit memrepo made in that
    instant leaves the branch while its lines go into the stash (breaker28 B28-3). The state that leaves, made
    with real git: status and Health name the stash and `git stash pop`, not a rebase and a cherry-pick."""
    store.remember(Candidate(text="Fact before the stash", by="user"))
    before = store.head()
    with (store.root / "me.md").open("a") as out:
        out.write("- The user's own line S1 about the cache\n- The user's own line S2 about the queue\n")
    lost = store.commit_hand_edits()
    assert lost is not None
    git(store.root, "reset", "-q", "--hard", before)  # the stash's reset moved main back past the commit
    git(store.root, "checkout", lost, "--", "me.md")  # ... and the stash had taken the lines
    git(store.root, "stash", "-q")
    (found,) = lost_commits(store.root / ".git")
    assert found.commit == lost and found.stash == "stash@{0}"
    said = CliRunner().invoke(main, ["--repo", str(store.root), "status"])
    assert said.exit_code == 3 and said.stdout.startswith("lost writes: 1 write memrepo committed"), said.stdout
    assert "in no file but in stash@{0}" in said.stdout and "`git stash pop stash@{0}`" in said.stdout
    assert "cherry-pick" not in said.stdout and "rebase" not in said.stdout
    assert "stash@{0}" in _row(store).reason
    git(store.root, "stash", "pop", "-q")  # the way it names: the lines are in the file again, not lost
    assert lost_commits(store.root / ".git") == []
    store.commit_hand_edits()
    assert "S2 about the queue" in git(store.root, "show", "HEAD:me.md")
    assert _row(store).status is HealthStatus.OK


def test_status_names_a_lost_write_beside_a_block(store: MemoryStore) -> None:
    """A lost write is said while writes are blocked too (before: only once the block was gone, B28-3)."""
    store.remember(Candidate(text="Fact before the rebase", by="user"))
    before = store.head()
    lost = store.remember(Candidate(text="Agent fact number A21 here", by="user")).commit
    git(store.root, "reset", "-q", "--hard", before)
    merge_conflict(store.root)  # a block: a merge stopped on a conflict in me.md
    said = CliRunner().invoke(main, ["--repo", str(store.root), "status"])
    assert said.exit_code == 3 and said.stdout.startswith("blocked: "), said.stdout
    assert "lost writes: 1 write memrepo committed" in said.stdout and lost[:12] in said.stdout
