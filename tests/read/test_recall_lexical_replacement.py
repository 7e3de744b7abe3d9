"""Lexical recall never lists an outdated line alone (breaker8 B8-1; docs/recall.md).

With the README's install (no ``semantic`` extra) recall matches words only. "where do I live?" matched
"I live in Lyon, France (timezone CET)" and not its replacement "I moved to Montreal in 2026; my timezone is now
EST", which the context block itself shows instead: MCP ``memory_recall`` and ``memrepo recall`` handed the agent
the old city alone. Hybrid recall already brought a shown line's replacement (``semantic_fuse``); lexical recall,
in the store (MCP, the app) and in a new process (:mod:`.coldrecall`), now does the same with the block's rule.
"""

from __future__ import annotations

from pathlib import Path

from memrepo.engine.config import Settings
from memrepo.engine.models import Candidate
from memrepo.engine.read import coldrecall
from memrepo.engine.repo.store import MemoryStore

OLD = "I live in Lyon, France (timezone CET)"
NEW = "I moved to Montreal in 2026; my timezone is now EST"


def lexical_store(root: Path) -> MemoryStore:
    settings = Settings.model_validate({"writes": {"commit_hand_edits_after": 0}, "semantic": {"provider": "off"}})
    store = MemoryStore.open(root, settings)
    for text in (OLD, "My editor is Emacs", NEW):
        store.remember(Candidate(text=text, scope="global", by="user"))
    return store


def test_store_recall_lists_the_replacement_above_the_outdated_line(tmp_path: Path) -> None:
    store = lexical_store(tmp_path / "memory")
    texts = [hit.text for hit in store.recall("where do I live?")]
    assert store.recall_mode().mode == "lexical"
    assert NEW in texts and OLD in texts, texts
    assert texts.index(NEW) < texts.index(OLD), texts


def test_cold_recall_lists_the_replacement_above_the_outdated_line(tmp_path: Path) -> None:
    store = lexical_store(tmp_path / "memory")
    store.recall("live")  # the index built, as after a session's first search
    texts = [hit.text for hit in coldrecall.recall(store.root, "where do I live?")]
    assert NEW in texts and OLD in texts, texts
    assert texts.index(NEW) < texts.index(OLD), texts
