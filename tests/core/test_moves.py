"""Entries moved by hand from one file to another are a move, not a drop (engine/write/moves.py,
docs/architecture.md §3, B5-15).

``mv a.md b.md``, ``git mv``, or cutting memrepo's lines out of me.md and pasting them into a topic file
(Health's context-budget advice) raise no "deleted", "drops N entries" or "secret" question: the move is
committed as one "Move ..." hand edit. A partial move asks only about what truly left.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.editor_tmux import Run, tmux_server, wait_until
from helpers.repo_helpers import commit_by_hand, git, plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

TASK = "mcp-0123456789abcdef"
"""A task id as memrepo's MCP server writes it (16 hex digits: looked like a token to the secret scan)."""


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)


def _topic(store: MemoryStore, name: str, lines: list[str]) -> Path:
    path = store.root / "topics" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text("# Topic\n\n" + "".join(f"- {line}\n" for line in lines))
    index = store.root / "MEMORY.md"
    index.write_text(index.read_text() + f"- [[topics/{name[:-3]}]]\n")
    commit_by_hand(store.root, "a topic by hand")
    return path


def _subjects(root: Path) -> list[str]:
    return git(root, "log", "--format=%s").splitlines()


def _tree(root: Path) -> list[str]:
    return git(root, "ls-tree", "-r", "--name-only", "HEAD").splitlines()


@pytest.mark.parametrize("how", ["mv", "git mv"])
def test_a_renamed_file_is_one_move_commit_without_a_question(store: MemoryStore, how: str) -> None:
    lines = [f"Rename fact {i} about okapis [kind: fact]" for i in range(6)]
    old = _topic(store, "animals.md", lines)
    new = old.with_name("zoo.md")
    cmd = ["mv"] if how == "mv" else ["git", "mv"]
    subprocess.run([*cmd, str(old), str(new)], cwd=store.root, check=True)
    assert store.status().questions == []
    commit = store.commit_hand_edits()
    assert commit is not None
    assert _subjects(store.root)[0] == "Move topics/animals.md -> topics/zoo.md"
    body = git(store.root, "log", "-1", "--format=%b")
    assert "renamed 6 entries topics/animals.md -> topics/zoo.md" in body
    # The index line follows the rename in the same commit (B7-5: the block's index led to a gone file).
    assert "MEMORY.md L" in body and "now links to topics/zoo.md" in body and "still links" not in body
    index = git(store.root, "show", "HEAD:MEMORY.md")
    assert "[[topics/zoo]]" in index and "[[topics/animals]]" not in index
    assert "[[topics/zoo]] (topics/zoo.md)" in store.context(None).text
    tree = _tree(store.root)
    assert "topics/zoo.md" in tree and "topics/animals.md" not in tree
    assert git(store.root, "status", "--porcelain") == ""


def test_a_rename_with_a_line_edited_is_still_a_rename(store: MemoryStore) -> None:
    lines = [f"Slack fact {i} about tapirs" for i in range(10)]
    old = _topic(store, "tapirs.md", lines)
    text = old.read_text().replace("Slack fact 3 about tapirs", "Slack fact 3 about tapirs, edited")
    old.unlink()
    (old.parent / "mammals.md").write_text(text)
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None
    assert _subjects(store.root)[0] == "Move topics/tapirs.md -> topics/mammals.md"
    assert "not in topics/mammals.md: - Slack fact 3 about tapirs" in git(store.root, "log", "-1", "--format=%b")


def test_a_deleted_file_half_moved_still_asks_and_says_what_moved(store: MemoryStore) -> None:
    lines = [f"Half fact {i} about dugongs" for i in range(6)]
    old = _topic(store, "dugongs.md", lines)
    (old.parent / "sea.md").write_text("# Sea\n\n" + "".join(f"- {line}\n" for line in lines[:3]))
    old.unlink()
    [q] = [q for q in store.status().questions if q.path == "topics/dugongs.md"]
    assert q.deleted and "3 entries moved to topics/sea.md" in q.message
    # The move waits with the deletion: the three lines are never in neither file of HEAD, nor in both.
    assert store.commit_hand_edits() is None
    tree = _tree(store.root)
    assert "topics/dugongs.md" in tree and "topics/sea.md" not in tree


def _remember_many(store: MemoryStore, n: int) -> list[str]:
    for i in range(n):
        assert store.remember(Candidate(text=f"Moved preference {i} about axolotls", kind="preference", task=TASK))
    return [ln for ln in (store.root / "me.md").read_text().splitlines() if "axolotls" in ln]


