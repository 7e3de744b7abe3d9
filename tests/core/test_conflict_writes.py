"""The two conflict writers go through the one write transaction (docs/architecture.md §3).

Resolving a sync conflict (:func:`resolve_conflict`) and the distiller's
``flag_conflict`` (:func:`apply_operation`) used to read and replace the file
directly: an editor's save between the read and the write was lost, and the
distiller could push MEMORY.md past its 4 KB limit. Each test here failed then.
"""

from __future__ import annotations

import pytest
from helpers.repo_helpers import porcelain

from memrepo.engine.checkpoints.claims import Claim, ExistingEntry
from memrepo.engine.checkpoints.distill import ConflictOp, apply_operation
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.limits import MEMORY_MD_MAX_BYTES
from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync.conflicts import resolve_conflict

EDITOR_LINE = "- saved by an editor meanwhile\n"


def editor_saves_while_rendering(monkeypatch: pytest.MonkeyPatch, store: MemoryStore, rel: str) -> None:
    """The first time the writer renders the file it will write, an editor appends a line to it on disk."""
    real_render = fmt.MemoryFile.render
    calls = {"n": 0}

    def render(self: fmt.MemoryFile) -> bytes:
        data = real_render(self)
        calls["n"] += 1
        if calls["n"] == 1:
            with (store.root / rel).open("a", encoding="utf-8") as fh:
                fh.write(EDITOR_LINE)
        return data

    monkeypatch.setattr(fmt.MemoryFile, "render", render)


def conflicted_me_md(store: MemoryStore) -> None:
    """me.md holding one entry in two versions, as a sync merge leaves it (committed)."""
    with (store.root / "me.md").open("a", encoding="utf-8") as fh:
        fh.write("- My editor is neovim [by: user; conflict: c1]\n- My editor is helix [by: user; conflict: c1]\n")
    store.commit_hand_edits()


def claim_about(entry_text: str, path: str, by: str, line: int) -> Claim:
    claim = Claim(
        scope="global",
        claim_id="k1",
        session_ids=["s1"],
        workspace=None,
        messages=[{"id": "u1", "session": "s1", "role": "user", "text": "Honestly tabs are fine too."}],
        trigger="force",
    )
    claim.existing = {"E1": ExistingEntry(alias="E1", path=path, line=line, text=entry_text, by=by, meta={})}
    return claim


def test_resolving_a_conflict_keeps_an_edit_saved_meanwhile(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    conflicted_me_md(store)
    editor_saves_while_rendering(monkeypatch, store, "me.md")
    result = resolve_conflict(store, "me.md", "c1", "second")
    text = (store.root / "me.md").read_text()
    assert EDITOR_LINE in text, "the editor's save was overwritten"
    assert "My editor is helix" in text and "neovim" not in text and "conflict" not in text
    assert [c.summary for c in store.log(2)] == ["Resolve conflict c1: keep second", "Hand edits"]
    assert result.commit == store.head() and porcelain(store.root) == ""


def test_flagging_a_conflict_keeps_an_edit_saved_meanwhile(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    written = store.remember(Candidate(text="The user prefers spaces over tabs", kind="preference", by="user"))
    assert written.ref is not None
    claim = claim_about("The user prefers spaces over tabs", "me.md", "user", int(written.ref.rsplit("L", 1)[1]))
    op = ConflictOp(op="flag_conflict", target="E1", target_quote="prefers spaces", text="The user is fine with tabs")
    editor_saves_while_rendering(monkeypatch, store, "me.md")
    result = apply_operation(store, claim, op, "agent_tool")
    assert result is not None and result.action is Action.ADDED
    text = (store.root / "me.md").read_text()
    assert EDITOR_LINE in text, "the editor's save was overwritten"
    conflicted = [e for e in store.read_file("me.md").entries if "conflict" in e.meta]
    assert [e.text for e in conflicted] == ["The user prefers spaces over tabs", "The user is fine with tabs"]
    assert store.log(2)[1].summary == "Hand edits" and porcelain(store.root) == ""


def test_flagging_a_conflict_never_pushes_memory_md_past_its_limit(store: MemoryStore) -> None:
    pinned = store.remember(Candidate(text="Always answer in English", by="user", pin=True))
    assert pinned.path == "MEMORY.md" and pinned.ref is not None
    memory = store.root / "MEMORY.md"
    room = MEMORY_MD_MAX_BYTES - len(memory.read_bytes()) - 200
    memory.write_text(memory.read_text() + "\nNotes: " + "x" * room + "\n")
    store.commit_hand_edits()
    before, head = memory.read_bytes(), store.head()
    claim = claim_about("Always answer in English", "MEMORY.md", "user", int(pinned.ref.rsplit("L", 1)[1]))
    op = ConflictOp(
        op="flag_conflict",
        target="E1",
        target_quote="answer in English",
        text="The user may want answers in Norwegian when the conversation is in Norwegian, " * 3,
    )
    result = apply_operation(store, claim, op, "agent_tool")
    assert result is not None and result.action is Action.REFUSED
    assert "MEMORY.md would be" in (result.reason or "")
    assert memory.read_bytes() == before and store.head() == head
