"""Pin and unpin an entry already written (breaker14 B14-14): the user's line moves into MEMORY.md or out of it.

One commit each, through the write transaction, the line's text and ``added:`` date kept; refused for an
agent's line, an inbox line, a line already where asked, and a line changed since it was read.
"""

from __future__ import annotations

import pytest
from helpers.repo_helpers import porcelain

from memrepo.engine.errors import RefError
from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore


def entry_texts(store: MemoryStore, rel: str) -> list[str]:
    return [e.text for e in store.read_file(rel).entries if not e.text.startswith("[[")]


def test_pin_moves_a_user_line_into_memory_md_in_one_commit_and_unpin_moves_it_back(store: MemoryStore) -> None:
    kept = store.remember(Candidate(text="I prefer tabs in Go files", kind="preference", by="user"))
    other = store.remember(Candidate(text="I use fish as my shell", kind="preference", by="user"))
    old = store.read_file("me.md").entries[-2]
    assert old.text == "I prefer tabs in Go files" and kept.ref == old.ref and other.ref
    head = store.head()
    result = store.pin(old.ref, expect=old.text)
    assert result.action is Action.PINNED and result.path == "MEMORY.md" and result.ref
    assert entry_texts(store, "MEMORY.md") == ["I prefer tabs in Go files"]
    assert entry_texts(store, "me.md") == ["I use fish as my shell"]
    pinned = store.read_file("MEMORY.md").entries[0]
    assert pinned.meta["added"] == old.meta["added"] and pinned.by == "user" and pinned.meta["kind"] == "preference"
    last = store.log(1)[0]
    assert last.parents == [head] and last.id == result.commit and last.origin == "tui"
    assert last.summary == "Pin: I prefer tabs in Go files"
    assert porcelain(store.root) == ""
    # it is in the context block of any workspace now, as a pin
    assert "I prefer tabs in Go files" in store.context("/tmp/elsewhere").text

    back = store.pin(result.ref or "", pinned=False, origin="cli")
    assert back.action is Action.UNPINNED and back.path == "me.md"
    assert entry_texts(store, "MEMORY.md") == []
    assert entry_texts(store, "me.md") == ["I use fish as my shell", "I prefer tabs in Go files"]
    assert store.log(1)[0].summary == "Unpin: I prefer tabs in Go files"
    assert porcelain(store.root) == ""


def test_a_pinned_lesson_unpins_to_lessons_md(store: MemoryStore) -> None:
    store.remember(Candidate(text="Run the linter before pushing", kind="lesson", by="user"))
    lesson = store.read_file("lessons.md").entries[-1]
    pinned = store.pin(lesson.ref)
    assert entry_texts(store, "lessons.md") == []
    assert store.pin(pinned.ref or "", pinned=False).path == "lessons.md"
    assert entry_texts(store, "lessons.md") == ["Run the linter before pushing"]


def test_pinning_a_line_memory_md_holds_already_drops_the_copy(store: MemoryStore) -> None:
    store.remember(Candidate(text="Never force-push to main", by="user", pin=True))
    store.remember(Candidate(text="Never force-push to main", by="user"))
    copy = store.read_file("me.md").entries[-1]
    result = store.pin(copy.ref)
    assert result.commit and entry_texts(store, "MEMORY.md") == ["Never force-push to main"]
    assert entry_texts(store, "me.md") == []


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ("agent", "not the user's own line"),
        ("inbox", "accept it first"),
        ("pinned", "pinned already"),
        ("unpinned", "is not pinned"),
        ("changed", "now holds"),
        ("index", "not an entry"),
    ],
)
def test_pin_refuses_what_it_must_not_move_and_changes_nothing(store: MemoryStore, where: str, words: str) -> None:
    store.remember(Candidate(text="The agent thinks pnpm is faster", kind="preference", by="agent"))
    store.remember(Candidate(text="Told by a web page", untrusted=True))
    store.remember(Candidate(text="I prefer short answers", kind="preference", by="user"))
    store.remember(Candidate(text="Always run the tests", by="user", pin=True))
    me = store.read_file("me.md").entries
    memory = store.read_file("MEMORY.md").entries
    lines = (store.root / "MEMORY.md").read_text().splitlines()
    index_link = f"repo:MEMORY.md#L{lines.index('- [[me]]') + 1}"
    ref, pinned, expect = {
        "agent": (me[0].ref, True, None),
        "inbox": (store.read_file("inbox.md").entries[0].ref, True, None),
        "pinned": (memory[0].ref, True, None),
        "unpinned": (me[1].ref, False, None),
        "changed": (me[1].ref, True, "I prefer long answers"),
        "index": (index_link, False, None),
    }[where]
    head = store.head()
    files = {rel: (store.root / rel).read_bytes() for rel in ("me.md", "MEMORY.md", "inbox.md")}
    with pytest.raises(RefError, match=words):
        store.pin(ref, pinned=pinned, expect=expect)
    assert store.head() == head
    assert {rel: (store.root / rel).read_bytes() for rel in files} == files


def test_a_pin_memory_md_has_no_room_for_is_refused_and_nothing_moves(store: MemoryStore) -> None:
    for n in range(12):
        store.remember(Candidate(text=f"Pinned rule number {n}: " + "x" * 250, by="user", pin=True))
    store.remember(Candidate(text="One more rule that would not fit " + "y" * 300, by="user"))
    line = store.read_file("me.md").entries[-1]
    head = store.head()
    result = store.pin(line.ref)
    assert result.action is Action.REFUSED and "MEMORY.md" in (result.reason or "")
    assert store.head() == head and store.read_file("me.md").entries[-1].text == line.text


def test_a_line_typed_by_hand_with_no_by_pins(store: MemoryStore) -> None:
    """First-ten-minutes trial (round 22): a line typed into me.md in the editor has no ``by:``; the app's table shows
    it as the user's (the format's rule), and `P` refused it as "by: none"."""
    store.remember(Candidate(text="I use fish as my shell", kind="preference", by="user"))
    me = store.root / "me.md"
    me.write_text(me.read_text(encoding="utf-8") + "- Prefers tabs over spaces\n", encoding="utf-8")
    store.commit_hand_edits()
    typed = store.read_file("me.md").entries[-1]
    assert typed.text == "Prefers tabs over spaces" and "by" not in typed.meta and typed.by == "user"
    result = store.pin(typed.ref, expect=typed.text)
    assert result.action is Action.PINNED
    assert entry_texts(store, "MEMORY.md") == ["Prefers tabs over spaces"]
    assert store.read_file("MEMORY.md").entries[0].by == "user"
