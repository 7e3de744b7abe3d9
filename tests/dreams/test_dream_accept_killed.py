"""A dream accept killed half-way is finished by the next command, never undone (docs/architecture.md §6).

The merge commit is written, then main moves and the work tree is updated
under the move journal in ``.git/memrepo/``. Before, a kill between the merge
commit and the work-tree update left the old files on disk and the next write
committed them as "Hand edits", silently reverting the accepted dream.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pygit2
import pytest
from helpers.dream_helpers import make_repo
from helpers.repo_helpers import git, plain_settings, porcelain

from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.git import remote as gitremote
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


class Killed(BaseException):
    """Stands for SIGKILL: nothing after it runs, no except clause catches it."""


def _pending(root: Path) -> tuple[MemoryStore, str, dict[str, str]]:
    """A repo with a dream waiting for review; returns the store, the dream and the files its review changes."""
    store = make_repo(root)
    record = Dreamer(store).run()
    assert record.status == "pending_review" and record.review_commit and record.base
    names = git(root, "diff", "--name-only", record.base, record.review_commit).split()
    assert names
    reviewed = {name: git(root, "show", f"{record.review_commit}:{name}") for name in names}
    return store, record.id, reviewed


def _check_finished(root: Path, dream_id: str, reviewed: dict[str, str]) -> None:
    """The next command finishes the accept: no "Hand edits", the dream's text on disk and in HEAD, fsck clean."""
    store = MemoryStore.open(root, plain_settings(), create=False)
    result = store.remember(Candidate(text="written after the killed accept", kind="preference", by="user"))
    assert result.commit == store.head()
    subjects = git(root, "log", "--format=%s").splitlines()
    assert not any(s.startswith("Hand edits") for s in subjects), subjects
    merges = [s for s in subjects if s.startswith(f"Accept dream {dream_id}")]
    assert len(merges) == 1, subjects
    for name, text in reviewed.items():
        assert (root / name).read_text() == text == git(root, "show", f"HEAD:{name}"), name
    assert porcelain(root) == ""
    git(root, "fsck", "--strict", "--no-dangling")
    # Accepting again (the person retries) says it is accepted and merges nothing more.
    record = Dreamer(store).accept(dream_id)
    assert record.status == "accepted" and record.merge_commit
    assert git(root, "log", "--format=%s").splitlines()[1:] == subjects[1:]
    assert git(root, "branch", "--list", "dream/*").strip() == ""


def test_an_accept_killed_while_it_writes_the_work_tree_is_finished_by_the_next_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "memory"
    store, dream_id, reviewed = _pending(root)

    def killed(full: Path, data: bytes, root_: Path, mode: int) -> None:
        raise Killed

    monkeypatch.setattr(gitremote, "write_checked_out", killed)
    with pytest.raises(Killed):
        Dreamer(store).accept(dream_id)
    monkeypatch.undo()
    assert gitremote.sync_journal(root).is_file()
    _check_finished(root, dream_id, reviewed)


def test_an_accept_killed_after_main_moved_before_the_index_is_finished_by_the_next_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exact point of the bug: the merge commit is on main, the index (and before, the files) still old."""
    root = tmp_path / "memory"
    store, dream_id, reviewed = _pending(root)
    base = store.head()
    real = pygit2.Index.write

    def killed_after_the_ref(self: pygit2.Index) -> None:
        if store.head() != base:  # main is at the merge commit
            raise Killed
        real(self)

    monkeypatch.setattr(pygit2.Index, "write", killed_after_the_ref)
    with pytest.raises(Killed):
        Dreamer(store).accept(dream_id)
    monkeypatch.undo()
    assert store.head() != base and git(root, "log", "-1", "--format=%s").startswith(f"Accept dream {dream_id}")
    _check_finished(root, dream_id, reviewed)


KILLED_ACCEPT = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    import pygit2
    from memrepo.engine.git import remote as gitremote
    from memrepo.engine.config import Settings
    from memrepo.engine.dreams.dreamer import Dreamer
    from memrepo.engine.repo.store import MemoryStore

    store = MemoryStore.open(Path(sys.argv[1]), Settings(), create=False)
    base = store.head()
    if sys.argv[3] == "files":
        def dying(*args, **kwargs):
            os.kill(os.getpid(), signal.SIGKILL)
        gitremote.write_checked_out = dying
    else:
        real = pygit2.Index.write
        def dying_after_the_ref(self):
            if store.head() != base:
                os.kill(os.getpid(), signal.SIGKILL)
            real(self)
        pygit2.Index.write = dying_after_the_ref
    Dreamer(store).accept(sys.argv[2])
    """
)


@pytest.mark.parametrize("where", ["files", "index"])
def test_an_accept_sigkilled_half_way_is_finished_by_the_next_write(tmp_path: Path, where: str) -> None:
    root = tmp_path / "memory"
    _store, dream_id, reviewed = _pending(root)
    done = subprocess.run(
        [sys.executable, "-c", KILLED_ACCEPT, str(root), dream_id, where], capture_output=True, text=True
    )
    assert done.returncode == -9, done.stderr
    assert gitremote.sync_journal(root).is_file()
    _check_finished(root, dream_id, reviewed)
