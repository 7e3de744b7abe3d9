"""A move never hides a loss (engine/write/moves.py, docs/architecture.md §3, B7-25, B7-20).

``mv topics/y.md topics/x.md`` over an existing file moves y.md's entries, and drops every entry x.md had:
the drop is asked about as any other, the move noted. ``mv me.md about-me.md`` renames a file every
session's context block reads by name (as MEMORY.md): its deletion is asked about as before.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
from helpers.repo_helpers import USER, git, plain_settings

from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)


def commit_by_hand(root: Path, message: str) -> None:
    """``git commit -a`` dated two hours ago: past the stale-save guard's hour, which would ask on its own."""
    git(root, "add", "-A")
    when = f"@{int(time.time()) - 7200} +0000"
    old = {"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    done = subprocess.run(["git", *USER, "commit", "-q", "-m", message], cwd=root, env={**os.environ, **old})
    assert done.returncode == 0, done


def _topic(store: MemoryStore, name: str, lines: list[str]) -> Path:
    path = store.root / "topics" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text("# Topic\n\n" + "".join(f"- {line}\n" for line in lines))
    commit_by_hand(store.root, f"topics/{name} by hand")
    return path


X_LINES = ["Kafka cluster lives in eu-west-1", "Uses fish shell", "Uses tmux", "Lives in Lisbon", "Deploys on Friday"]


@pytest.mark.parametrize("y_count", [3, 12])
def test_a_file_moved_over_another_asks_about_the_entries_it_replaced(store: MemoryStore, y_count: int) -> None:
    x = _topic(store, "x.md", X_LINES)
    y = _topic(store, "y.md", [f"Y fact {i} about emus" for i in range(y_count)])
    x_head = git(store.root, "show", "HEAD:topics/x.md")
    subprocess.run(["mv", str(y), str(x)], check=True)
    [q] = store.status().questions
    assert q.path == "topics/x.md" and not q.deleted, q.message
    assert "lost 5 of its 5 entries" in q.message and f"{y_count} entries moved from topics/y.md" in q.message
    # Nothing is committed underneath the question: x.md's five entries stay in HEAD, y.md too.
    assert store.commit_hand_edits() is None
    assert git(store.root, "show", "HEAD:topics/x.md") == x_head
    assert "topics/y.md" in git(store.root, "ls-tree", "-r", "--name-only", "HEAD")
    # "Put back" brings x.md's text back; y.md's deletion is then asked about (its entries went nowhere).
    assert store.answer_hand_edit("topics/x.md", q.seen, commit=False) is None
    assert x.read_text() == x_head
    [q2] = store.status().questions
    assert q2.path == "topics/y.md" and q2.deleted


def test_yes_to_a_file_moved_over_another_commits_the_move_and_the_loss(store: MemoryStore) -> None:
    x = _topic(store, "x.md", X_LINES)
    y = _topic(store, "y.md", [f"Y fact {i} about emus" for i in range(3)])
    subprocess.run(["mv", str(y), str(x)], check=True)
    [q] = store.status().questions
    assert store.answer_hand_edit("topics/x.md", q.seen, commit=True) is not None
    assert "Uses fish shell" not in git(store.root, "show", "HEAD:topics/x.md")
    assert "topics/y.md" not in git(store.root, "ls-tree", "-r", "--name-only", "HEAD")
    assert git(store.root, "status", "--porcelain") == ""


def test_two_files_swapping_their_entries_is_a_move_both_ways(store: MemoryStore) -> None:
    """The entries x.md no longer has went to y.md: nothing was lost, nothing is asked."""
    x = _topic(store, "x.md", X_LINES)
    y = _topic(store, "y.md", [f"Y fact {i} about emus" for i in range(3)])
    x_text, y_text = x.read_text(), y.read_text()
    x.write_text(y_text)
    y.write_text(x_text)
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None
    assert git(store.root, "show", "HEAD:topics/x.md") == y_text
    assert git(store.root, "status", "--porcelain") == ""


@pytest.mark.parametrize("name", ["me.md", "lessons.md", "inbox.md"])
def test_a_file_the_block_reads_by_name_is_never_renamed_without_a_question(store: MemoryStore, name: str) -> None:
    path = store.root / name
    path.write_text(path.read_text() + "".join(f"- Named-file fact {i} about okapis\n" for i in range(6)))
    commit_by_hand(store.root, f"{name} by hand")
    head = git(store.root, "show", f"HEAD:{name}")
    subprocess.run(["mv", name, "about-me.md"], cwd=store.root, check=True)
    [q] = store.status().questions
    assert q.path == name and q.deleted and "was deleted (6 entries)" in q.message, q.message
    assert f"reads {name} by name" in q.message
    assert store.commit_hand_edits() is None
    assert git(store.root, "show", f"HEAD:{name}") == head
    assert store.answer_hand_edit(name, q.seen, commit=False) is None
    assert path.read_text() == head


def test_me_md_appended_to_a_topic_file_and_deleted_still_asks(store: MemoryStore) -> None:
    """Every entry went somewhere, but the file the block reads is gone: asked as a deletion."""
    me = store.root / "me.md"
    me.write_text(me.read_text() + "".join(f"- Appended fact {i} about tapirs\n" for i in range(4)))
    commit_by_hand(store.root, "me.md by hand")
    x = _topic(store, "x.md", X_LINES)
    x.write_text(x.read_text() + "".join(ln + "\n" for ln in me.read_text().splitlines() if "tapirs" in ln))
    me.unlink()
    [q] = store.status().questions
    assert q.path == "me.md" and q.deleted, q.message
    assert store.commit_hand_edits() is None


def test_entries_cut_from_me_md_into_a_topic_file_are_still_a_move(store: MemoryStore) -> None:
    """me.md kept (its moved lines gone): the block still reads it, so the move asks nothing."""
    me = store.root / "me.md"
    me.write_text(me.read_text() + "".join(f"- Cut fact {i} about tapirs\n" for i in range(4)))
    commit_by_hand(store.root, "me.md by hand")
    moved = [ln for ln in me.read_text().splitlines() if "tapirs" in ln]
    me.write_text("".join(ln + "\n" for ln in me.read_text().splitlines() if ln not in moved))
    (store.root / "topics").mkdir()
    (store.root / "topics" / "prefs.md").write_text("# Prefs\n\n" + "".join(ln + "\n" for ln in moved))
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None
    assert git(store.root, "log", "-1", "--format=%s").strip() == "Move 4 entries me.md -> topics/prefs.md"


def test_a_file_moved_over_one_memrepo_wrote_to_lately_puts_all_of_it_back(store: MemoryStore) -> None:
    """The stale-save question (entries memrepo wrote lately dropped) never stands in for the file's own loss.

    me.md holds the user's older lines and two memrepo wrote this hour; ``mv topics/y.md me.md`` drops all of
    them. Asked only "a save drops 2 entries memrepo wrote", "put back" kept the save with those two back and
    committed the loss of the other five as a move (found trying it by hand in the app's repo).
    """
    from memrepo.engine.models import Candidate

    me = store.root / "me.md"
    me.write_text(me.read_text() + "".join(f"- {line} [by: user]\n" for line in X_LINES))
    commit_by_hand(store.root, "me.md by hand")
    for text in ("Prefers dark roast coffee", "Reads on a Kobo e-reader"):
        store.remember(Candidate(text=text, kind="preference"))
    head = git(store.root, "show", "HEAD:me.md")
    y = _topic(store, "y.md", [f"Y fact {i} about emus" for i in range(10)])  # as many as me.md held
    subprocess.run(["mv", str(y), str(me)], check=True)
    [q] = store.status().questions
    assert q.path == "me.md" and "lost 7 of its 7 entries" in q.message, q.message
    assert store.answer_hand_edit("me.md", q.seen, commit=False) is None
    assert me.read_text() == head
