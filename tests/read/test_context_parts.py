"""A new process's context block after one of its files changed renders that file alone, and redacts only
its new lines (engine/read/contextcache.py ``Parts``, docs/architecture.md §4): the other files' sections
are taken as kept, the changed file's old lines from its memo; the bytes are those of a full render."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

import memrepo.engine.read.context as context_module
from memrepo.engine.models import Candidate
from memrepo.engine.read import contextcache
from memrepo.engine.read.coldread import context_text
from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def cleaned(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts redaction ran on (each call of ``sanitize_line``)."""
    seen: list[str] = []
    real = context_module.sanitize_line

    def counting(text: str) -> str:
        seen.append(text)
        return real(text)

    monkeypatch.setattr(context_module, "sanitize_line", counting)
    return seen


@pytest.fixture
def sections(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files whose section was rendered (not taken as kept)."""
    seen: list[str] = []
    real = contextcache.Parts.section

    def counting(self, path, data, inputs, render):  # type: ignore[no-untyped-def]
        def rendering(clean):  # type: ignore[no-untyped-def]
            seen.append(path)
            return render(clean)

        return real(self, path, data, inputs, rendering)

    monkeypatch.setattr(contextcache.Parts, "section", counting)
    return seen


def _store_with_a_workspace(store: MemoryStore) -> tuple[str, Path]:
    store.remember(Candidate(text="Prefers tabs over spaces", kind="preference", by="user"))
    for n in range(6):
        store.remember(
            Candidate(text=f"Billing fact {n} about queues", scope="workspace", workspace="billing", by="agent")
        )
    ws = store.workspace_index.resolve("billing")
    assert ws.file is not None
    return ws.id, store.root / ws.file


def test_after_the_workspace_file_changed_only_it_renders_and_only_its_new_line_is_redacted(
    store: MemoryStore, cleaned: list[str], sections: list[str]
) -> None:
    ws_id, ws_path = _store_with_a_workspace(store)
    first = context_text(str(store.root), ws_id)
    assert first is not None and "Billing fact 5" in first
    assert len(sections) == 4  # MEMORY.md, me.md, lessons.md, the workspace's file
    assert len(cleaned) > 10  # every line shown or weighed went through redaction once
    # The agent's last session wrote to the workspace's file (by hand here: no process kept a block).
    with ws_path.open("a") as fh:
        fh.write("- Billing moved to the eu-west cluster [by: user]\n")
    sections.clear()
    cleaned.clear()
    after = context_text(str(store.root), ws_id)
    assert after is not None and "Billing moved to the eu-west cluster" in after
    assert sections == [str(ws_path.relative_to(store.root))]  # the other three taken as kept
    assert cleaned == ["Billing moved to the eu-west cluster"]  # the old lines' text came from the memo
    # The same bytes as a process that keeps nothing (the store's own render).
    fresh = MemoryStore.open(store.root, plain_settings())
    assert after == fresh.context(ws_id).text


def test_a_kept_section_gives_the_bytes_of_a_full_render(store: MemoryStore, tmp_path: Path) -> None:
    ws_id, ws_path = _store_with_a_workspace(store)
    state = store.root / ".git" / "memrepo"

    def files() -> list[context_module.ContextFile]:
        def data(rel: str) -> bytes | None:
            path = store.root / rel
            return path.read_bytes() if path.is_file() else None

        return context_module.context_files(data, True, ws_id, str(ws_path.relative_to(store.root)))

    plain = context_module.render_context("abc1234", files(), ws_id)
    rendered = context_module.render_context("abc1234", files(), ws_id, contextcache.Parts(state))
    kept = contextcache.Parts(state)
    again = context_module.render_context("abc1234", files(), ws_id, kept)
    assert rendered == plain == again
    assert kept.rendered == [] and kept.cleaned == 0


def test_a_changed_file_leaves_no_kept_section_with_its_old_text(store: MemoryStore) -> None:
    ws_id, ws_path = _store_with_a_workspace(store)
    assert context_text(str(store.root), ws_id) is not None
    text = ws_path.read_text()
    assert "Billing fact 3 about queues" in text
    ws_path.write_text(text.replace("- Billing fact 3 about queues", "- Billing fact three"))  # a hand edit
    after = context_text(str(store.root), ws_id)
    assert after is not None and "Billing fact three" in after and "fact 3 about" not in after
    folder = store.root / ".git" / "memrepo" / contextcache.FOLDER
    kept = [p.read_text() for p in folder.iterdir() if p.name.startswith(contextcache.PART_PREFIX)]
    assert kept and not any("fact 3 about" in body for body in kept)


def test_forgetting_an_entry_leaves_it_in_no_kept_section(store: MemoryStore) -> None:
    ws_id, _ws_path = _store_with_a_workspace(store)
    result = store.remember(Candidate(text="The vault code is wombat-narwhal-42", by="user"))
    assert result.ref is not None
    assert "wombat-narwhal-42" in (context_text(str(store.root), ws_id) or "")
    folder = store.root / ".git" / "memrepo" / contextcache.FOLDER

    def in_sections() -> bool:
        parts = [p for p in folder.iterdir() if p.name.startswith(contextcache.PART_PREFIX)] if folder.exists() else []
        return any(b"wombat-narwhal-42" in p.read_bytes() for p in parts)

    assert in_sections()
    store.forget(result.ref)
    assert not in_sections()
    assert "wombat-narwhal-42" not in (context_text(str(store.root), ws_id) or "")
    assert not in_sections()


def test_a_forget_that_lands_while_a_block_renders_leaves_it_in_no_kept_section(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As for the block (test_context_cache): a render whose forget's clear did not wait for it drops the
    sections it kept, not only its block."""
    result = store.remember(Candidate(text="The vault code is wombat-narwhal-42", by="user"))
    assert result.ref is not None
    real = context_module.context_files

    def forget_meanwhile(*args, **kwargs):  # type: ignore[no-untyped-def]
        read = real(*args, **kwargs)  # the files as they were
        store.forget(result.ref)  # commits and clears before this render keeps its sections
        return read

    monkeypatch.setattr(context_module, "context_files", forget_meanwhile)
    monkeypatch.setattr(contextcache, "CLEAR_WAIT_S", 0.05)
    assert "wombat-narwhal-42" in (context_text(str(store.root), None) or "")  # rendered from the old text
    folder = store.root / ".git" / "memrepo" / contextcache.FOLDER
    kept = [p for p in folder.iterdir() if p.name.startswith(contextcache.PART_PREFIX)] if folder.exists() else []
    assert not any(b"wombat-narwhal-42" in p.read_bytes() for p in kept)


def test_a_hand_edited_secret_is_in_no_kept_memo(store: MemoryStore) -> None:
    """breaker31 B31-8: a memo was keyed by each line as written, so a secret a hand edit added (not yet committed,
    redacted only on the way out) sat in clear in ``.git/memrepo/context-cache/``. Keys are hashes now."""
    ws_id, ws_path = _store_with_a_workspace(store)
    assert context_text(str(store.root), ws_id) is not None
    secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY9"
    with (store.root / "me.md").open("a") as fh:
        fh.write(f"- My AWS key is AKIAZ7QK3M5N8P2R4T6V with secret {secret} [by: user]\n")
    with ws_path.open("a") as fh:  # a change beside it: the workspace's section is rendered from its memo
        fh.write("- Billing moved to the eu-west cluster [by: user]\n")
    block = context_text(str(store.root), ws_id)
    assert block is not None and "Billing moved" in block and secret not in block
    kept = [p for p in (store.state_dir / contextcache.FOLDER).iterdir() if p.is_file()]
    assert kept and all(secret not in p.read_text() and "AKIAZ7QK3M5N8P2R4T6V" not in p.read_text() for p in kept)
    parts = [json.loads(p.read_text()) for p in kept if p.name.startswith(contextcache.PART_PREFIX)]
    memos = [part.get("memo") or {} for part in parts if isinstance(part, dict)]
    assert any(memos) and all(re.fullmatch("[0-9a-f]{32}", key) for memo in memos for key in memo)  # hashes only
