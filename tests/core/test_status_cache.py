"""A watched status looks again only at the paths events reported (engine/git/statuscache.py,
docs/architecture.md §4): libgit2's full scan holds the GIL for 50-80 ms at 20,000 files, so
every status after an event froze the app. Each test compares the cached answer with a full
scan of the same tree, and counts the scans."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings
from helpers.watch_helpers import next_event, trust_the_watcher_at_once, watching

import memrepo.engine.git.statuscache as statuscache
from memrepo.engine.git.store import GitStore
from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.repo import MemoryRepo
from memrepo.engine.repo.store import MemoryStore


class Scans:
    """Counts libgit2's full status scans made for a store's status (not :func:`full`'s own)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = GitStore._scan

        def counted(git_store: GitStore) -> dict[str, int]:
            if not getattr(git_store, "checking", False):
                self.count += 1
            return real(git_store)

        monkeypatch.setattr(GitStore, "_scan", counted)


def watched(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> Scans:
    """``store`` as a trusted watcher's store, its first status read (one full scan)."""
    trust_the_watcher_at_once(monkeypatch)
    scans = Scans(monkeypatch)
    store.set_watched(True)
    store.status()
    assert scans.count == 1
    return scans


def full(store: MemoryStore) -> tuple[RepoState, list[str]]:
    """The status libgit2's scan gives, from a GitStore of its own (no cache)."""
    checker = GitStore(store.root)
    checker.checking = True  # type: ignore[attr-defined]
    status = checker.status()
    return status.state, status.changed


def seen(store: MemoryStore) -> tuple[RepoState, list[str]]:
    status = store.status()
    return status.state, status.changed


def test_a_watched_status_after_an_event_looks_only_at_the_reported_paths(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    scans = watched(store, monkeypatch)
    me = store.root / "me.md"
    me.write_text(me.read_text() + "- a hand-written line\n")
    store.note_changed(["me.md"])
    assert seen(store) == (RepoState.HAND_EDITED, ["me.md"])
    assert scans.count == 1
    assert seen(store) == full(store)


def test_hand_edits_of_every_kind_give_what_a_full_scan_gives(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    scans = watched(store, monkeypatch)
    root = store.root
    me, inbox = root / "me.md", root / "inbox.md"
    committed = me.read_text()
    steps = [
        (lambda: me.write_text(committed + "- edited\n"), ["me.md"]),
        (lambda: (root / "notes.md").write_text("- new file\n"), ["notes.md"]),
        (lambda: inbox.unlink(), ["inbox.md"]),
        (lambda: me.write_text(committed), ["me.md"]),  # back to the committed text: clean again
        (lambda: (root / "scratch.md~").write_text("editor backup"), ["scratch.md~"]),
    ]
    for act, paths in steps:
        act()
        store.note_changed(paths)
        assert seen(store) == full(store)
    assert seen(store) == (RepoState.HAND_EDITED, ["inbox.md", "notes.md"])
    assert scans.count == 1


def test_a_new_folder_a_git_event_or_a_moved_head_scans_again(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    scans = watched(store, monkeypatch)
    (store.root / "topics").mkdir()
    (store.root / "topics" / "db.md").write_text("- a file in a new folder\n")
    store.note_changed(["topics"])  # the watcher may name the folder only
    assert seen(store) == (RepoState.HAND_EDITED, ["topics/db.md"])
    assert scans.count == 2
    store.note_changed([], git=True)
    store.status()
    assert scans.count == 3
    result = store.remember(Candidate(text="Deploys run from the release branch", by="user"))
    assert result.commit is not None  # HEAD moved (the hand edit was committed first)
    assert seen(store) == full(store) == (RepoState.CLEAN, [])
    assert scans.count > 3


def test_a_path_staged_by_hand_is_scanned_again(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    me = store.root / "me.md"
    me.write_text(me.read_text() + "- staged\n")
    git(store.root, "add", "me.md")
    scans = watched(store, monkeypatch)
    assert store.status().staged == ["me.md"]
    me.write_text(me.read_text() + "- and edited again\n")
    store.note_changed(["me.md"])
    assert store.status().staged == ["me.md"]  # the index flags come from a scan, not from HEAD's tree
    assert scans.count == 2


def test_a_gitignore_change_scans_again(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    scans = watched(store, monkeypatch)
    (store.root / "draft.md").write_text("- not yet\n")
    store.note_changed(["draft.md"])
    assert seen(store) == (RepoState.HAND_EDITED, ["draft.md"])
    (store.root / ".gitignore").write_text("draft.md\n")
    store.note_changed([".gitignore"])
    assert seen(store) == full(store) == (RepoState.HAND_EDITED, [".gitignore"])
    assert scans.count == 2


def test_without_a_trusted_watcher_every_status_scans(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    scans = Scans(monkeypatch)
    store.status()
    store.status()
    assert scans.count == 2
    scans = watched(store, monkeypatch)
    store.set_watched(False)  # the watcher stopped: nobody reports changes now
    (store.root / "notes.md").write_text("- unseen by any event\n")
    assert seen(store) == (RepoState.HAND_EDITED, ["notes.md"])
    assert scans.count == 2


def test_an_edit_reported_while_a_scan_runs_is_looked_at_by_the_next_status(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    trust_the_watcher_at_once(monkeypatch)
    store.set_watched(True)
    me = store.root / "me.md"
    real = GitStore._scan
    edits = []

    def scan_then_edit(git_store: GitStore) -> dict[str, int]:
        flags = real(git_store)
        if not edits:  # the edit lands after libgit2 looked at me.md, before the scan returns
            me.write_text(me.read_text() + "- edited mid-scan\n")
            store.note_changed(["me.md"])
            edits.append(1)
        return flags

    monkeypatch.setattr(GitStore, "_scan", scan_then_edit)
    assert seen(store) == (RepoState.CLEAN, [])
    assert seen(store) == (RepoState.HAND_EDITED, ["me.md"])


def test_a_git_event_while_a_scan_runs_voids_what_it_found(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    trust_the_watcher_at_once(monkeypatch)
    store.set_watched(True)
    scans = Scans(monkeypatch)
    counted = GitStore._scan

    def scan_then_stage(git_store: GitStore) -> dict[str, int]:
        flags = counted(git_store)
        if scans.count == 1:
            store.note_changed([], git=True)  # `git add` landed meanwhile
        return flags

    monkeypatch.setattr(GitStore, "_scan", scan_then_stage)
    store.status()
    store.status()
    assert scans.count == 2  # the first scan was not kept


def test_a_kept_scan_is_done_again_after_the_backstop_time(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    scans = watched(store, monkeypatch)
    store.status()
    assert scans.count == 1
    monkeypatch.setattr(statuscache, "FULL_SCAN_EVERY_S", -1.0)  # the last scan is older than the backstop
    store.status()
    assert scans.count == 2


async def test_a_running_watcher_keeps_the_status_current_without_scanning(
    repo_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trust_the_watcher_at_once(monkeypatch)
    repo = await MemoryRepo.open(repo_path, plain_settings())
    try:
        async with watching(repo) as events:
            await repo.status()
            scans = Scans(monkeypatch)
            me = repo_path / "me.md"
            me.write_text(me.read_text() + "- a hand edit the watcher reports\n")
            await next_event(events, lambda e: "me.md" in e.paths)
            status = await repo.status()
            assert (status.state, status.changed) == (RepoState.HAND_EDITED, ["me.md"])
            assert scans.count == 0
    finally:
        await repo.close()
