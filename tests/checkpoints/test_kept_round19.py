"""What a session keeps, round 19 (issue 30, sess19): each case a cause heldout9 or breaker29 showed, read by its
structure, with phrasings of our own beside it.

- a new name in the slot of the line's named value, after a stale cue ("we're on Fly.io these days" for "Kestrel
  deploys to Heroku ...": :func:`.staleswap._name_in_slot`);
- an abbreviation of the line's name ("FCM didn't work out" for "... Firebase Cloud Messaging": ``namedold.initials``)
  and "moved X off Y to Z" (``oldvalue._FROM_TO_RE``); "Update on X: ..." is a heading, no task;
- a cue sentence whose kept statement leaves out its reason clause ("venerdì mattina, così il giovedì facciamo QA");
- a Chinese, Japanese or Korean end or span ("다음 달 말까지", "来月末まで", "周五之前": :mod:`.cjkdates`);
- a correction said in another language than its line, proposed (breaker29 B29-13: :mod:`.otherlang`);
- a hyphened identifier of the same family after a CJK change word ("S3じゃなくて ... bramble-archive に変わりました").

Each goes through the model-free distillation (``kept_statements``) and the placing (``place``), semantic off.
"""

from __future__ import annotations

from datetime import date

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.corrections import proposed_corrections
from memrepo.engine.checkpoints.otherlang import other_language_line
from memrepo.engine.checkpoints.userkept import kept_statements, place
from memrepo.engine.format.cjkdates import cjk_span
from memrepo.engine.format.relativedates import dated
from memrepo.engine.format.remembering import task
from memrepo.engine.format.unasked import unasked_statements


@pytest.fixture(autouse=True)
def _no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_SEMANTIC", "off")


def _lines(project: str, *texts: str, meta: dict[str, str] | None = None) -> list[ExistingEntry]:
    return [
        ExistingEntry(f"E{i}", f"workspaces/{project}.md", 3 + i, t, "user", {"by": "user", **(meta or {})})
        for i, t in enumerate(texts)
    ]


def _replaced(said: str, lines: list[ExistingEntry], project: str) -> list[tuple[str, str | None]]:
    out = []
    for kept in kept_statements([said], lines):
        target = place(kept.text, kept.kind, project, lines, [said])[1]
        out.append((kept.text, target.text if target else None))
    return out


KESTREL = _lines(
    "kestrel",
    "Kestrel deploys to Heroku with git push heroku main",
    "Kestrel is a Go service; build it with make build",
)


@pytest.mark.parametrize(
    "said",
    [
        "The deploy target you have for kestrel is out of date, we're on Fly.io these days.",
        "Your notes on kestrel deploys are stale, we deploy to Render now.",
        "Das Deployment-Ziel in deinen Notizen ist veraltet, wir deployen jetzt auf Fly.io.",
    ],
)
def test_a_new_name_in_the_slot_of_the_lines_name_replaces_it(said: str) -> None:
    assert [t for _k, t in _replaced(said, KESTREL, "kestrel")] == [KESTREL[0].text]


@pytest.mark.parametrize(
    "said",
    [
        "The deploy notes are stale, Bob handles deploys now.",  # a name as the subject: no slot's value
        "The deploy notes are stale, we deploy on Fridays now.",  # a day is no platform
        "The deploy docs are out of date, we're on Fly.io for previews and Heroku for production.",  # old still true
    ],
)
def test_a_name_that_is_no_value_of_the_slot_replaces_nothing(said: str) -> None:
    assert all(t != KESTREL[0].text for _k, t in _replaced(said, KESTREL, "kestrel"))


def test_moved_off_one_provider_to_another_replaces_the_line() -> None:
    lines = _lines(
        "lynx", "Lynx push notifications go through OneSignal", "Lynx targets iOS 16 and Android 10+ clients"
    )
    said = "Heads up, we moved lynx push notifications off OneSignal to Firebase Cloud Messaging."
    assert [t for _k, t in _replaced(said, lines, "lynx")] == [lines[0].text]


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("Lynx push notifications go through Firebase Cloud Messaging",
         "Update on the push provider for lynx: FCM didn't work out for iOS, we settled on Amazon SNS."),
        ("Lynx push notifications go through Firebase Cloud Messaging",
         "We dropped FCM for push notifications, they go through Amazon SNS now."),
        ("Our infra runs on Amazon Web Services in eu-west-1",
         "We left AWS last month, the infra runs on Google Cloud now."),
    ],
)  # fmt: skip
def test_an_abbreviation_of_the_lines_name_names_it(line: str, said: str) -> None:
    lines = _lines("lynx", line, "Lynx targets iOS 16 and Android 10+ clients")
    assert [t for _k, t in _replaced(said, lines, "lynx")] == [line]


def test_an_abbreviation_said_as_true_replaces_nothing() -> None:
    lines = _lines("lynx", "Lynx push notifications go through Firebase Cloud Messaging")
    assert _replaced("FCM works fine for push notifications, and Amazon SNS handles email.", lines, "lynx") == []


def test_a_heading_before_a_colon_is_no_task() -> None:
    assert not task("Update on the push provider for lynx: FCM didn't work out")
    assert task("Update the docs on the push provider")


def test_a_cue_statement_less_its_reason_clause_still_finds_its_line() -> None:
    lines = _lines("puffin", "i rilasci di puffin li facciamo il giovedì", meta={"supersedes": "Il rilascio di puffin"})
    said = "Ultima modifica sul giorno dei rilasci: venerdì mattina, così il giovedì facciamo QA."
    assert _replaced(said, lines, "puffin") == [
        ("Ultima modifica sul giorno dei rilasci: venerdì mattina", lines[0].text)
    ]


