"""An editor's in-place save landing just after a dream's accept is merged, not lost (breaker24 B24-14;
engine/git/remote.py ``_watch_old``, docs/architecture.md §3 and §6).

The accept moves main and rewrites the files the dream changed outside the writer: a save an editor wrote into
the old inode had no name, ``status`` said clean and the person's typed line was gone. The move now watches and
links the old inode like every other write, so the next salvage merges the save (the dream's change kept).
"""

from __future__ import annotations

from pathlib import Path

from helpers.dream_helpers import make_repo
from helpers.inplace_editor import USERNEW, save_around, wait_for
from helpers.repo_helpers import git

from memrepo.engine.dreams.dreamer import Dreamer


def test_a_save_into_the_old_inode_after_a_dream_accept_is_merged(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    store = make_repo(root)
    record = Dreamer(store).run()
    assert record.status == "pending_review" and record.review_commit and record.base
    assert "lessons.md" in git(root, "diff", "--name-only", record.base, record.review_commit).split()
    reviewed = git(root, "show", f"{record.review_commit}:lessons.md")
    lessons = root / "lessons.md"

    def accept() -> None:
        assert Dreamer(store).accept(record.id).status == "accepted"  # renames lessons.md over the editor's inode
        assert lessons.read_text() == reviewed

    save_around(lessons, "Never force-push main", tmp_path, accept)

    def merged() -> bool:
        store.status()  # salvages what was written into linked old inodes
        return USERNEW in git(root, "show", "HEAD:lessons.md")

    wait_for(merged, "the editor's save to be merged and committed")
    head = git(root, "show", "HEAD:lessons.md")
    assert head == reviewed.replace("- Never force-push main", f"- {USERNEW}\n- Never force-push main")
    assert lessons.read_text() == head
