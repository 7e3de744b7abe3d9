"""The hybrid prompt hook (and so the recall door, which answers with it) never adds an outdated line alone
(breaker7 B7-19; engine/read/recallnear.py ``newer_with``).

Hybrid recall brings a shown line's replacement just above it (:mod:`memrepo.engine.read.recallnewer`), but the hook
then asks each hit to pass alone: a replacement holding none of the prompt's words and far from it by meaning was
dropped again, and the outdated line, which passed on its words, was added alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from memrepo.engine.config import SemanticSettings
from memrepo.engine.read import coldrecall
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.semantic_build import build_vectors

OLD = "Billing ledger invoices export nightly to the warehouse"
NEW = "Exports now go to S3 every hour"
QUERY = "billing ledger invoices warehouse"


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others


class Far:
    """Vectors that put every entry far from every query (no semantic neighbour): the hits pass on their words."""

    model_id = "test:far"

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        return [[1.0, 0.0] if query else [0.0, 1.0] for _text in texts]


def test_the_hybrid_hook_keeps_the_replacement_it_brought(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    lines = [f"{OLD} [subject: ledger-export]", *(f"Note {n} about the sync meeting" for n in range(30))]
    lines.append(f"{NEW} [subject: ledger-export]")
    (root / "lessons.md").write_text("".join(f"- {line}\n" for line in lines), encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    index.close()
    emb = Far()
    build_vectors(root, emb, 100)
    monkeypatch.setattr("memrepo.engine.read.semantic_once.make_embedder", lambda _settings: emb)
    settings = SemanticSettings.model_validate({"min_similarity": 0.5, "answer_similarity": 0.8, "size_slope": 0.0})
    listed = coldrecall.recall(root, QUERY, limit=3, semantic=settings)
    assert listed[0].mode == "hybrid" and [h.text for h in listed[:2]] == [NEW, OLD]  # recall brings it
    hook = coldrecall.recall(root, QUERY, limit=3, quick=True, semantic=settings)
    assert hook[0].mode == "hybrid" and [h.text for h in hook[:2]] == [NEW, OLD]
