"""The one write transaction (engine/write/writer.py): hand edits first, changed-meanwhile check,
limits, atomic write, one commit of exactly the staged paths, cache notes (docs/architecture.md §3)."""

from __future__ import annotations

import pytest
from helpers.repo_helpers import porcelain

from memrepo.engine.errors import BusyError, LimitError
from memrepo.engine.format import limits
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.write.writer import ChangedMeanwhile, Transaction, Writer, retrying


@pytest.fixture
def noted(store: MemoryStore) -> tuple[Writer, list[list[str]]]:
    """A writer on the store's repo that records what it tells the read caches."""
    seen: list[list[str]] = []
    return Writer(store.root, store.git, seen.append), seen


def test_a_commit_writes_and_commits_exactly_the_staged_paths_and_tells_the_caches(
    store: MemoryStore, noted: tuple[Writer, list[list[str]]]
) -> None:
    writer, seen = noted
    (store.root / "lessons.md").write_text((store.root / "lessons.md").read_text() + "- typed by hand\n")
    with writer.transaction("test") as tx:
        data = tx.read_bytes("me.md")
        assert data is not None
        tx.write("me.md", data + b"- one\n")
        tx.write("topics/new.md", b"# new\n\n- two\n")
        commit = tx.commit("Test write", {"Origin": "cli"})
    assert [c.summary for c in store.log(2)] == ["Test write", "Hand edits"]  # the hand edit went first
    assert commit == store.head() and porcelain(store.root) == ""
    assert sorted(store.git.commit_changes(commit)[1]) == ["me.md", "topics/new.md"]
    assert seen == [["me.md", "topics/new.md"]]


def test_a_file_changed_after_it_was_read_is_never_overwritten(
    store: MemoryStore, noted: tuple[Writer, list[list[str]]]
) -> None:
    writer, seen = noted
    head = store.head()
    with writer.transaction("test") as tx:
        data = tx.read_bytes("me.md")
        assert data is not None
        tx.write("lessons.md", b"# Lessons\n\n- staged first\n")
        tx.write("me.md", data + b"- mine\n")
        (store.root / "me.md").write_bytes(data + b"- an editor's\n")
        with pytest.raises(ChangedMeanwhile) as caught:
            tx.commit("Test write", {"Origin": "cli"})
    assert caught.value.path == "me.md"
    assert (store.root / "me.md").read_bytes().endswith(b"- an editor's\n")
    assert b"staged first" not in (store.root / "lessons.md").read_bytes()  # nothing of the change was written
    assert store.head() == head and seen == []


def test_retrying_commits_the_editors_save_then_writes_on_top(store: MemoryStore) -> None:
    saves = {"n": 0}

    def change(tx: Transaction) -> str | None:
        data = tx.read_bytes("me.md") or b""
        if saves["n"] == 0:
            saves["n"] += 1
            (store.root / "me.md").write_bytes(data + b"- an editor's\n")
        tx.write("me.md", data + b"- mine\n")
        return tx.commit("Test write", {"Origin": "cli"})

    with store.transaction("test") as tx:
        retrying(tx, change)
    text = (store.root / "me.md").read_text()
    assert "- an editor's\n- mine\n" in text
    assert [c.summary for c in store.log(2)] == ["Test write", "Hand edits"]


def test_a_file_that_never_stops_changing_is_busy(store: MemoryStore) -> None:
    def change(tx: Transaction) -> str | None:
        data = tx.read_bytes("me.md") or b""
        (store.root / "me.md").write_bytes(data.replace(b"\n\n", b"\n\n- again\n", 1))  # not an append
        tx.write("me.md", data + b"- mine\n")
        return tx.commit("Test write", {"Origin": "cli"})

    with store.transaction("test") as tx, pytest.raises(BusyError, match="keeps changing"):
        retrying(tx, change, retries=2)
    assert b"- mine" not in (store.root / "me.md").read_bytes()


def test_a_file_that_never_stops_growing_takes_the_write_and_keeps_the_appends(store: MemoryStore) -> None:
    saves = [0]

    def change(tx: Transaction) -> str | None:
        data = tx.read_bytes("me.md") or b""
        saves[0] += 1
        (store.root / "me.md").write_bytes(data + f"- again {saves[0]}\n".encode())
        tx.write("me.md", data + b"- mine\n")
        return tx.commit("Test write", {"Origin": "cli"})

    with store.transaction("test") as tx:
        assert retrying(tx, change, retries=2) is not None
    text = (store.root / "me.md").read_bytes()
    assert b"- mine\n" in text and b"- again 1\n" in text and b"- again 2\n" in text
    assert porcelain(store.root) == ""


def test_growing_past_a_limit_is_refused_when_staged_and_shrinking_is_always_allowed(store: MemoryStore) -> None:
    big = b"# Memory\n\n" + b"x" * (limits.MEMORY_MD_MAX_BYTES + 100) + b"\n"
    (store.root / "MEMORY.md").write_bytes(big)
    with store.transaction("test") as tx:  # the oversized hand edit is committed first
        with pytest.raises(LimitError, match=r"MEMORY\.md would be"):
            tx.write("MEMORY.md", big + b"- more\n")
        assert tx.staged() == []
        tx.write("MEMORY.md", big[:-50] + b"\n")  # smaller, though still over: allowed
        assert tx.commit("Shrink", {"Origin": "cli"}) is not None
    assert porcelain(store.root) == ""


def test_a_new_file_past_the_file_limit_is_refused(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_FILES", len(store.list_files()) + 1)
    with store.transaction("test") as tx:
        tx.write("topics/one.md", b"# one\n")
        with pytest.raises(LimitError, match="file limit"):
            tx.write("topics/two.md", b"# two\n")
        tx.commit("One more file", {"Origin": "cli"})
    assert (store.root / "topics/one.md").exists() and not (store.root / "topics/two.md").exists()


def test_a_savepoint_unstages_a_change_refused_half_way(store: MemoryStore) -> None:
    with store.transaction("test") as tx:
        with pytest.raises(LimitError), tx.savepoint():
            tx.write("topics/a.md", b"# a\n")
            tx.write("topics/b.md", b"x" * (limits.FILE_MAX_BYTES + 1))
        assert tx.staged() == []
        assert tx.commit("Nothing", {"Origin": "cli"}) is None
