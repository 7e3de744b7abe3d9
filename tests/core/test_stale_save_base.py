"""The stale-save guard goes by the version the editor's copy was read from, not by the clock
(engine/write/stalesave.py, docs/architecture.md §3; breaker5 B5-17).

An editor buffer opened in the morning and saved in the afternoon drops the entries memrepo wrote in
between: held as a question however old they are. An entry the user removes by hand from a current copy
is theirs to remove: committed as "Hand edits", and the commit body names the lines memrepo wrote.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.editor_tmux import Run, tmux_server, wait_until
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore

HOURS_AGO = 5 * 3600
"""How old the entries memrepo wrote are made (seconds): far past the old one-hour window."""


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings())


def backdate_history(root: Path, seconds: int) -> None:
    """Rewrite every commit's author and committer dates ``seconds`` into the past (messages, trailers and
    trees kept), as if memrepo had written them that long ago."""
    when = int(time.time()) - seconds
    env = dict(os.environ, FILTER_BRANCH_SQUELCH_WARNING="1")
    script = f'export GIT_AUTHOR_DATE="@{when} +0000"; export GIT_COMMITTER_DATE="@{when} +0000"'
    subprocess.run(
        ["git", "filter-branch", "-f", "--env-filter", script, "HEAD"],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
    )
    subprocess.run(["git", "update-ref", "-d", "refs/original/refs/heads/main"], cwd=root, check=False)


def settle(path: Path) -> None:
    """Make ``path`` look saved a second ago (older than the settle quiet time)."""
    os.utime(path, (time.time() - 1, time.time() - 1))


def stale_save(path: Path, text: str) -> None:
    """Save ``text`` as an editor does: a temp file beside it, renamed over it."""
    tmp = path.with_name(f".{path.name}.editor-tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
    settle(path)


def test_a_copy_read_hours_before_memrepo_wrote_is_held_not_committed(store: MemoryStore) -> None:
    me = store.root / "me.md"
    read = me.read_text()  # the editor opens me.md in the morning
    assert store.remember(Candidate(text="I review pull requests before lunch", by="user")).commit
    assert store.remember(Candidate(text="I water the plants on Sundays", by="user")).commit
    backdate_history(store.root, HOURS_AGO)
    head = store.head()
    stale_save(me, read + "- Typed in the editor [by: user]\n")  # ... and saves it in the afternoon
    assert store.commit_hand_edits() is None
    assert store.head() == head
    status = store.status()
    assert status.state is RepoState.HAND_EDITED
    (q,) = status.questions
    assert [("pull requests" in x, "plants" in x) for x in q.dropped] == [(True, False), (False, True)]
    assert "drops 2 entries memrepo wrote after its copy was read" in q.message
    store.answer_hand_edit("me.md", q.seen, commit=False)  # put back
    text = git(store.root, "show", "HEAD:me.md")
    assert "pull requests" in text and "plants" in text and "Typed in the editor" in text


def test_removing_an_old_agent_entry_by_hand_is_committed_and_named(store: MemoryStore) -> None:
    me = store.root / "me.md"
    for text in ("I keep a paper diary", "I review pull requests before lunch", "I water the plants on Sundays"):
        assert store.remember(Candidate(text=text, by="user")).commit
    backdate_history(store.root, HOURS_AGO)
    current = me.read_text()  # a copy read now: it holds every entry
    line = next(x for x in current.splitlines() if "pull requests" in x)
    stale_save(me, current.replace(line + "\n", ""))
    assert store.status().questions == []  # the user's own removal: no question
    commit = store.commit_hand_edits()
    assert commit is not None
    body = git(store.root, "show", "-s", "--format=%B", commit)
    assert body.startswith("Hand edits\n")
    assert f"Removed entries memrepo wrote:\n  me.md: {line}\n" in body
    assert "paper diary" not in body and "plants" not in body


def test_removing_the_newest_entry_from_an_older_copy_is_asked_about(store: MemoryStore) -> None:
    """The save equals the file before memrepo's last write: the editor's copy may well be that old, so the
    user is asked (an ambiguity the guard resolves towards keeping the entry)."""
    me = store.root / "me.md"
    assert store.remember(Candidate(text="I keep a paper diary", by="user")).commit
    before = me.read_text()
    assert store.remember(Candidate(text="I water the plants on Sundays", by="user")).commit
    backdate_history(store.root, HOURS_AGO)
    stale_save(me, before)
    (q,) = store.status().questions
    assert len(q.dropped) == 1 and "plants" in q.dropped[0]


def test_a_hand_edit_adding_a_line_names_nothing(store: MemoryStore) -> None:
    me = store.root / "me.md"
    stale_save(me, me.read_text() + "- Typed in the editor [by: user]\n")
    commit = store.commit_hand_edits()
    assert commit is not None
    assert "Removed entries" not in git(store.root, "show", "-s", "--format=%B", commit)


# -- a real vim in tmux ---------------------------------------------------------------------------


@pytest.fixture
def tmux() -> Iterator[Run]:
    yield from tmux_server("stale7", "vim")


@pytest.mark.slow
def test_vim_buffer_older_than_the_entry_by_hours_is_held(store: MemoryStore, tmux: Run) -> None:
    root = store.root
    vimrc = "set nocompatible directory=. nobackup nowritebackup backupcopy=no viminfo= noautoread"
    started = tmux("new-session", "-d", "-x", "120", "-y", "30", "-c", str(root), f"vim -u NONE -c '{vimrc}' me.md")
    assert started.returncode == 0, started.stderr
    wait_until((root / ".me.md.swp").exists, "vim's swap file")
    tmux("send-keys", "-t", "0", "Go- Typed in vim [by: user]", "Escape")
    assert store.remember(Candidate(text="I review pull requests before lunch", by="user")).commit
    backdate_history(root, HOURS_AGO)  # the entry was written hours before vim saves
    tmux("send-keys", "-t", "0", ":w!", "Enter")
    me = root / "me.md"
    wait_until(
        lambda: "Typed in vim" in me.read_text() or "(y/n)" in tmux("capture-pane", "-p", "-t", "0").stdout, "vim"
    )
    if "Typed in vim" not in me.read_text():
        tmux("send-keys", "-t", "0", "y")
        wait_until(lambda: "Typed in vim" in me.read_text(), "vim's save")
    assert "pull requests" not in me.read_text()  # the stale buffer dropped it
    settle(me)
    head = store.head()
    assert store.commit_hand_edits() is None and store.head() == head
    (q,) = store.status().questions
    assert len(q.dropped) == 1 and "pull requests" in q.dropped[0]
    tmux("send-keys", "-t", "0", ":q!", "Enter")
