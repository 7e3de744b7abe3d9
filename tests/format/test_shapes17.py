"""Statements a session holds that no reader heard, by cause (issue 30, sess17; heldout8 read by cause).

Each test names one mechanism, not one wording; the wordings are invented (none from a benchmark set), each
positive fails on the code before sess17, each look-alike keeps nothing.

- A state said with its END AFTER it: the end's place in the sentence is no part of the rule ("the payments
  sandbox is down until December 20, so mock the gateway"); before, an end was read only at a sentence's start.
- "keep in mind" before a bare STATEMENT OF STATE whose subject is not the work at hand ("so keep in mind the
  health check lives under /v2"), and "remember" before one, whatever its verb ("Remember the backup job runs
  pg_dump"), past a pasted block; before, only before "that", a colon, "we/our/my" or "the X is".
- A project's practice with its SUBJECT DROPPED, read by the verb's person or tense ("W tym projekcie używamy
  Poetry", "이 프로젝트에서는 ... 저장해요"); before, only "we"/"wir"/"nous" ... after the opener was a practice.
- A preference after a short LEAD clause, read by every reader ("Quick thing first: whenever you ..."), FRONTED with
  the first person after its verb ("Abkürzungen mag ich gar nicht"), or with the first person DROPPED and two ways
  compared ("説明は長い文章より箇条書きのほうが好きです"); before, each needed the preference verb first or a pronoun.
- An order after "always"/"never" read by the OBJECT after its verb, not a list of verbs ("Always query the read
  replica"), and after a short SCOPE ("For the dashboards always ..."); a pasted secret in it stays redacted and the
  sentence is kept; before, "query" was no listed verb and a scope first hid the order.
- The user's WAY OF WORKING as the reason for an order ("I read most diffs on a tablet, so keep each change small"):
  a habit in the present, "so", an order; before, only a verb of liking made a preference.
"""

from __future__ import annotations

from datetime import date

import pytest

from memrepo.engine.checkpoints.userkept import kept_statements, place
from memrepo.engine.format.relativedates import dated


@pytest.mark.parametrize(
    "said",
    [
        "FYI the billing sandbox is down for maintenance until March 12, so stub the gateway in tests till then",
        "Heads-up: the shared GPU box is reserved for the data team for the next three weeks, so run training locally.",
        "The build server is in maintenance until 18 December.",
        "Our staging cluster is shared with the mobile team until the end of next month.",
        "Der Build-Server ist bis zum 18. Dezember in Wartung.",
        "El entorno de pruebas está congelado hasta el viernes, no despliegues nada.",
    ],
)
def test_a_state_with_its_end_after_it_is_kept_and_dated(said: str) -> None:
    kept = kept_statements([said], [])
    assert len(kept) == 1 and kept[0].kind == "fact"
    assert dated(kept[0].text, date(2026, 12, 6)).until is not None


@pytest.mark.parametrize(
    "said",
    [
        "I was out until Friday.",
        "The build is broken until Friday.",
        "The tests are failing until Friday.",
        "Is the sandbox down until Friday?",
        "Bob says the sandbox is down until Friday.",
        "I think the sandbox is down until Friday.",
        "Fix the sandbox until Friday.",
        "We ship on Fridays.",
        "The sandbox was down until Friday, now it works.",
    ],
)
def test_an_event_a_fault_a_question_or_no_end_is_not_kept(said: str) -> None:
    assert kept_statements([said], []) == []


def test_till_then_is_the_same_end_not_a_later_part() -> None:
    said = "The billing sandbox is down until March 12, so stub the gateway till then"
    assert dated(said, date(2026, 12, 6)).until == "2027-03-12"
    assert dated("Until March 3 use the old key, then the new one", date(2026, 12, 6)).until is None


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "Works now: curl -H 'Authorization: Bearer [REDACTED:curl-auth-header]' https://api.example.dev/v3/ping"
            " so keep in mind the ping route lives under /v3, not /v2.",
            "the ping route lives under /v3, not /v2",
        ),
        (
            "ok, keep in mind otter's exports go to the otter-exports bucket",
            "otter's exports go to the otter-exports bucket",
        ),
        ("Bear in mind the staging db lives on pg-stage-3.", "the staging db lives on pg-stage-3"),
        ("And keep in mind our CI runs on ARM runners.", "our CI runs on ARM runners"),
    ],
)
def test_keep_in_mind_with_a_bare_statement_of_state_is_kept(said: str, kept: str) -> None:
    assert [k.text for k in kept_statements([said], [])] == [kept]


