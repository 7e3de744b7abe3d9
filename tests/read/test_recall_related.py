"""Recall's nearest entries (docs/architecture.md §4): with ``related``, a query nothing answers confidently gets
up to three entries marked ``answer`` False instead of nothing; without it (the default, the prompt hook) nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.semantic_fakes import ConceptEmbedder

from memrepo.engine.config import SemanticSettings
from memrepo.engine.read import coldrecall
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallnear import RELATED_MAX, search
from memrepo.engine.read.semantic_build import build_vectors
from memrepo.engine.read.semantic_fuse import SemanticRecall
from memrepo.engine.repo.store import MemoryStore

ENTRIES = {
    "MEMORY.md": "# Memory\n\n- Prefers pnpm over npm for JavaScript projects\n- Drinks coffee black, no sugar\n",
    "lessons.md": "# Lessons\n\n- Deploys go through the staging cluster first\n",
}
NO_ANSWER = "which grinder settings suit the espresso machine coffee beans"
"""Holds one word of an entry ("coffee") and nothing of its meaning: under the confidence minimum."""


def _write(root: Path, files: dict[str, str] = ENTRIES) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def test_a_question_with_no_confident_answer_gets_marked_nearest_entries_only_when_asked(store: MemoryStore) -> None:
    _write(store.root)
    assert store.recall(NO_ANSWER) == []  # the default: nothing, as before
    near = store.recall(NO_ANSWER, related=True)
    assert [h.text for h in near] == ["Drinks coffee black, no sugar"]
    assert [h.answer for h in near] == [False]
    assert near[0].confidence > 0.0
    assert near[0].model_dump()["answer"] is False  # --json and the MCP carry the mark


def test_a_confident_answer_is_the_same_with_related_and_marked_an_answer(store: MemoryStore) -> None:
    _write(store.root)
    plain = store.recall("pnpm npm")
    asked = store.recall("pnpm npm", related=True)
    assert [h.text for h in asked] == [h.text for h in plain] == ["Prefers pnpm over npm for JavaScript projects"]
    assert all(h.answer for h in asked)


def test_a_lower_minimum_lists_the_weak_hits_but_marks_them_no_answer_on_every_path(store: MemoryStore) -> None:
    _write(store.root)
    (store.root / "lessons.md").write_text(
        "# Lessons\n\n- Deploys go through the staging cluster first\n- The staging coffee machine is broken\n",
        encoding="utf-8",
    )
    question = "how do deploys reach the staging cluster safely"  # the coffee line holds "staging" only
    want = [("Deploys go through the staging cluster first", True), ("The staging coffee machine is broken", False)]
    assert [h.text for h in store.recall(question)] == [want[0][0]]  # the minimum leaves the weak hit out
    for related in (False, True):
        shown = store.recall(question, min_confidence=0.0, related=related)  # the store: MCP, the app
        assert [(h.text, h.answer) for h in shown] == want
        cold = coldrecall.recall(store.root, question, min_confidence=0.0, related=related)  # `memrepo recall --all`
        assert [(h.text, h.answer) for h in cold] == want
    # No answer at the minimum: with it lowered every match is listed, none of them an answer.
    coffee = {"Drinks coffee black, no sugar", "The staging coffee machine is broken"}
    for weak in (
        store.recall(NO_ANSWER, min_confidence=0.0),
        coldrecall.recall(store.root, NO_ANSWER, min_confidence=0.0),
    ):
        assert {h.text for h in weak} == coffee and not any(h.answer for h in weak)
    # A caller's own minimum is the one that says what answers: under a lower one the coffee line answers too.
    lower = store.recall(question, min_confidence=0.2)
    assert [(h.text, h.answer) for h in lower] == [(want[0][0], True), (want[1][0], True)]


def test_related_gives_nothing_when_no_query_word_is_in_memory(store: MemoryStore) -> None:
    _write(store.root)
    assert store.recall("quantum chromodynamics lecture", related=True) == []


def test_related_gives_at_most_three_nearest_entries(store: MemoryStore) -> None:
    lines = "".join(f"- Coffee note number {i} about something else entirely [by: user]\n" for i in range(8))
    _write(store.root, {"notes.md": f"# Notes\n\n{lines}"})
    assert store.recall(NO_ANSWER) == []
    near = store.recall(NO_ANSWER, related=True)
    assert len(near) == RELATED_MAX == 3
    assert not any(h.answer for h in near)


def test_the_cold_path_marks_the_same_nearest_entries_and_gives_none_by_default(store: MemoryStore) -> None:
    _write(store.root)
    root = store.root
    assert coldrecall.recall(root, NO_ANSWER) == []  # the prompt hook's call: never the nearest entries
    cold = [h.as_dict() for h in coldrecall.recall(root, NO_ANSWER, related=True)]
    warm = [h.model_dump() for h in store.recall(NO_ANSWER, related=True)]
    assert cold == warm
    assert [h["answer"] for h in cold] == [False]
    assert coldrecall.recall(root, "pnpm npm", related=True)[0].answer is True


@pytest.fixture
def hybrid(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    _write(root)
    index = RecallIndex(root)
    index.sync()
    emb = ConceptEmbedder()
    build_vectors(root, emb, 100)
    # every neighbour of a question about nothing in memory is under answer_similarity
    settings = SemanticSettings.model_validate({"min_similarity": 0.3, "answer_similarity": 0.95})
    sem = SemanticRecall(root, settings, emb)
    yield index, sem
    sem.close()
    index.close()


def test_hybrid_gives_the_fused_list_the_gate_held_back_marked_only_when_asked(hybrid) -> None:
    index, sem = hybrid
    scope = (None, None, False)
    found, info, answered = search(index, sem, "quantum chromodynamics lecture", scope, 10)
    assert (found, answered, info.mode if info else None) == ([], False, "hybrid")
    found, info, answered = search(index, sem, "quantum chromodynamics lecture", scope, 10, related=True)
    assert answered is False and info is not None and info.answered is False
    assert 0 < len(found) <= RELATED_MAX  # cosine neighbours over min_similarity, though no word matched
    found, _info, answered = search(index, sem, "pnpm npm", scope, 10, related=True)
    assert answered is True and index.row(found[0][0])[3].startswith("Prefers pnpm")


def test_hybrid_with_a_lower_minimum_lists_every_hit_and_marks_them_as_it_would_answer(hybrid) -> None:
    index, sem = hybrid
    scope = (None, None, False)
    # One weak word ("staging") and no neighbour close enough: nothing answers at the minimum. With it lowered every
    # match and neighbour is listed, none of them an answer.
    question = "quantum chromodynamics lecture notes on staging"
    plain, _info, answered = search(index, sem, question, scope, 10)
    assert (plain, answered) == ([], False)
    found, info, answered = search(index, sem, question, scope, 10, 0.0)
    assert info is not None and info.mode == "hybrid" and answered is False
    texts = [index.row(iid)[3] for iid, _k in found]
    assert "Deploys go through the staging cluster first" in texts
    assert found.answers() == frozenset()
    shown, _info, _answered = search(index, sem, question, scope, 10, 0.0, related=True)
    assert [iid for iid, _k in shown] == [iid for iid, _k in found]
    # A question the minimum answers: the fused list answers, as without the lower minimum.
    found, info, answered = search(index, sem, "pnpm npm", scope, 10, 0.0)
    assert answered is True and index.row(found[0][0])[3].startswith("Prefers pnpm")
    assert found.answers() == frozenset(iid for iid, _k in found)


def test_a_scan_while_the_index_builds_marks_its_nearest_entries_too(tmp_path: Path) -> None:
    from helpers.repo_helpers import plain_settings

    from memrepo.engine.read.recall import CHILD_BUILD_FILES

    root = tmp_path / "big"
    MemoryStore.open(root, plain_settings())
    (root / "topics").mkdir()
    for f in range(CHILD_BUILD_FILES):
        (root / "topics" / f"t{f:04d}.md").write_text(f"# T{f}\n\n- Note {f} about sailing [by: agent]\n")
    (root / "topics" / "t0203.md").write_text("# Boats\n\n- The harbour kayak rental closes at six [by: user]\n")
    question = "when does the harbour ferry leave on sundays"  # one weak word of four: no confident answer
    started: list[Path] = []
    store = MemoryStore.open(root, plain_settings())
    store.build_in_background(started.append)  # starts nothing: the index stays unbuilt, recall scans
    assert store.recall(question) == []
    near = store.recall(question, related=True)
    assert [(h.text, h.answer) for h in near] == [("The harbour kayak rental closes at six", False)]
    assert near[0].scan is not None
    cold = coldrecall.recall(root, question, start_build=started.append, related=True)
    assert [(h.text, h.answer, h.scan is not None) for h in cold] == [(near[0].text, False, True)]
    assert coldrecall.recall(root, question, start_build=started.append) == []
