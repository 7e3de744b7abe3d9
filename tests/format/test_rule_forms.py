"""Standing rules said without an English lead-in, read by the sentence's mood (issue 30, sess14).

Before: "Always run the linter before committing", "Bitte immer die Changelog-Einträge auf Englisch schreiben",
"please no emoji in commit messages", "説明は日本語でお願い", "앞으로 ... 써 줘" and "In this repo we manage
dependencies with Poetry, ..." kept nothing: the only rules heard opened with "From now on" (or its de/fr/es words),
"Please stop X-ing" or ended "... again".
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.rulebody import without_reason
from memrepo.engine.format.standing import project_rule, rule_statements


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("Always run the linter before committing.", "Always run the linter before committing"),
        ("please never use tabs in YAML files", "never use tabs in YAML files"),
        (
            "Bitte immer die Changelog-Einträge auf Englisch schreiben.",
            "immer die Changelog-Einträge auf Englisch schreiben",
        ),
        ("Schreib immer die Tests zuerst.", "Schreib immer die Tests zuerst"),
        ("Toujours écrire les messages de commit en anglais.", "Toujours écrire les messages de commit en anglais"),
        ("Nunca hagas push directo a main.", "Nunca hagas push directo a main"),
        ("Usa sempre le virgolette doppie nelle stringhe.", "Usa sempre le virgolette doppie nelle stringhe"),
        ("Altijd de tests draaien voor een commit.", "Altijd de tests draaien voor een commit"),
        ("Zawsze pisz testy przed kodem.", "Zawsze pisz testy przed kodem"),
        ("항상 커밋 전에 테스트를 돌려 줘.", "항상 커밋 전에 테스트를 돌려 줘"),
        ("いつもテストを先に書いてください。", "いつもテストを先に書いてください"),
    ],
)
def test_the_imperative_with_a_word_of_every_time_is_a_rule(said: str, rule: str) -> None:
    assert rule_statements([said]) == [rule]


@pytest.mark.parametrize(
    "said",
    [
        "Never heard of it.",
        "Always a pleasure to work with you.",
        "Das ist immer so.",
        "Klappt immer.",
        "Immer Ärger mit den Servern.",
        "Siempre pasa lo mismo con este servidor.",
        "Altijd problemen met de server.",
        "Zawsze pada deszcz w poniedziałek.",
        "Toujours pareil avec ce serveur.",
        "No errors in the log today.",
        "Bob says always rebase before merging.",
        "Always run the linter before committing while we finish the refactor.",
    ],
)
def test_a_statement_with_always_or_never_is_no_rule(said: str) -> None:
    assert rule_statements([said]) == []


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("ugh, and please no emoji in commit messages, I find them really noisy", "no emoji in commit messages"),
        ("no trailing spaces in YAML files, please", "no trailing spaces in YAML files"),
        ("bitte keine Emojis in Commit-Nachrichten", "keine Emojis in Commit-Nachrichten"),
        ("あ、ちなみに説明は日本語でお願い。", "説明は日本語でお願い"),
        ("답변은 한국어로 부탁해.", "답변은 한국어로 부탁해"),
    ],
)
def test_a_polite_request_without_a_verb_is_a_rule(said: str, rule: str) -> None:
    assert rule_statements([said]) == [rule]


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("Vanaf nu schrijf je commitberichten in het Engels.", "schrijf je commitberichten in het Engels"),
        ("D'ora in poi, scrivi i messaggi di commit in inglese.", "scrivi i messaggi di commit in inglese"),
        (
            "앞으로 커밋 메시지를 Conventional Commits 형식으로 써 줘.",
            "커밋 메시지를 Conventional Commits 형식으로 써 줘",
        ),
        ("以后用中文回答我的问题吧。", "用中文回答我的问题吧"),
    ],
)
def test_a_lead_in_of_another_language_opens_a_rule(said: str, rule: str) -> None:
    assert rule_statements([said]) == [rule]


def test_a_practice_said_for_this_repo_is_the_projects_rule() -> None:
    said = "In this repo we manage dependencies with Poetry, don't pip install things directly."
    assert rule_statements([said]) == [said.rstrip(".")]
    assert project_rule(said.rstrip("."), "/home/u/lantern")
    assert project_rule("이 프로젝트에서는 커밋 전에 항상 eslint --fix 를 돌려 주세요", "/home/u/otter")
    assert not project_rule("no emoji in commit messages", "/home/u/lantern")
    assert rule_statements(["In this repo we have a weird bug in the parser."]) == []


@pytest.mark.parametrize(
    ("rule", "kept"),
    [
        (
            "run `make lint` before every commit, CI keeps catching stuff I missed",
            "run `make lint` before every commit",
        ),
        ("never force-push to main on otter, the deploy hook tracks it", "never force-push to main on otter"),
        ("no emoji in commit messages, I find them noisy", "no emoji in commit messages"),
        ("write commit messages in English, tests included", "write commit messages in English, tests included"),
    ],
)
def test_a_reason_with_its_own_subject_is_cut_from_the_rule(rule: str, kept: str) -> None:
    assert without_reason(rule) == kept


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("Anyway, always answer me in English.", "always answer me in English"),
        ("Comunque, rispondimi sempre in italiano.", "rispondimi sempre in italiano"),
        ("Oh and btw, never push to main directly.", "never push to main directly"),
    ],
)
def test_an_order_after_a_one_word_marker_is_a_rule(said: str, rule: str) -> None:
    """A discourse marker and its comma before an order lose nothing (breaker28 B28-6)."""
    assert rule_statements([said]) == [rule]


@pytest.mark.parametrize("said", ["Honestly, I always forget the linter.", "Sometimes, always is too strong."])
def test_a_marker_before_no_order_keeps_nothing(said: str) -> None:
    assert rule_statements([said]) == []