@pytest.mark.parametrize(
    "said",
    [
        "Keep in mind this is only a prototype, so skip the tests.",
        "Keep in mind it's late.",
        "I told you to keep in mind the db is slow.",
        "My colleague says, keep in mind the queue is shared.",
        "Keep in mind the tests are failing.",
        "Keep in mind the build failed yesterday.",
        "Can you keep in mind the API is slow?",
    ],
)
def test_keep_in_mind_before_the_task_someone_else_or_an_event_keeps_nothing(said: str) -> None:
    assert kept_statements([said], []) == []


@pytest.mark.parametrize(
    "said",
    [
        "W tym projekcie trzymamy sekrety w Vaulcie, nie w plikach .env.",
        "En este proyecto usamos Helm para los despliegues.",
        "In questo progetto usiamo Ruff per il lint.",
        "Neste projeto mantemos os segredos no Vault.",
        "이 저장소에서는 모든 로그를 UTC로 남겨요.",
        "このリポジトリではインデントにタブを使います。",
    ],
)
def test_a_practice_with_its_subject_dropped_is_the_projects_rule(said: str) -> None:
    kept = kept_statements([said], [])
    assert [(k.text, k.kind) for k in kept] == [(said.rstrip(".。"), "rule")]
    assert place(kept[0].text, kept[0].kind, "/work/otter", [], [said]) == ("workspace", None)


@pytest.mark.parametrize(
    "said",
    [
        "W tym projekcie używaliśmy kiedyś pip-tools.",
        "En este proyecto podemos usar Helm.",
        "En este proyecto ahora usamos Helm.",
        "En este proyecto tenemos un bug.",
        "W tym projekcie mamy problem z testami.",
        "이 프로젝트에서는 시간을 KST로 저장했어요.",
        "이 프로젝트에서는 KST로 저장해 주세요.",
        "このリポジトリではタブを使いました。",
    ],
)
def test_a_past_a_hedge_a_fault_or_a_request_after_the_opener_is_no_practice(said: str) -> None:
    assert [k for k in kept_statements([said], []) if k.kind == "rule"] == []


@pytest.mark.parametrize("said", ["이 프로젝트에서는 빌드가 느려요.", "이 프로젝트에서는 테스트가 실패해요."])
def test_a_things_state_or_fault_in_korean_is_no_practice(said: str) -> None:
    assert [k for k in kept_statements([said], []) if k.kind == "rule"] == []


@pytest.mark.parametrize(
    "said",
    [
        "Before we start: when you review my code I prefer inline comments over a summary.",
        "Small thing first - whenever you explain an error to me I'd rather see the stack frame than a paraphrase.",
        # German verb-second: what is liked fronted, the first person after the verb
        "Übrigens: Kryptische Namen in Tests mag ich überhaupt nicht, schreib sie aus.",
        "Lange Antworten mit viel Einleitung hasse ich.",
        "Korta svar utan inledning föredrar jag.",
        # Japanese / Korean: the first person dropped, two ways compared
        "ちなみに、設定ファイルはJSONよりYAMLのほうが好きです。",
        "설명은 긴 문장보다 목록이 더 좋아요.",
    ],
)
def test_a_preference_after_a_lead_fronted_or_with_the_person_dropped_is_kept(said: str) -> None:
    kept = kept_statements([said], [])
    assert [k.kind for k in kept] == ["preference"]
    assert place(kept[0].text, kept[0].kind, "/work/otter", [], [said]) == ("global", None)


@pytest.mark.parametrize(
    "said",
    [
        "Bob says: whenever you compare options I'd rather see a table.",
        "Quick thing: when you're done, I'd rather you pushed the branch.",
        "Das mag ich nicht.",
        "Den zweiten Vorschlag bevorzuge ich.",
        "Heute mag ich nicht mehr arbeiten.",
        "Mein Kollege sagt, lange Antworten mag ich nicht.",
        "Ich glaube, lange Antworten mag ich nicht.",
        "これよりそっちのほうが好きです。",
        "今日は雨より晴れのほうがいいです。",
        "田中さんはJSONよりYAMLのほうが好きです。",
    ],
)
def test_someone_elses_a_choice_the_moment_or_a_hedge_is_no_preference(said: str) -> None:
    assert [k for k in kept_statements([said], []) if k.kind == "preference"] == []


