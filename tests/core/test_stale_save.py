"""An editor's stale save (its copy read before memrepo wrote an entry, saved by writing a temp file and
renaming it over the file) never drops that entry silently (engine/write/stalesave.py,
docs/architecture.md §3): the save is held as a question in status, Health and the app; "put back"
keeps the save with the entry back in it, "commit" commits the save as it is."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.editor_tmux import Run, tmux_server, wait_until
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.errors import HandEditQuestion
from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.health import HealthStatus, check
from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings())


def stale_save(path: Path, text: str) -> None:
    """Save ``text`` as an editor does: a temp file beside it, renamed over it."""
    tmp = path.with_name(f".{path.name}.editor-tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def read_then_write_then_save(store: MemoryStore) -> tuple[Path, str]:
    """The editor reads me.md, memrepo writes an entry, the editor saves its copy with a line of its own."""
    me = store.root / "me.md"
    read = me.read_text()
    assert store.remember(Candidate(text="I review pull requests before lunch", by="user")).commit
    time.sleep(0.4)  # older than the settle quiet time once saved
    stale_save(me, read + "- Typed in the editor [by: user]\n")
    os.utime(me, (time.time() - 1, time.time() - 1))
    return me, read


def test_a_stale_save_is_held_as_a_question_in_status_and_health(store: MemoryStore) -> None:
    me, _read = read_then_write_then_save(store)
    head = store.head()
    assert store.commit_hand_edits() is None  # not committed silently
    assert store.head() == head
    status = store.status()
    assert status.state is RepoState.HAND_EDITED
    (q,) = status.questions
    assert q.path == "me.md" and len(q.dropped) == 1 and "pull requests" in q.dropped[0]
    assert "drops 1 entry memrepo wrote" in q.message
    rows = [r for r in check(store) if r.name == "work tree"]
    assert rows and rows[0].status is HealthStatus.WARN and "drops 1 entry" in rows[0].reason
    # A write to the same file never builds on the stale save: one line, nothing written.
    saved = me.read_bytes()
    with pytest.raises(HandEditQuestion, match="drops 1 entry memrepo wrote"):
        store.remember(Candidate(text="I water the plants on Sundays", by="user"))
    assert store.head() == head and me.read_bytes() == saved
    assert "pull requests" in git(store.root, "show", "HEAD:me.md")


def test_put_back_keeps_the_save_and_the_entry(store: MemoryStore) -> None:
    me, _read = read_then_write_then_save(store)
    (q,) = store.status().questions
    commit = store.answer_hand_edit("me.md", q.seen, commit=False)
    assert commit is not None and commit == store.head()
    text = git(store.root, "show", "HEAD:me.md")
    assert "pull requests" in text and "Typed in the editor" in text
    assert me.read_text() == text
    assert store.status().state is RepoState.CLEAN


def test_commit_keeps_the_save_as_it_is(store: MemoryStore) -> None:
    read_then_write_then_save(store)
    (q,) = store.status().questions
    store.answer_hand_edit("me.md", q.seen, commit=True)
    text = git(store.root, "show", "HEAD:me.md")
    assert "pull requests" not in text and "Typed in the editor" in text


def test_removing_an_old_entry_or_editing_a_new_one_is_no_question(store: MemoryStore) -> None:
    me = store.root / "me.md"
    store.remember(Candidate(text="I keep a paper diary", by="user"))
    text = me.read_text()
    line = next(x for x in text.splitlines() if "paper diary" in x)
    stale_save(me, text.replace(line, line.replace("paper diary", "paper notebook")))
    os.utime(me, (time.time() - 1, time.time() - 1))
    assert store.status().questions == []  # an edit of the entry, not a drop
    assert store.commit_hand_edits() is not None
    me.write_text("".join(x + "\n" for x in me.read_text().splitlines() if "Name is" not in x))
    os.utime(me, (time.time() - 1, time.time() - 1))
    assert store.status().questions == []  # not memrepo's write of the last hour


# -- a real vim in tmux ---------------------------------------------------------------------------


@pytest.fixture
def tmux() -> Iterator[Run]:
    yield from tmux_server("memrepo-stale", "vim")


@pytest.mark.slow
def test_vim_saving_its_stale_buffer_is_held_and_put_back(store: MemoryStore, tmux: Run) -> None:
    root = store.root
    vimrc = "set nocompatible directory=. nobackup nowritebackup backupcopy=no viminfo= noautoread"
    started = tmux("new-session", "-d", "-x", "120", "-y", "30", "-c", str(root), f"vim -u NONE -c '{vimrc}' me.md")
    assert started.returncode == 0, started.stderr
    wait_until((root / ".me.md.swp").exists, "vim's swap file")
    tmux("send-keys", "-t", "0", "Go- Typed in vim [by: user]", "Escape")
    assert store.remember(Candidate(text="I review pull requests before lunch", by="user")).commit
    # vim warns that the file changed since it read it; the user writes anyway (":w!", then "y" if asked).
    tmux("send-keys", "-t", "0", ":w!", "Enter")
    me = root / "me.md"
    wait_until(
        lambda: "Typed in vim" in me.read_text() or "(y/n)" in tmux("capture-pane", "-p", "-t", "0").stdout, "vim"
    )
    if "Typed in vim" not in me.read_text():
        tmux("send-keys", "-t", "0", "y")
        wait_until(lambda: "Typed in vim" in me.read_text(), "vim's save")
    assert "pull requests" not in me.read_text()  # the stale buffer dropped it
    time.sleep(0.4)
    assert store.commit_hand_edits() is None
    (q,) = store.status().questions
    assert "pull requests" in q.dropped[0]
    store.answer_hand_edit("me.md", q.seen, commit=False)
    text = git(root, "show", "HEAD:me.md")
    assert "pull requests" in text and "Typed in vim" in text
    tmux("send-keys", "-t", "0", ":q!", "Enter")


def test_commits_of_other_files_do_not_push_the_dropped_entry_out_of_the_look(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by the soak (benchmarks/bench_soak.py): with writers busy on other files, the entry's commit
    fell out of the last HISTORY_MAX commits a minute later, the question vanished and the next hand-edit
    commit recorded the deletion silently (2 acknowledged writes lost in 30 minutes)."""
    from memrepo.engine.write import stalesave

    monkeypatch.setattr(stalesave, "HISTORY_MAX", 5)
    read_then_write_then_save(store)
    env = dict(
        os.environ, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@b", GIT_COMMITTER_NAME="a", GIT_COMMITTER_EMAIL="a@b"
    )
    for n in range(8):  # other writers' commits since (files other than me.md)
        subprocess.run(
            ["git", "commit", "-q", "--allow-empty", "-m", f"other {n}"], cwd=store.root, check=True, env=env
        )
    head = store.head()
    assert store.commit_hand_edits() is None  # still held, not committed silently
    assert store.head() == head
    (q,) = store.status().questions
    assert q.path == "me.md" and len(q.dropped) == 1 and "pull requests" in q.dropped[0]


def test_a_held_question_reads_the_history_once_per_process(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a question is held every transaction looks at the save again; the history walk behind it (0.4 s
    at 2,400 commits in the hour, under the write lock) runs once for the same save and commit."""
    from memrepo.engine.git.history import GitHistory

    walks: list[str] = []
    real, real_file = GitHistory.recent_writes, GitHistory.file_writes

    def counting(self, path, within_s, limit):  # type: ignore[no-untyped-def]
        walks.append(f"recent {path}")
        return real(self, path, within_s, limit)

    def counting_file(self, path, limit):  # type: ignore[no-untyped-def]
        walks.append(f"file {path}")
        return real_file(self, path, limit)

    monkeypatch.setattr(GitHistory, "recent_writes", counting)
    monkeypatch.setattr(GitHistory, "file_writes", counting_file)
    read_then_write_then_save(store)
    for _ in range(3):
        assert store.commit_hand_edits() is None  # held each time
    # One look for what the save drops, one for what it brings back (its new line): the hour's writes and the
    # walk back to the save's base (breaker27 B27-3), each once.
    assert sorted(walks) == ["file me.md", "file me.md", "recent me.md"]
