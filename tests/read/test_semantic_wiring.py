"""Hybrid recall through the public API (docs/architecture.md §4, §5): MemoryRepo (the MCP server's and the app's
path) fuses, says which mode answered, and forget and compaction take an entry's vector with its text. The model is
the fake OpenAI-compatible server on 127.0.0.1 (the real request and response format)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from helpers.semantic_fakes import fake_openai_server

from memrepo.engine.config import Settings
from memrepo.engine.models import Candidate, RecallMode
from memrepo.engine.read.coldrecall import recall as cold_recall
from memrepo.engine.read.semantic_store import vectors_path
from memrepo.engine.repo.repo import MemoryRepo
from memrepo.engine.repo.store import MemoryStore
from memrepo.mcpserver.recallanswer import mode_line
from memrepo.tui.search import mode_label

PNPM = "Prefers pnpm over npm for JavaScript projects"
COFFEE = "Drinks coffee black, no sugar"


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others


def _settings(url: str) -> Settings:
    settings = plain_settings()
    settings.semantic = settings.semantic.model_validate(
        {"provider": "openai", "min_similarity": 0.5, "answer_similarity": 0.6, "openai": {"base_url": url}}
    )
    return settings


async def _filled(root: Path, settings: Settings) -> MemoryRepo:
    repo = await MemoryRepo.open(root, settings)
    for text, kind in ((PNPM, "preference"), (COFFEE, "preference"), ("Deploys go through staging first", "rule")):
        await repo.remember(Candidate(text=text, kind=kind, scope="global", by="user"))
    return repo


def _built(repo: MemoryRepo) -> None:
    semantic = repo._store.reads.semantic
    assert semantic is not None
    builder = semantic.builder()
    assert builder is not None
    builder.wait(120)


async def test_memory_repo_answers_hybrid_once_vectors_exist_and_says_so(tmp_path: Path) -> None:
    with fake_openai_server() as (url, _record):
        repo = await _filled(tmp_path / "mem", _settings(url))
        try:
            hits = await repo.recall("pnpm")  # the first recall starts the build: lexical until it is done
            assert hits and hits[0].text == PNPM
            _built(repo)
            hits = await repo.recall("which JS package manager do I use")
            assert hits[0].text == PNPM and hits[0].mode == "hybrid"
            mode = await repo.recall_mode()
            assert mode == RecallMode(mode="hybrid", covered=1.0, note=None)
        finally:
            await repo.close()


async def test_a_new_write_gets_its_vector_after_the_next_recall(tmp_path: Path) -> None:
    with fake_openai_server() as (url, record):
        repo = await _filled(tmp_path / "mem", _settings(url))
        try:
            await repo.recall("pnpm")
            _built(repo)
            await repo.remember(Candidate(text="Invoices go out on the first", kind="fact", scope="global", by="user"))
            await repo.recall("pnpm")  # the index moved: this recall starts the build
            _built(repo)
            await repo.recall("pnpm")
            assert (await repo.recall_mode()).covered == 1.0
            embedded = [t for _h, body in record.requests for t in body["input"]]
            new = [t for t in embedded if t.startswith("Invoices go out on the first")]
            assert new == ["Invoices go out on the first (About me)"]  # incremental: once, with its heading
        finally:
            await repo.close()


async def test_an_endpoint_down_gives_lexical_hits_and_one_line(tmp_path: Path) -> None:
    with fake_openai_server() as (url, _record):
        repo = await _filled(tmp_path / "mem", _settings(url))
        await repo.recall("pnpm")
        _built(repo)
    try:
        hits = await repo.recall("pnpm")  # the server is gone
        assert hits and hits[0].text == PNPM and hits[0].mode == "lexical"
        mode = await repo.recall_mode()
        assert mode.mode == "lexical" and mode.note is not None and "cannot be reached" in mode.note
        assert mode_line(mode).startswith("(lexical recall: embedding endpoint")
        assert mode_label(mode).startswith(" · lexical: embedding endpoint")
    finally:
        await repo.close()


def _vector_ids(root: Path) -> set[int]:
    db = sqlite3.connect(vectors_path(root))
    try:
        return {iid for (iid,) in db.execute("SELECT id FROM vec")}
    finally:
        db.close()


async def test_forget_and_compaction_take_the_vector_with_the_text(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    with fake_openai_server() as (url, _record):
        repo = await _filled(root, _settings(url))
        try:
            await repo.recall("coffee")
            _built(repo)
            index = repo._store.reads.recall_index()
            (coffee_id,) = [iid for iid, _k in index.search("coffee black", limit=1)]
            db = sqlite3.connect(vectors_path(root))
            blob = db.execute("SELECT v FROM vec WHERE id=?", (coffee_id,)).fetchone()[0]
            db.close()
            assert coffee_id in _vector_ids(root)
        finally:
            await repo.close()
    store = MemoryStore.open(root, plain_settings(), create=False)
    (hit,) = [h for h in store.recall("coffee black") if h.text == COFFEE]
    store.forget(hit.ref, origin="cli")
    assert coffee_id not in _vector_ids(root) and len(_vector_ids(root)) == 2
    store.compact()
    assert blob not in vectors_path(root).read_bytes()
    assert len(_vector_ids(root)) == 2  # the others stay


def test_a_one_shot_recall_is_lexical_and_loads_no_model(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    store = MemoryStore.open(root, Settings(), create=True)  # [semantic] auto: the CLI still never fuses
    store.remember(Candidate(text=PNPM, kind="preference", scope="global", by="user"))
    hits = store.recall("pnpm")
    assert hits[0].mode == "lexical" and store.recall_mode() == RecallMode()
    cold = cold_recall(root, "pnpm")
    assert cold[0].as_dict()["mode"] == "lexical"
    assert store.reads.semantic is None  # no model, no vectors, no build in a one-shot process


def test_the_mode_line_of_a_hybrid_answer() -> None:
    mode = RecallMode(mode="hybrid", covered=0.374)
    assert mode_line(mode) == "(hybrid recall: lexical and semantic, 37% of entries have vectors)"
    assert mode_label(mode) == " · hybrid (37% with vectors)"
    assert mode_line(RecallMode()) == "" and mode_label(RecallMode()) == ""


def test_the_vectors_file_is_private_whatever_the_umask(tmp_path: Path) -> None:
    """Every derived file is 0600 (docs/architecture.md §3); vectors.sqlite was made 0644 under a 022 umask."""
    import stat

    from memrepo.engine.read.semantic_store import VectorStore

    old = os.umask(0o022)
    try:
        store = VectorStore(tmp_path, tmp_path / "vectors.sqlite")
    finally:
        os.umask(old)
    store.close()
    assert stat.S_IMODE((tmp_path / "vectors.sqlite").stat().st_mode) == 0o600
    (tmp_path / "vectors.sqlite").chmod(0o644)  # a file made before
    VectorStore(tmp_path, tmp_path / "vectors.sqlite").close()
    assert stat.S_IMODE((tmp_path / "vectors.sqlite").stat().st_mode) == 0o600
