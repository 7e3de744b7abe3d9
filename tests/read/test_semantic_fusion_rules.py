"""Hybrid recall's ranking rules (docs/architecture.md §4, engine/read/semantic_fuse.py and semantic_store.py):
what is embedded for an entry (its text and its context), the fusion constant, and the newer of two lines that say
the same taking the better place. The model is the small deterministic embedder of tests/helpers/semantic_fakes.py."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from helpers.semantic_fakes import ConceptEmbedder

from memrepo.engine.config import SemanticSettings
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallorder import shares_subject
from memrepo.engine.read.semantic_build import build_vectors
from memrepo.engine.read.semantic_fuse import DEPTH, SemanticRecall, newer_restated, rrf
from memrepo.engine.read.semantic_store import VectorStore, embedded_text, vectors_path


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others


def _repo(tmp_path: Path, files: dict[str, str]) -> tuple[Path, RecallIndex]:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    return root, index


def _fused(root: Path, index: RecallIndex, query: str, emb: ConceptEmbedder, limit: int = 5) -> list[str]:
    sem = SemanticRecall(root, SemanticSettings.model_validate({"min_similarity": 0.5, "answer_similarity": 0.6}), emb)
    try:
        found = index.search(query, limit=limit + DEPTH)
        pool = index.search(query, limit=limit + DEPTH, min_confidence=0.0)
        hits, info = sem.fuse(
            index, query, found, workspace_file=None, workspace_id=None, scoped=False, limit=limit, pool=pool
        )
    finally:
        sem.close()
    assert info.mode == "hybrid"
    return [index.row(iid)[3] for iid, _key in hits]


# -- what is embedded ------------------------------------------------------------------------------------------------


def test_an_entry_is_embedded_with_its_headings_after_its_text(tmp_path: Path) -> None:
    root, _index = _repo(
        tmp_path,
        {
            "workspaces/driver-app.md": "# driver-app\n\n## People\n\n- Owners: Mariana Lopes and Kwame Mensah\n",
            "lessons.md": "- Never deploy on Fridays\n",
        },
    )
    store = VectorStore(root)
    texts = sorted(text for _iid, text in store.reconcile(100))
    store.close()
    assert texts == ["Never deploy on Fridays", "Owners: Mariana Lopes and Kwame Mensah (driver-app People)"]


def test_the_embedded_context_is_one_line_and_bounded() -> None:
    assert embedded_text("Uses pnpm", "") == "Uses pnpm"
    assert embedded_text("Uses pnpm", "  web\n  app  ") == "Uses pnpm (web app)"
    long = embedded_text("Uses pnpm", "x" * 1000)
    assert long.startswith("Uses pnpm (") and len(long) == len("Uses pnpm ()") + 200


def test_a_project_named_only_in_the_heading_is_found_by_meaning(tmp_path: Path) -> None:
    # "invoices" is of the billing concept; the entry's own words are of none, its heading is.
    root, index = _repo(
        tmp_path,
        {
            "workspaces/billing.md": "# billing\n\n- Use the ledger v2 API for everything\n",
            "workspaces/tools.md": "# tools\n\n- Use the shared linter config for everything\n",
        },
    )
    assert index.search("where do invoices go", limit=5, min_confidence=0.0) == []
    build_vectors(root, ConceptEmbedder(), 100)
    assert _fused(root, index, "where do invoices go", ConceptEmbedder())[:1] == [
        "Use the ledger v2 API for everything"
    ]


def test_vectors_made_from_the_text_alone_are_made_again(tmp_path: Path) -> None:
    root, _index = _repo(tmp_path, {"MEMORY.md": "# Memory\n\n- Prefers pnpm\n- Drinks coffee\n"})
    emb = ConceptEmbedder()
    assert build_vectors(root, emb, 100) == 2
    db = sqlite3.connect(vectors_path(root))
    db.execute("UPDATE info SET v=? WHERE k='model'", (emb.model_id,))  # what a file of the last release holds
    db.commit()
    db.close()
    emb.embedded.clear()
    assert build_vectors(root, emb, 100) == 2
    assert sorted(emb.embedded) == ["Drinks coffee (Memory)", "Prefers pnpm (Memory)"]
    assert build_vectors(root, emb, 100) == 0  # and only once


# -- the fusion constant ---------------------------------------------------------------------------------------------


def test_the_first_semantic_neighbour_outranks_a_middling_match_of_both_lists() -> None:
    top, middling = 100, 200
    lexical = [1, 2, 3, 4, middling]
    semantic = [top, 5, 6, 7, 8, middling]
    assert rrf(lexical, semantic, 10, semantic_weight=1.5)[:2] == [top, middling]


# -- the newer of two lines that say the same ------------------------------------------------------------------------


def test_newer_restated_puts_the_newer_of_a_restated_pair_above() -> None:
    old, new, other = (1 << 32) | 1, (3 << 32) | 2, (2 << 32) | 3
    same = {frozenset((old, new))}

    def says_same(a: int, b: int) -> bool:
        return frozenset((a, b)) in same

    assert newer_restated([old, other, new], says_same, {old, new, other}) == [new, other, old]
    assert newer_restated([new, other, old], says_same, {old, new, other}) == [new, other, old]
    assert newer_restated([old, other, new], says_same, {old, other}) == [old, other, new]  # not matched lexically
    assert newer_restated([old, other, new], lambda a, b: False, {old, new, other}) == [old, other, new]


def test_a_superseded_line_with_no_subject_stays_under_its_replacement(tmp_path: Path) -> None:
    files = {
        "me.md": (
            "# About me\n\n"
            "- Team standup is at 9:30 every weekday on Google Meet [added: 2024-09-03]\n"
            "- Team standup moved to Slack huddles, a quarter past ten [added: 2025-03-03]\n"
        ),
    }
    root, index = _repo(tmp_path, files)
    query = "when is the daily standup meeting on google meet"
    lexical = [index.row(iid)[3] for iid, _k in index.search(query, limit=5, min_confidence=0.0)]
    assert lexical[0].startswith("Team standup is at 9:30")  # the old line holds more of the query
    build_vectors(root, ConceptEmbedder(), 100)
    got = _fused(root, index, query, ConceptEmbedder())
    assert got[:2] == [
        "Team standup moved to Slack huddles, a quarter past ten",
        "Team standup is at 9:30 every weekday on Google Meet",
    ]


def test_a_replaced_line_never_ranks_above_its_replacement_that_holds_no_query_word(tmp_path: Path) -> None:
    files = {
        "me.md": (
            "# About me\n\n"
            "- Uses npm for JavaScript projects [added: 2024-09-03]\n"
            "- Moved to pnpm everywhere [supersedes: Uses npm for JavaScript; added: 2025-03-03]\n"
        ),
    }
    root, index = _repo(tmp_path, files)
    query = "which npm flavor for javascript"  # the newer line holds none of these words: only its meaning is near
    lexical = [index.row(iid)[3] for iid, _k in index.search(query, limit=5, min_confidence=0.0)]
    assert lexical == ["Uses npm for JavaScript projects"]
    build_vectors(root, ConceptEmbedder(), 100)
    got = _fused(root, index, query, ConceptEmbedder())
    assert got == ["Moved to pnpm everywhere", "Uses npm for JavaScript projects"]


def test_lines_of_two_files_keep_their_order(tmp_path: Path) -> None:
    files = {
        "me.md": "# About me\n\n- Team standup is at 9:30 every weekday on Google Meet [added: 2024-09-03]\n",
        "notes/team.md": "# About me\n\n- Team standup moved to 10:15 in Slack huddles [added: 2025-03-03]\n",
    }
    root, index = _repo(tmp_path, files)
    query = "when is the daily standup meeting on google meet"
    build_vectors(root, ConceptEmbedder(), 100)
    got = _fused(root, index, query, ConceptEmbedder())
    assert got[0].startswith("Team standup is at 9:30")


def test_at_partial_coverage_a_semantic_rank_counts_as_its_rank_among_all_entries() -> None:
    # 3 is the semantic list's first, 1 and 2 the lexical list's; with every entry covered the first semantic
    # place wins (weight 1.5); with a fifth covered it stands for about the fifth place of all, under 1.
    assert rrf([1, 2], [3], 3, 1.5) == [3, 1, 2]
    assert rrf([1, 2], [3], 3, 1.5, covered=0.2, keep={1, 2, 3}) == [1, 3, 2]
    # Only the lexical hits with a vector are fused, at their ranks in the whole lexical list
    assert rrf([1, 2, 3], [], 3, 1.5, covered=0.5, keep={2, 3}) == [2, 3]


# -- the newer-wins rules see past the cut ---------------------------------------------------------------------------


def test_a_replacement_ranked_past_the_limit_still_takes_the_replaced_lines_place(tmp_path: Path) -> None:
    files = {
        "me.md": (
            "# About me\n\n"
            "- Uses npm for JavaScript projects [added: 2024-09-03]\n"
            "- Moved to pnpm everywhere [supersedes: Uses npm for JavaScript; added: 2025-03-03]\n"
        ),
    }
    root, index = _repo(tmp_path, files)
    build_vectors(root, ConceptEmbedder(), 100)
    # Fused, the old line is first (it is in both lists) and the newer one second: one hit asked for is the newer.
    assert _fused(root, index, "which npm flavor for javascript", ConceptEmbedder(), limit=1) == [
        "Moved to pnpm everywhere"
    ]


def test_a_restatement_ranked_past_the_limit_still_takes_the_older_lines_place(tmp_path: Path) -> None:
    files = {
        "me.md": (
            "# About me\n\n"
            "- Team standup is at 9:30 every weekday on Google Meet [added: 2024-09-03]\n"
            "- Team standup moved to Slack huddles, a quarter past ten [added: 2025-03-03]\n"
        ),
    }
    root, index = _repo(tmp_path, files)
    build_vectors(root, ConceptEmbedder(), 100)
    query = "when is the daily standup meeting on google meet"
    assert _fused(root, index, query, ConceptEmbedder(), limit=1) == [
        "Team standup moved to Slack huddles, a quarter past ten"
    ]


def test_two_lines_alike_in_meaning_but_about_different_things_keep_their_order(tmp_path: Path) -> None:
    # Both lines are of the deploy concept (cosine 0.99 under ConceptEmbedder) and share only "deploy", 1 of 5 terms:
    # two people's jobs, not one fact said twice (recallorder.shares_subject), so the newer one does not take the
    # older one's first place.
    files = {
        "me.md": (
            "# Team\n\n"
            "- Alice owns the production deploy and release alerts [added: 2024-09-03]\n"
            "- Bob runs the staging deploy on weekends [added: 2025-03-03]\n"
        ),
    }
    root, index = _repo(tmp_path, files)
    build_vectors(root, ConceptEmbedder(), 100)
    query = "who owns the production deploy"
    assert _fused(root, index, query, ConceptEmbedder(), limit=2) == [
        "Alice owns the production deploy and release alerts",
        "Bob runs the staging deploy on weekends",
    ]


def test_shares_subject_asks_for_a_quarter_of_the_shorter_lines_terms() -> None:
    assert shares_subject("Team standup is at 9:30", "Team standup moved to 10:15")
    assert shares_subject(
        "캐시는 Redis 6 단일 노드였다.", "캐시는 Redis 7 클러스터(3노드)로 옮겼다; 단일 노드 설정은 지웠다."
    )
    assert not shares_subject("王磊是上海团队的后端负责人", "陈静负责深圳工厂的设备对接")  # 负责, 1 of 8 bigrams
    assert not shares_subject(
        "Alice owns the production deploy and release alerts", "Bob runs the staging deploy on weekends"
    )
    assert shares_subject("Alice owns the deploy", "Bob runs the deploy")  # 1 of 3 terms
    assert not shares_subject("", "Bob runs the deploy")
