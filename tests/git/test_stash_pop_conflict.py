"""A `git stash pop` that stops on a conflict is a conflict in progress, like a merge (engine/git/mergestate.py, §3).

Found by breaker8 (B8-6): hand-edit me.md, `git pull` refuses over it, `git stash; git pull; git stash pop`
stops on a conflict in me.md (unmerged index entries, markers in the file, no MERGE_HEAD). `memrepo status`
said "clean", exit 0; a stale-save question was asked; `commit-hand-edits --yes` committed the markers into
HEAD, and from then on neither side was in any block or recall while status and Health said all was fine.
Every state here is made with real git processes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import USER, git, plain_settings
from helpers.stash_conflict import CELLO, CHESS, MARKERS, head_me, stash_pop_conflict

from memrepo.cli.main import main
from memrepo.engine.errors import BlockedError
from memrepo.engine.models import RepoState
from memrepo.engine.repo.health import HealthStatus, check
from memrepo.engine.repo.store import MemoryStore


def cli(root: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--repo", str(root), *args])
    return result.exit_code, result.output


def test_status_says_a_conflict_is_in_progress_with_the_way_out(tmp_path: Path) -> None:
    root = stash_pop_conflict(tmp_path)
    code, out = cli(root, "status")
    assert code == 3, out
    assert out.startswith("blocked: a conflict is in progress: git left me.md unmerged")
    assert "then `git add me.md`" in out and "`git checkout --theirs me.md`" in out
    store = MemoryStore.open(root, plain_settings(), create=False)
    status = store.status()
    assert status.state is RepoState.BLOCKED and status.questions == []  # no stale-save question beside it
    store.close()


def test_nothing_commits_the_markers_and_writes_wait_in_pending(tmp_path: Path) -> None:
    root = stash_pop_conflict(tmp_path)
    before = git(root, "rev-parse", "HEAD")
    code, out = cli(root, "remember", "My favourite tea is genmaicha")
    assert code != 0 and "a conflict is in progress" in out and "--put-back" not in out
    for answer in ("--yes", "--put-back"):
        code, out = cli(root, "commit-hand-edits", answer, "me.md")
        assert code != 0, out
        assert "a conflict is in progress: git left me.md unmerged" in out and "no question waits" not in out
    assert git(root, "rev-parse", "HEAD") == before
    assert not any(m in head_me(root) for m in MARKERS)
    store = MemoryStore.open(root, plain_settings(), create=False)
    assert len(store.pending()) == 1
    with pytest.raises(BlockedError):
        store.commit_hand_edits(["me.md"], confirm=True)
    store.close()
    assert git(root, "rev-parse", "HEAD") == before


def test_resolved_and_added_both_lines_are_committed_and_the_kept_write_applied(tmp_path: Path) -> None:
    root = stash_pop_conflict(tmp_path)
    assert cli(root, "remember", "My favourite tea is genmaicha")[0] != 0  # kept while blocked
    me = root / "me.md"
    me.write_text("".join(line for line in me.read_text().splitlines(keepends=True) if not line.startswith(MARKERS)))
    git(root, "add", "me.md")
    code, out = cli(root, "commit-hand-edits")
    assert code == 0 and "applied 1 write(s) kept while blocked" in out, out
    text = head_me(root)
    assert CELLO in text and CHESS in text and "genmaicha" in text
    assert not any(m in text for m in MARKERS)
    assert cli(root, "status") == (0, "clean\n")
    for query in ("cello", "chess"):
        code, out = cli(root, "recall", query)
        assert code == 0 and query in out, out


def test_one_side_taken_with_checkout_theirs_is_committed(tmp_path: Path) -> None:
    root = stash_pop_conflict(tmp_path)
    git(root, "checkout", "--theirs", "me.md")  # the stash's side: the user's hand edit
    git(root, "add", "me.md")
    code, out = cli(root, "commit-hand-edits")
    # That side lacks the line just pulled: asked, never dropped silently (its new line, with the same metadata,
    # no longer stands for a line the side never held: breaker21 B21-6).
    assert code == 0 and 'dropped "I play chess on Sundays"' in out, out
    code, out = cli(root, "commit-hand-edits", "--yes", "me.md")
    assert code == 0, out
    assert CELLO in head_me(root) and not any(m in head_me(root) for m in MARKERS)


def test_markers_added_unresolved_still_block_naming_the_lines(tmp_path: Path) -> None:
    root = stash_pop_conflict(tmp_path)
    git(root, "add", "me.md")  # marked resolved with the markers still in
    assert "UU" not in git(root, "status", "--porcelain")
    code, out = cli(root, "status")
    assert code == 3, out
    assert out.startswith("blocked: a conflict is in progress: me.md holds git's conflict markers at L")
    code, out = cli(root, "commit-hand-edits", "--yes")
    assert code != 0 and "conflict markers" in out, out
    assert not any(m in head_me(root) for m in MARKERS)


def test_health_fails_on_markers_already_committed(tmp_path: Path) -> None:
    """A repo already in the state this fix prevents (markers committed by an earlier build, or by hand)."""
    root = stash_pop_conflict(tmp_path)
    git(root, "add", "me.md")
    git(root, *USER, "commit", "-qm", "markers committed by hand")
    store = MemoryStore.open(root, plain_settings(), create=False)
    rows = {r.name: r for r in check(store)}
    store.close()
    marked = rows["conflict markers"]
    assert marked.status is HealthStatus.FAIL
    numbers = [i for i, line in enumerate((root / "me.md").read_text().splitlines(), 1) if line.startswith(MARKERS)]
    assert f"me.md#L{numbers[0]}-L{numbers[-1]}" in marked.reason
    assert rows["work tree"].status is HealthStatus.OK  # committed: nothing in progress, the row above finds it
