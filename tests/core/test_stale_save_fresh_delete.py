"""Deleting a line from a fresh copy is the user's edit, however recent the line (engine/write/stalesave.py, §3).

Found by breaker8 (B8-5): in a fresh vim, `dd` on a line written five minutes earlier and `:w` was asked as
"a save drops 1 entry memrepo wrote after its copy was read"; with an agent writing while vim was open,
the user's deletions of two older lines were counted with the agent's two new lines, and "put back" brought
the deleted lines back. The last-hour rule applied even when the save's base was found: now a line the
base already held is the user's to delete; only lines added after the base are memrepo's loss, and the
question names the entries it counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.editor_tmux import Run, tmux_server, wait_until
from helpers.repo_helpers import git, plain_settings
from test_stale_save_base import settle, stale_save

from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings())


def remember(store: MemoryStore, *texts: str, by: str = "user") -> None:
    for text in texts:
        assert store.remember(Candidate(text=text, by=by)).commit


def without(text: str, *needles: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not any(n in line for n in needles))


def test_deleting_a_recent_line_from_a_current_copy_asks_nothing(store: MemoryStore) -> None:
    me = store.root / "me.md"
    remember(store, "The Lantern server runs Caddy", "The Lantern database is Postgres 16")  # minutes ago
    stale_save(me, without(me.read_text(), "Caddy"))  # a fresh copy: it holds the newest line
    status = store.status()
    assert status.questions == [] and status.state is RepoState.HAND_EDITED
    assert store.commit_hand_edits() is not None
    head = git(store.root, "show", "HEAD:me.md")
    assert "Caddy" not in head and "Postgres 16" in head


def test_an_agent_writing_meanwhile_counts_only_its_lines_and_put_back_keeps_the_deletions(
    store: MemoryStore,
) -> None:
    me = store.root / "me.md"
    remember(store, "I live in Lyon", "My editor is Emacs", "I moved to Porto", "My editor is now Neovim")
    copy = me.read_text()  # vim reads the file
    remember(store, "The user is allergic to peanuts", "The user's partner Sam is vegetarian", by="agent")
    stale_save(me, without(copy, "Lyon", "Emacs") + "- My partner is called Sam [by: user]\n")
    (q,) = store.status().questions
    assert [("peanuts" in x, "vegetarian" in x) for x in q.dropped] == [(True, False), (False, True)]
    assert "drops 2 entries memrepo wrote after its copy was read" in q.message
    assert '"The user is allergic to peanuts", "The user\'s partner Sam is vegetarian"' in q.message
    assert "Lyon" not in q.message and "Emacs" not in q.message
    store.answer_hand_edit("me.md", q.seen, commit=False)  # put back
    head = git(store.root, "show", "HEAD:me.md")
    assert "peanuts" in head and "vegetarian" in head and "partner is called Sam" in head
    assert "Lyon" not in head and "Emacs" not in head  # the user's deletions stand


def test_deleting_the_newest_line_is_still_asked_and_named(store: MemoryStore) -> None:
    """The save equals the file before memrepo's last write: a copy that old would drop it just the same, so the
    user is asked, and the question says which entry."""
    me = store.root / "me.md"
    remember(store, "I keep a paper diary", "I water the plants on Sundays")
    stale_save(me, without(me.read_text(), "plants"))
    (q,) = store.status().questions
    assert len(q.dropped) == 1 and '"I water the plants on Sundays"' in q.message


# -- a real vim in tmux ---------------------------------------------------------------------------


@pytest.fixture
def tmux() -> Iterator[Run]:
    yield from tmux_server("stash8", "vim")


@pytest.mark.slow
def test_vim_dd_of_a_line_written_minutes_ago_is_committed(store: MemoryStore, tmux: Run) -> None:
    root, me = store.root, store.root / "me.md"
    remember(store, "The Lantern server runs Caddy", "The Lantern database is Postgres 16")
    vimrc = "set nocompatible directory=. nobackup nowritebackup viminfo= noautoread"
    started = tmux("new-session", "-d", "-x", "120", "-y", "30", "-c", str(root), f"vim -u NONE -c '{vimrc}' me.md")
    assert started.returncode == 0, started.stderr
    wait_until((root / ".me.md.swp").exists, "vim's swap file")
    tmux("send-keys", "-t", "0", "/Caddy", "Enter", "dd", ":w", "Enter")
    # the save is whole: vim with nowritebackup truncates the file first, and an empty file is no finished save
    wait_until(lambda: "Caddy" not in (text := me.read_text()) and "Postgres 16" in text, "vim's save")
    settle(me)
    status = store.status()
    assert status.questions == [], status.questions[0].message
    assert store.commit_hand_edits() is not None
    assert "Caddy" not in git(root, "show", "HEAD:me.md")
    tmux("send-keys", "-t", "0", ":q!", "Enter")


def test_a_stale_copy_that_lost_more_lines_than_it_held_is_asked_as_stale_and_put_back_merges(
    store: MemoryStore,
) -> None:
    """breaker17 B17-6: with more agent lines written while vim had a young me.md open than the file held, the
    save was asked as "lost 11 of its 15 entries", and put back threw the user's own new line away."""
    me = store.root / "me.md"
    remember(store, "I use vim", "I live in Berlin", "I prefer dark mode")
    copy = me.read_text()  # vim reads the file
    remember(store, *(f"The user likes agent fact number {i} about herons" for i in range(12)), by="agent")
    stale_save(me, copy + "- My hand note about kestrels [by: user]\n")
    (q,) = store.status().questions
    assert "memrepo wrote after its copy was read" in q.message and len(q.dropped) == 12, q.message
    store.answer_hand_edit("me.md", q.seen, commit=False)  # put back
    head = git(store.root, "show", "HEAD:me.md")
    assert "hand note about kestrels" in head and head.count("about herons") == 12, head
    assert "I use vim" in head and "dark mode" in head