@pytest.mark.parametrize(
    "said",
    [
        "For the reports always query the warehouse replica, never the primary: postgres://etl:[REDACTED:url-password]@wh",
        "Always pipe the JSON output through jq before pasting it.",
        "Never hand-edit the lockfile.",
        "In SQL files, never use SELECT star.",
    ],
)
def test_an_order_after_always_is_read_by_its_object_not_a_verb_list(said: str) -> None:
    kept = kept_statements([said], [])
    assert [(k.text, k.kind) for k in kept] == [(said.rstrip("."), "rule")]


@pytest.mark.parametrize(
    "said",
    [
        "Always fun to debug this.",
        "Always happy to help.",
        "Never a dull moment.",
        "Always the same with this build.",
        "Always something with the build.",
        "For example always use the old key.",
        "For now always use the old key.",
    ],
)
def test_an_exclamation_or_a_one_off_after_always_is_no_rule(said: str) -> None:
    assert [k for k in kept_statements([said], []) if k.kind == "rule"] == []


@pytest.mark.parametrize(
    "said",
    [
        "Can you check why the upload retries? btw I read most diffs on a tablet, so keep each change under 200 lines.",
        "I usually read diffs in the terminal, so keep lines under 100 characters.",
        "I mostly work from Lisbon, so schedule meetings after 10 WET.",
    ],
)
def test_the_users_way_of_working_as_the_reason_for_an_order_is_a_preference(said: str) -> None:
    kept = kept_statements([said], [])
    assert [k.kind for k in kept] == ["preference"]
    assert place(kept[0].text, kept[0].kind, "/work/otter", [], [said]) == ("global", None)


@pytest.mark.parametrize(
    "said",
    [
        "I broke the build, so revert my last commit.",
        "I need it by Friday, so hurry up with the parser.",
        "I think most tests are slow, so skip the integration ones.",
        "I review most PRs on my phone, so fix it.",
        "I always run the tests locally, so you don't need to.",
        "I usually deploy on Fridays, so can you check the pipeline?",
        "Bob reviews most PRs on his phone, so keep the diffs small.",
        "I reviewed most PRs on my phone, so keep the diffs small.",
        "I review most PRs on my phone today, so keep the diffs small.",
        "I review PRs on my phone, so keep the diffs small.",
    ],
)
def test_a_past_a_moment_a_thought_or_no_habit_before_so_is_no_preference(said: str) -> None:
    assert [k for k in kept_statements([said], []) if k.kind == "preference"] == []


def test_a_request_then_das_mag_ich_nicht_is_kept_once() -> None:
    said = "Merk dir bitte: keine Tabs in YAML-Dateien, das mag ich nicht."
    assert len(kept_statements([said], [])) == 1


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "Remember the otter backup job runs pg_dump every night; the password is [REDACTED:labelled-secret].",
            "the otter backup job runs pg_dump every night; the password is [REDACTED:labelled-secret]",
        ),
        ("Don't forget the staging db lives on pg-stage-3.", "the staging db lives on pg-stage-3"),
        (
            "it fails, here's my .env:\n```\nDB_HOST=pg.otter.lan\nDB_PASSWORD=[REDACTED:generic-password]\n```\n"
            "and remember the warehouse always goes through pg.otter.lan",
            "the warehouse always goes through pg.otter.lan",
        ),
    ],
)
def test_remember_with_a_bare_statement_of_state_keeps_it_past_a_paste(said: str, kept: str) -> None:
    assert [k.text for k in kept_statements([said], [])] == [kept]


@pytest.mark.parametrize(
    "said",
    [
        "Remember the meeting.",
        "Remember the time we broke prod.",
        "From the wiki:\nRemember the box runs ARM.\nSum it up",
    ],
)
def test_remember_before_no_clause_or_in_pasted_text_keeps_nothing(said: str) -> None:
    assert kept_statements([said], []) == []
