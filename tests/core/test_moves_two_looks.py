"""A move made in two saves is still a move: pasted into a file first, cut from the old one after (loss8).

moves7 recognised entry lines that left one file and appeared in another in the same look. Pasting first
(topics/x.md saved and committed as "Hand edits"), then cutting from me.md in a later save, asked "me.md
lost 2 of its 3 entries": both lines were safe in topics/x.md. A line HEAD holds whole in an unchanged file
is now a move there; a line found nowhere else is still asked about.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def settle(path: Path) -> None:
    os.utime(path, (time.time() - 1, time.time() - 1))


def _store(root: Path) -> MemoryStore:
    store = MemoryStore.open(root, plain_settings())
    (root / "topics").mkdir(exist_ok=True)
    (root / "topics" / "x.md").write_text("# X\n\n- Topic line one [by: user]\n")
    assert store.commit_hand_edits() is not None
    for text in ("Uses fish shell", "Uses tmux", "Kafka cluster lives in eu-west-1"):
        assert store.remember(Candidate(text=text, by="user")).commit
    return store


def test_lines_pasted_first_and_cut_in_a_later_save_are_a_move(repo_path: Path) -> None:
    store = _store(repo_path)
    me, x = repo_path / "me.md", repo_path / "topics" / "x.md"
    text = me.read_text()
    moved = [line for line in text.splitlines() if "fish" in line or "tmux" in line]
    x.write_text(x.read_text() + "".join(line + "\n" for line in moved))  # the paste, saved first
    settle(x)
    assert store.status().questions == [] and store.commit_hand_edits() is not None
    me.write_text("".join(line + "\n" for line in text.splitlines() if line not in moved))  # the cut, later
    settle(me)
    assert store.status().questions == []  # was: "me.md lost 2 of its 3 entries in one save"
    assert store.commit_hand_edits() is not None
    assert git(repo_path, "status", "--porcelain") == ""
    head_x = git(repo_path, "show", "HEAD:topics/x.md")
    assert all(line in head_x for line in moved) and "fish" not in git(repo_path, "show", "HEAD:me.md")


def test_lines_cut_and_found_nowhere_else_are_still_asked_about(repo_path: Path) -> None:
    store = _store(repo_path)
    me = repo_path / "me.md"
    text = me.read_text()
    me.write_text("".join(line + "\n" for line in text.splitlines() if "fish" not in line and "tmux" not in line))
    settle(me)
    (q,) = store.status().questions
    assert "lost 2 of its 3 entries" in q.message
