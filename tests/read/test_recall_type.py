"""A question asking "how many" or "how much" is answered only by a line holding a number (rec10, issue 30).

"how many people work at Parcelwise" over "I'm Tomás Okafor, a backend developer at Parcelwise": the line names
Parcelwise and nothing else of the question, yet held over the confidence minimum, so recall, MCP and the prompt
hook gave it as the answer (one of 47 such no-answer questions of the tuning splits). Now such a question's best hit
must hold a number, in lexical recall and in hybrid recall alike; a question asking anything else is unchanged.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from helpers.semantic_fakes import ConceptEmbedder

from memrepo.engine.config import SemanticSettings
from memrepo.engine.models import Candidate
from memrepo.engine.read import coldrecall
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recalltype import answers_type, asks_quantity, holds_number
from memrepo.engine.read.semantic_build import build_vectors
from memrepo.engine.read.semantic_fuse import DEPTH, SemanticRecall
from memrepo.engine.repo.store import MemoryStore

PERSON = "Tomás Okafor works at Parcelwise as a backend developer"
COUNT = "Parcelwise has 40 people working in Lisbon and Porto"


def _store(tmp_path: Path, lines: tuple[str, ...]) -> Path:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for text in lines:
        assert store.remember(Candidate(text=text, by="user")).commit
    store.close()
    return store.root


@pytest.mark.parametrize(
    "query",
    [
        "how many people work at Parcelwise",
        "How much did the band pay for mastering?",
        "ok, and how many kids come to the club",
        "李娜的手机号是多少",
        "打样要几天",
        "서버는 몇 호기야",
        "연봉은 얼마야",
        "参加者は何人ですか",
    ],
)
def test_a_question_asking_for_a_quantity_is_told_apart(query: str) -> None:
    assert asks_quantity(query)


@pytest.mark.parametrize(
    "query",
    [
        "who works at Parcelwise",
        "Figure out how much memory the nightly job uses and trim it",  # a task naming it mid-sentence
        "他几乎每天都来",  # 几乎: "almost"
        "when is the standup",
    ],
)
def test_other_questions_ask_for_no_quantity(query: str) -> None:
    assert not asks_quantity(query)


@pytest.mark.parametrize("text", ["40 people", "forty people", "a dozen drivers", "四十人", "２０台", "twice a week"])
def test_a_number_in_any_script_or_word_is_held(text: str) -> None:
    assert holds_number(text)


def test_a_line_without_a_number_holds_none() -> None:
    assert not holds_number(PERSON)
    assert not answers_type("how many people work at Parcelwise", PERSON)
    assert answers_type("how many people work at Parcelwise", COUNT)
    assert answers_type("who works at Parcelwise", PERSON)


def test_lexical_recall_gives_no_answer_without_a_number(tmp_path: Path) -> None:
    root = _store(tmp_path, (PERSON, "Parcelwise ships parcels with cargo bikes", "The standup is at 10:00"))
    assert not [h for h in coldrecall.recall(root, "how many people work at Parcelwise") if h.answer]
    assert not coldrecall.recall(root, "how many people work at Parcelwise", limit=3, quick=True)  # the prompt hook
    hits = coldrecall.recall(root, "who is the backend developer at Parcelwise")
    assert hits and hits[0].text == PERSON and hits[0].answer


def test_lexical_recall_answers_with_the_line_holding_the_number(tmp_path: Path) -> None:
    root = _store(tmp_path, (PERSON, COUNT))
    hits = coldrecall.recall(root, "how many people work at Parcelwise")
    assert hits and hits[0].text == COUNT and hits[0].answer, [h.text for h in hits]


@pytest.fixture
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others


def _hybrid(tmp_path: Path, lines: list[str]) -> tuple[SemanticRecall, RecallIndex]:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    (root / "MEMORY.md").write_text("".join(f"- {line}\n" for line in lines), encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    emb = ConceptEmbedder()
    build_vectors(root, emb, 100)
    settings = SemanticSettings.model_validate({"min_similarity": 0.5, "answer_similarity": 0.6, "size_slope": 0.0})
    return SemanticRecall(root, settings, emb), index


@pytest.mark.usefixtures("semantic_on")
@pytest.mark.parametrize("related", [False, True])
def test_hybrid_recall_gives_no_answer_without_a_number(tmp_path: Path, related: bool) -> None:
    sem, index = _hybrid(tmp_path, ["Drinks coffee black, no sugar", "Deploys go through the staging cluster first"])
    query = "how many coffees does she drink a day"
    found = index.search(query, limit=5 + DEPTH)
    hits, info = sem.fuse(
        index, query, found, workspace_file=None, workspace_id=None, scoped=False, limit=5, related=related
    )
    assert info.mode == "hybrid" and not info.answered
    assert bool(hits) == related  # the nearest entries, marked as not an answer, only when asked for
    hits, info = sem.fuse(
        index,
        "what coffee does she drink",
        index.search("what coffee does she drink", limit=15),
        workspace_file=None,
        workspace_id=None,
        scoped=False,
        limit=5,
    )
    assert info.answered and index.row(hits[0][0])[3] == "Drinks coffee black, no sugar"
    sem.close()


@pytest.mark.usefixtures("semantic_on")
def test_hybrid_recall_answers_a_quantity_with_the_number(tmp_path: Path) -> None:
    sem, index = _hybrid(tmp_path, ["Drinks coffee black, no sugar", "Drinks three espresso a day, never after 4pm"])
    query = "how many coffees does she drink a day"
    hits, info = sem.fuse(
        index, query, index.search(query, limit=15), workspace_file=None, workspace_id=None, scoped=False, limit=5
    )
    assert info.answered and index.row(hits[0][0])[3] == "Drinks three espresso a day, never after 4pm"
    sem.close()


@pytest.mark.parametrize(
    ("query", "line", "answers"),
    [
        ("what is Yara's phone number", "Yara runs the Porto warehouse", False),
        ("what is Yara's phone number", "Yara: +351 912 345 678", True),
        ("what is Yara's phone number", "Yara prefers a phone call to e-mail", True),
        ("李娜的手机号是多少", "对接人是运营总监李娜，平时用微信联系。", False),
        ("大阪倉庫の電話番号は？", "大阪倉庫は 06-1234-5678", True),
        ("what is Lars Østergaard's email address", "Lars Østergaard is their ML engineer", False),
        ("what is Lars Østergaard's email address", "Lars Østergaard: lars@bloedgreb.dk", True),
        ("what is her email", "She answers e-mails only on Mondays", True),
        ("王磊的邮箱地址是什么", "从2025年9月起，华鑫电子的对接人换成王磊", False),
        (
            "phone battery drain from GPS tracking",
            "GPS polling every second drains the battery",
            True,
        ),  # asks no number
        (
            "Draft an email to the client in Tokyo",
            "The Tokyo client wants replies in Japanese",
            True,
        ),  # asks no address
    ],
)
def test_a_phone_number_or_an_email_address_is_answered_by_a_line_holding_one(
    query: str, line: str, answers: bool
) -> None:
    assert answers_type(query, line) is answers


def test_lexical_recall_gives_no_phone_number_it_does_not_hold(tmp_path: Path) -> None:
    lines = (
        "Ditte Bækgaard is the lead engineer at Blødgreb",
        "The invoice number goes in the subject line",
        "Standup is at 10:00 on Mondays",
    )
    root = _store(tmp_path, lines)
    assert not [h for h in coldrecall.recall(root, "Ditte Bækgaard phone number") if h.answer]
    root = _store(tmp_path / "two", ("Ditte Bækgaard's phone number is +45 20 12 34 56",))
    hits = coldrecall.recall(root, "Ditte Bækgaard phone number")
    assert hits and hits[0].answer
