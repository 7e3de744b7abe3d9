"""The stale-save look stops at the save's base once past the last hour (engine/write/stalesave.py).

What a save drops is known at its base: an older line the save lacks is the user's to delete. Before,
removing one old entry by hand walked the file's history back to the commit that added that line, through
every commit of the repo since (a file's first version, 20,000 commits back: 8.9-12 s under load), only to
ask nothing. The "Hand edits" body still names the memrepo-written lines removed.
"""

from __future__ import annotations

from pathlib import Path

from helpers.repo_helpers import git
from test_stale_save_base import HOURS_AGO, backdate_history, stale_save, store  # noqa: F401 (a fixture)

from memrepo.engine.git.history import GitHistory
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.write import stalesave


def _versions_read(monkeypatch) -> list[int]:  # type: ignore[no-untyped-def]
    """How many versions each look read of the file (one count per walk)."""
    walks: list[int] = []
    real = GitHistory.file_writes

    def counting(self, path, limit):  # type: ignore[no-untyped-def]
        walks.append(0)
        for version in real(self, path, limit):
            walks[-1] += 1
            yield version

    monkeypatch.setattr(GitHistory, "file_writes", counting)
    return walks


def _old_line_removed(store: MemoryStore) -> tuple[Path, str]:  # noqa: F811
    me = store.root / "me.md"
    assert store.remember(Candidate(text="I keep a paper diary", by="user")).commit
    for n in range(12):  # other files' commits between: the walk passes them all
        assert store.remember(Candidate(text=f"Fact number {n} about the ferry", scope="global")).commit
    assert store.remember(Candidate(text="I water the plants on Sundays", by="user")).commit
    backdate_history(store.root, HOURS_AGO)
    current = me.read_text()
    line = next(x for x in current.splitlines() if "paper diary" in x)
    stale_save(me, current.replace(line + "\n", ""))
    return me, line


def test_the_question_look_stops_at_the_base(store: MemoryStore, monkeypatch) -> None:  # noqa: F811
    _me, _line = _old_line_removed(store)
    stalesave._look_memo.clear()
    walks = _versions_read(monkeypatch)
    assert store.status().questions == []  # the user's own removal of an old line: no question
    assert walks == [1]  # the newest version is the base: older ones are not read


def test_the_commit_still_names_the_old_line_memrepo_wrote(store: MemoryStore, monkeypatch) -> None:  # noqa: F811
    _me, line = _old_line_removed(store)
    stalesave._look_memo.clear()
    walks = _versions_read(monkeypatch)
    commit = store.commit_hand_edits()
    assert commit is not None
    body = git(store.root, "show", "-s", "--format=%B", commit)
    assert f"Removed entries memrepo wrote:\n  me.md: {line}\n" in body
    assert walks[-1] >= 2  # the note's look went on to the version that added it