def test_memrepos_lines_moved_to_a_topic_file_are_a_move(store: MemoryStore) -> None:
    moved = _remember_many(store, 6)
    assert all(f"task: {TASK}" in ln for ln in moved)
    me = store.root / "me.md"
    me.write_text("".join(ln + "\n" for ln in me.read_text().splitlines() if ln not in moved))
    (store.root / "topics").mkdir(exist_ok=True)
    (store.root / "topics" / "prefs.md").write_text("# Preferences\n\n" + "".join(ln + "\n" for ln in moved))
    index = store.root / "MEMORY.md"
    index.write_text(index.read_text() + "- [[topics/prefs]]\n")
    status = store.status()
    assert status.questions == [], [q.message for q in status.questions]
    # The next write commits the move first, as its own commit, then writes.
    assert store.remember(Candidate(text="Written after the move about quolls", kind="preference")).commit
    # The move is its own commit; the link added to MEMORY.md in the same look is an ordinary hand edit.
    assert _subjects(store.root)[:3] == [
        "Remember preference: Written after the move about quolls",
        "Hand edits",
        "Move 6 entries me.md -> topics/prefs.md",
    ]
    body = git(store.root, "log", "-1", "--format=%b", "HEAD~2")
    assert "moved 6 entries me.md -> topics/prefs.md" in body
    assert all(ln in git(store.root, "show", "HEAD:topics/prefs.md") for ln in moved)
    assert not any(ln in git(store.root, "show", "HEAD:me.md") for ln in moved)
    assert git(store.root, "status", "--porcelain") == ""


def test_a_partial_move_asks_only_about_what_truly_left(store: MemoryStore) -> None:
    lines = _remember_many(store, 6)
    me = store.root / "me.md"
    me.write_text("".join(ln + "\n" for ln in me.read_text().splitlines() if ln not in lines))
    (store.root / "topics").mkdir(exist_ok=True)
    (store.root / "topics" / "prefs.md").write_text("# Preferences\n\n" + "".join(ln + "\n" for ln in lines[:4]))
    [q] = store.status().questions
    assert q.path == "me.md" and q.dropped == lines[4:], q.message
    assert "drops 2 entries" in q.message and "4 entries moved to topics/prefs.md" in q.message
    # "Put back" puts back the two that truly left, not the four that moved (no duplicates), and commits the move.
    assert store.answer_hand_edit("me.md", q.seen, commit=False) is not None
    me_text = git(store.root, "show", "HEAD:me.md")
    assert all(ln in me_text for ln in lines[4:]) and not any(ln in me_text for ln in lines[:4])
    assert all(ln in git(store.root, "show", "HEAD:topics/prefs.md") for ln in lines[:4])
    assert git(store.root, "status", "--porcelain") == ""
    assert store.status().questions == []


TOKEN = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12"
"""A GitHub token the secret scan finds (as in test_hand_secret.py)."""


def test_a_committed_secret_moved_is_not_asked_again_but_a_new_one_is(store: MemoryStore) -> None:
    lines = [f"Secret-move fact {i} about numbats" for i in range(3)] + [f"The bot token is {TOKEN}"]
    old = _topic(store, "bots.md", lines)  # committed by the user's own `git commit`: theirs to keep
    new = old.with_name("robots.md")
    subprocess.run(["mv", str(old), str(new)], check=True)
    assert store.status().questions == []
    # Typed in the new file beside the moved lines: still asked about, the moved ones not.
    other = "ghp_An0th3rT0k3nV4lu3F0rT3st1ngXyZw98"
    new.write_text(new.read_text() + f"- Another token {other}\n")
    [q] = store.status().questions
    assert q.path == "topics/robots.md" and len(q.secrets) == 1 and q.secrets[0].startswith("L7:"), q.secrets
    assert "4 entries moved from topics/bots.md" in q.message


# -- a real vim in tmux: cut memrepo's lines from me.md, paste them into a new topic file --------------------


@pytest.fixture
def tmux() -> Iterator[Run]:
    yield from tmux_server("moves7", "vim")


