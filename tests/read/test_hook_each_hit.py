"""The prompt hook's hits each pass on their own (docs/recall.md, engine/read/recallnear.py ``each_answers``).

Hybrid recall's gate lets a query through on its best hit; the other hits of the fused list came along, also
lexical hits with any share of the query, so the hook's 2nd and 3rd hits were often unrelated to the 1st
(breaker4 F6). In the hook each hit now passes one of recall's per-hit rules alone: a lexical confidence of 0.3
of the minimum (as lexical recall lists a hit), or a place in the semantic list (``min_similarity``); its places
are filled from further down the fused list. ``memrepo recall`` and MCP list as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from memrepo.engine.config import SemanticSettings
from memrepo.engine.read import coldrecall
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallrank import HIT_SHARE, MIN_CONFIDENCE
from memrepo.engine.read.semantic_build import build_vectors

ANSWER = "Billing ledger invoices export nightly to the warehouse"
PART = "The warehouse dashboard shows weekly signups"
"""Holds one common word of the query's four: a confidence under 0.3 of the minimum."""
QUERY = "billing ledger invoices warehouse"


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others


def _repo(tmp_path: Path, extra: Sequence[str] = ()) -> Path:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    lines = [ANSWER, PART, *extra] + [
        f"Note {n} about the {('sync', 'demo', 'retro')[n % 3]} meeting" for n in range(40)
    ]
    lines += [f"Rack {n} of the warehouse holds spare disks" for n in range(12)]
    (root / "lessons.md").write_text("".join(f"- {line}\n" for line in lines), encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    index.close()
    return root


def test_the_lexical_hook_lists_what_recall_lists_over_the_share_of_the_minimum(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    listed = coldrecall.recall(root, QUERY, limit=3, min_confidence=0.0)
    assert listed[0].text == ANSWER and any(h.confidence < HIT_SHARE * MIN_CONFIDENCE for h in listed[1:])
    hook = coldrecall.recall(root, QUERY, limit=3, quick=True)
    assert [h.text for h in hook] == [h.text for h in coldrecall.recall(root, QUERY, limit=3)] == [ANSWER]


class Cosines:
    """Vectors with chosen cosines to every query: the answer 1.0, a close neighbour 0.95, a far one 0.7 (over the
    0.5 ``min_similarity`` of these tests), the others 0."""

    model_id = "test:cosines"

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        out = []
        for text in texts:
            if query or text.startswith("Billing"):
                out.append([1.0, 0.0])
            elif text.startswith("Accounts"):
                out.append([0.95, 0.31225])
            elif text.startswith("Office"):
                out.append([0.7, 0.71414])
            else:
                out.append([0.0, 1.0])
        return out


def test_the_hybrid_hook_leaves_out_lexical_hits_under_the_share_and_fills_its_places(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    close, far = "Accounts receivable closes on the 5th", "Office plants are watered on Mondays"
    root = _repo(tmp_path, [close, far])
    emb = Cosines()
    build_vectors(root, emb, 100)
    monkeypatch.setattr("memrepo.engine.read.semantic_once.make_embedder", lambda _settings: emb)
    settings = SemanticSettings.model_validate({"min_similarity": 0.5, "answer_similarity": 0.8, "size_slope": 0.0})
    listed = coldrecall.recall(root, QUERY, limit=4, semantic=settings)
    assert listed[0].mode == "hybrid" and listed[0].text == ANSWER
    weak = [h.text for h in listed if h.text not in (ANSWER, close, far)]
    assert weak and all("warehouse" in t for t in weak)  # an explicit recall lists lines holding only "warehouse"
    hook = coldrecall.recall(root, QUERY, limit=4, quick=True, semantic=settings)
    assert [h.text for h in hook] == [ANSWER, close, far]  # those left out; the neighbours keep their places
