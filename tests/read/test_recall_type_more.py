"""A question asking for a birthday, an address, a version or a password is answered only by a line holding one
(rec12, issue 30).

"when is Jakub's birthday" over "Jakub Nowak leads the warehouse team in Poznań", "which Kotlin version does the
scanner app use" over "The scanner app is written in Kotlin": each line names what the question is about and
holds nothing of what it asks, yet recall, MCP and the prompt hook gave it as the answer (24 of the 55 no-answer
questions the hook answered on the tuning splits of benchmarks/recall_quality asked one of these). Such a
question's best hit must now hold the type, in lexical recall, hybrid recall and the hook alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.read import coldrecall
from memrepo.engine.read.recalltype import answers_type
from memrepo.engine.repo.store import MemoryStore


@pytest.mark.parametrize(
    ("query", "line", "answers"),
    [
        ("when is Jakub's birthday", "Jakub Nowak leads the warehouse team in Poznań since 2019", False),
        ("when is Jakub's birthday", "Jakub's birthday is on 14 March; he likes poppy-seed cake", True),
        ("when is Jakub's birthday", "Jakub was born on 14 March 1990", True),
        ("小林さんの誕生日はいつですか", "小林さんは広報担当です", False),
        ("小林さんの誕生日はいつですか", "小林さんの誕生日は5月3日", True),
        ("박지원 팀장님 생일", "박지원 팀장님은 물류팀을 맡고 있다", False),
        ("박지원 팀장님 생일", "박지원 팀장님 생신은 10월 2일", True),
        ("深圳工厂的地址是什么", "深圳工厂负责PCB组装", False),
        ("深圳工厂的地址是什么", "深圳工厂在宝安区福永街道 88 号", True),
        ("Zoë's home address", "Zoë is the designer on the booking app", False),
        ("Zoë's home address", "Zoë lives at Rue des Lilas 12, Lyon", True),
        ("which Kotlin version does the scanner app use", "The scanner app is written in Kotlin", False),
        ("which Kotlin version does the scanner app use", "The scanner app is on Kotlin 2.0", True),
        ("what version of BirdNET does the detector use", "The detector runs BirdNET on a Raspberry Pi", False),
        ("what version of BirdNET does the detector use", "The detector tracks BirdNET's latest release", True),
        ("what is the wifi password at the Stockholm office", "The Stockholm office is on Sveavägen", False),
        ("what is the wifi password at the Stockholm office", "Stockholm office wifi password: fika2024", True),
        ("서버 7호기 비밀번호", "서버 7호기는 백업 전용이다", False),
        ("what is the staging database password", "The staging password lives in the team vault", True),
    ],
)
def test_a_birthday_an_address_a_version_or_a_password_is_answered_by_a_line_holding_one(
    query: str, line: str, answers: bool
) -> None:
    assert answers_type(query, line) is answers


@pytest.mark.parametrize(
    ("query", "line"),
    [
        ("please address the review comments on the PR", "Review comments get an answer within a day"),
        ("what is Lars Østergaard's email address", "Lars Østergaard: lars@bloedgreb.dk"),
        ("王磊的邮箱地址是什么", "王磊: wanglei@huaxin.cn"),
        ("pin the dependency versions in the lockfile", "Dependencies are pinned with uv's lockfile"),
        ("when do we upgrade Kotlin", "The scanner app is written in Kotlin"),
        ("who keeps the keys to the depot", "Marta keeps the depot keys"),
    ],
)
def test_other_questions_need_no_such_type(query: str, line: str) -> None:
    assert answers_type(query, line)


def _store(tmp_path: Path, lines: tuple[str, ...]) -> Path:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for text in lines:
        assert store.remember(Candidate(text=text, by="user")).commit
    store.close()
    return store.root


def test_recall_and_the_hook_give_no_birthday_they_do_not_hold(tmp_path: Path) -> None:
    lines = ("Jakub Nowak leads the warehouse team in Poznań", "The warehouse opens at 6:00", "Standup is at 9:30")
    root = _store(tmp_path, lines)
    assert not [h for h in coldrecall.recall(root, "when is Jakub Nowak's birthday") if h.answer]
    assert not coldrecall.recall(root, "when is Jakub Nowak's birthday", limit=3, quick=True)  # the prompt hook
    hits = coldrecall.recall(root, "who leads the warehouse team")
    assert hits and hits[0].answer


def test_recall_answers_a_version_with_the_line_holding_it(tmp_path: Path) -> None:
    root = _store(tmp_path, ("The scanner app is written in Kotlin", "The scanner app uses Kotlin 2.0 since May"))
    hits = coldrecall.recall(root, "which Kotlin version does the scanner app use")
    assert hits and hits[0].answer and "2.0" in hits[0].text, [h.text for h in hits]


def test_a_hit_holding_as_much_of_the_question_as_the_best_may_hold_the_type() -> None:
    query = "what node version does the gateway use"
    best, tied = "The api-gateway is a Node.js service using Fastify", "api-gateway moved to Node 20 LTS in March"
    assert not answers_type(query, best)
    assert answers_type(query, best, tied)
    assert not answers_type(query, best, "The api-gateway is deployed to Kubernetes")


def test_lexical_recall_answers_when_a_hit_holding_as_much_of_the_question_holds_the_type(tmp_path: Path) -> None:
    lines = ("The api-gateway is a Node.js service using Fastify", "api-gateway moved to Node 20 LTS in March")
    root = _store(tmp_path, lines)
    hits = coldrecall.recall(root, "what node version does the api-gateway use")  # Node.js first, by its score
    assert hits and "Node 20" not in hits[0].text and hits[0].confidence <= hits[1].confidence
    assert hits[0].answer and any("Node 20" in h.text for h in hits if h.answer), [(h.text, h.answer) for h in hits]


class _Rows:
    """The one method of a recall index :func:`typed` reads: ``row(iid)`` -> (path, line, workspace, text)."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts

    def row(self, iid: int) -> tuple[str, int, None, str]:
        return ("MEMORY.md", iid + 1, None, self.texts[iid])


class _Info:
    answered = True


@pytest.mark.parametrize(
    ("keys", "answered"),
    [
        (((0.9, 0.47, 0), (0.8, 1.0, 0)), True),  # the next hit holds more of the question, and the version
        (((0.9, 0.47, 0), (0.8, 0.47, 0)), True),  # as much
        (((0.9, 0.47, 0), (0.8, 0.3, 0)), False),  # less: it does not count
        (((0.0, 0.0, 0), (0.8, 1.0, 0)), False),  # the best hit matched by meaning only: no lexical share to tie
    ],
)
def test_hybrid_recall_looks_past_its_best_hit_to_hits_holding_as_much(
    keys: tuple[tuple[float, float, int], ...], answered: bool
) -> None:
    from memrepo.engine.read.recalltype import typed

    index = _Rows(["The api-gateway is a Node.js service using Fastify", "api-gateway moved to Node 20 LTS"])
    out = [(iid, key) for iid, key in enumerate(keys)]
    info = _Info()
    got = typed(index, "what node version does the gateway use", out, info, related=False)
    assert info.answered is answered
    assert got == (out if answered else [])