@pytest.mark.slow
def test_vim_cutting_lines_into_a_topic_file_is_one_move(store: MemoryStore, tmux: Run) -> None:
    moved = _remember_many(store, 5)
    root = store.root
    (root / "topics").mkdir()
    vimrc = "set nocompatible directory=. nobackup nowritebackup viminfo= hidden"
    started = tmux("new-session", "-d", "-x", "150", "-y", "40", "-c", str(root), f"vim -u NONE -c '{vimrc}' me.md")
    assert started.returncode == 0, started.stderr
    wait_until((root / ".me.md.swp").exists, "vim's swap file")
    # Cut every axolotl line into register a, save me.md: until the paste is saved, a question.
    for keys in ("qaq", ":g/axolotls/d A\r", ":w\r"):
        tmux("send-keys", "-t", "0", keys)
    wait_until(lambda: "axolotls" not in (root / "me.md").read_text(), "vim's save of me.md")
    time.sleep(0.4)
    [q] = store.status().questions
    assert q.path == "me.md" and "lost 5 of its 5 entries" in q.message
    for keys in (":e topics/prefs.md\r", '"aP', ":w\r"):
        tmux("send-keys", "-t", "0", keys)
    prefs = root / "topics" / "prefs.md"
    wait_until(lambda: prefs.exists() and prefs.read_text().count("axolotls") == 5, "vim's save of prefs.md")
    time.sleep(0.4)
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None
    assert _subjects(root)[0] == "Move 5 entries me.md -> topics/prefs.md"
    assert all(ln in git(root, "show", "HEAD:topics/prefs.md") for ln in moved)
    assert not any(ln in git(root, "show", "HEAD:me.md") for ln in moved)
    tmux("send-keys", "-t", "0", ":qa!\r")


@pytest.mark.parametrize("hint", ["topics/prefs.md", "me.md"])
def test_a_look_at_one_file_of_a_move_commits_both(store: MemoryStore, hint: str) -> None:
    """The watcher names the file it saw saved: the other half of the move is found and goes in the same commit."""
    moved = _remember_many(store, 4)
    me = store.root / "me.md"
    me.write_text("".join(ln + "\n" for ln in me.read_text().splitlines() if ln not in moved))
    (store.root / "topics").mkdir()
    (store.root / "topics" / "prefs.md").write_text("# Preferences\n\n" + "".join(ln + "\n" for ln in moved))
    time.sleep(0.4)
    assert store.commit_hand_edits([hint]) is not None
    assert _subjects(store.root)[0] == "Move 4 entries me.md -> topics/prefs.md"
    assert git(store.root, "status", "--porcelain") == ""


def test_a_file_appended_to_another_and_deleted_is_a_move_not_a_rename(store: MemoryStore) -> None:
    old = _topic(store, "birds.md", [f"Bird fact {i} about kakapos" for i in range(3)])
    other = _topic(store, "fauna.md", ["Fauna fact about quokkas"])
    other.write_text(other.read_text() + "".join(ln + "\n" for ln in old.read_text().splitlines() if "kakapos" in ln))
    old.unlink()
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None
    assert _subjects(store.root)[0] == "Move 3 entries topics/birds.md -> topics/fauna.md"
    assert "topics/birds.md" not in _tree(store.root)


def test_an_indented_line_moved_as_it_is_asks_nothing(store: MemoryStore) -> None:
    """The judges compare whole lines: a nested bullet moved with its indent counts as moved, indent and all."""
    old = _topic(store, "keys.md", ["Deploy notes for the bots"])
    old.write_text(old.read_text() + f"  - The bot token is {TOKEN}\n")
    commit_by_hand(store.root, "a nested line")
    new = old.with_name("deploy.md")
    lines = old.read_text().splitlines()
    new.write_text("# Deploy\n\n- Other deploy note\n" + "\n".join(lines[2:]) + "\n")
    old.write_text("# Topic\n\n- Kept line about bilbies\n")
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None
    assert _subjects(store.root)[0] == "Move 2 entries topics/keys.md -> topics/deploy.md"


def test_yes_to_a_partial_move_from_the_shell_commits_the_move_with_it(store: MemoryStore) -> None:
    lines = _remember_many(store, 5)
    root = store.root
    store.close()
    me = root / "me.md"
    me.write_text("".join(ln + "\n" for ln in me.read_text().splitlines() if ln not in lines))
    (root / "topics").mkdir()
    (root / "topics" / "prefs.md").write_text("# Preferences\n\n" + "".join(ln + "\n" for ln in lines[:3]))
    time.sleep(0.4)
    memrepo = [sys.executable, "-m", "memrepo.cli.main", "--repo", str(root)]
    status = subprocess.run([*memrepo, "status"], capture_output=True, text=True)
    assert status.returncode == 3 and "drops 2 entries" in status.stdout + status.stderr, status
    assert "3 entries moved to topics/prefs.md" in status.stdout + status.stderr
    answered = subprocess.run([*memrepo, "commit-hand-edits", "--yes", "me.md"], capture_output=True, text=True)
    assert answered.returncode == 0, answered.stderr
    assert _subjects(root)[0] == "Move 3 entries me.md -> topics/prefs.md"
    assert not any(ln in git(root, "show", "HEAD:me.md") for ln in lines)
    assert git(root, "status", "--porcelain") == ""