SAID_ON = date(2026, 12, 5)  # a Saturday


@pytest.mark.parametrize(
    ("said", "until"),
    [
        ("다음 달 말까지 lynx 베타 빌드는 TestFlight 대신 Firebase App Distribution으로 배포해요.", "2027-01-31"),
        ("금요일까지 스테이징 서버는 점검 중이에요.", "2026-12-11"),
        ("앞으로 3주 동안 코드 리뷰는 민수가 맡아요.", "2026-12-26"),
        ("来月末まで lynx のベータビルドは Firebase App Distribution で配布します。", "2027-01-31"),
        ("12月20日まで 決済サンドボックスは停止中です。", "2026-12-20"),
        ("下个月底之前 lynx 的测试版通过 Firebase App Distribution 发布。", "2027-01-31"),
        ("接下来三周 代码评审由小王负责。", "2026-12-26"),
    ],
)
def test_a_cjk_end_or_span_first_keeps_a_dated_notice(said: str, until: str) -> None:
    kept = unasked_statements([said])
    assert len(kept) == 1
    assert dated(kept[0], SAID_ON).until == until
    assert until in dated(kept[0], SAID_ON).text


@pytest.mark.parametrize(
    "said",
    [
        "금요일까지 이 버그 고쳐 주세요.",
        "金曜日までにこのバグを直してください。",
        "周五之前修好这个 bug。",
        "다음 달 말까지 뭐 해요?",
    ],
)
def test_a_cjk_deadline_for_a_task_or_a_question_keeps_nothing(said: str) -> None:
    assert unasked_statements([said]) == []


def test_a_cjk_day_that_is_no_date_is_no_span() -> None:
    assert cjk_span("2월 30일까지 점검 중이에요", SAID_ON) is None


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("The shop's staging database is called olive", "Die Staging-Datenbank heißt jetzt juniper."),
        ("The deploy window is Tuesday", "El deploy window ahora es el miércoles."),
        ("The deploy window is Tuesday", "Das Deploy-Fenster ist jetzt am Mittwoch."),
        ("The staging database is called olive", "La base de datos de staging ahora se llama juniper."),
    ],
)
def test_a_correction_in_another_language_is_proposed_for_its_line(line: str, said: str) -> None:
    lines = _lines("shop", line, "The shop runs on Django 5")
    assert kept_statements([said], lines) == []  # never written as the user's at once
    assert proposed_corrections([said], lines) == [said.rstrip(".")]
    assert other_language_line(said.rstrip("."), lines) == lines[0]


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("The deploy window is Tuesday", "Ich bin jetzt am Mittwoch im Büro."),  # no word of the line's subject
        ("The deploy window is Tuesday", "El deploy window es el martes, ahora lo sé."),  # the same value
        ("The staging database is called olive", "Mein Hund heißt jetzt Bello."),
        ("The staging database is called olive", "The staging database is called juniper now."),  # one language
    ],
)
def test_no_other_language_value_proposes_nothing(line: str, said: str) -> None:
    assert other_language_line(said.rstrip("."), _lines("shop", line)) is None


BRAMBLE = _lines(
    "bramble", "bramble のログは S3 バケット bramble-logs に保存する", "Bramble's DAGs live under dags/bramble"
)


@pytest.mark.parametrize(
    "said",
    [
        "さっき伝えたログの保存先、S3じゃなくてGCSのバケット bramble-archive に変わりました。",
        "ログの保存先は bramble-archive に変わりました。",
    ],
)
def test_an_identifier_of_the_same_family_after_a_cjk_change_replaces_the_line(said: str) -> None:
    assert [t for _k, t in _replaced(said, BRAMBLE, "bramble")] == [BRAMBLE[0].text]


def test_the_old_identifier_said_as_true_replaces_nothing() -> None:
    assert _replaced("bramble のログは bramble-archive じゃなくて bramble-logs です。", BRAMBLE, "bramble") == []


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("Ugh, you added `# type: ignore` again. In this codebase we don't silence mypy, fix the type instead.",
         "In this codebase we don't silence mypy, fix the type instead (not `# type: ignore`)"),
        ("Du hast schon wieder `console.log` drin gelassen. In diesem Projekt loggen wir nie mit Debug-Ausgaben, "
         "nimm den Logger.", "In diesem Projekt loggen wir nie mit Debug-Ausgaben, nimm den Logger (not `console.log`)"),
        ("Tu as encore mis `print()` partout. À partir de maintenant, ne laisse jamais de traces de debug dans le code.",
         "ne laisse jamais de traces de debug dans le code (not `print()`)"),
    ],
)  # fmt: skip
def test_a_rule_after_a_complaint_of_code_done_again_names_that_code(said: str, rule: str) -> None:
    assert [(k.text, k.kind) for k in kept_statements([said], [])] == [(rule, "rule")]


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("You added `# type: ignore` again. From now on, always run mypy before pushing.",
         "always run mypy before pushing"),  # forbids nothing
        ("You used `any` again. From now on, never use any in TypeScript, write the type.",
         "never use any in TypeScript, write the type"),  # names the code itself
        ("I added `# type: ignore` again. From now on, never silence mypy.", "never silence mypy"),  # no complaint
    ],
)  # fmt: skip
def test_a_rule_without_such_a_complaint_is_kept_as_said(said: str, rule: str) -> None:
    assert [(k.text, k.kind) for k in kept_statements([said], [])] == [(rule, "rule")]
