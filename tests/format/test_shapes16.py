"""Preferences, rules, scope, time-bound facts and requests to keep read by shape (issue 30, sess16).

Before: a preference or an order scoped by a condition of the agent's recurring work ("when you show me changes I
prefer ...", "whenever you write X, keep Y") was dropped as a condition; a team practice with the project named at
its end ("We keep X in this codebase") or first by name ("For falcon we deploy with ...") was not read; an order to
stop in Korean, Japanese or Chinese was not heard; a request to remember with a softener ("Onthoud even:", "merk dir
bitte, dass") or after a spaced dash was missed; an end said as a day and a month ("until December 18", "Fino al 18
dicembre") was neither read as a notice nor dated, and "18. Dezember" split the sentence. The wordings are invented,
none from a benchmark set; each group has look-alikes that must keep nothing.
"""

from __future__ import annotations

from datetime import date

import pytest

from memrepo.engine.checkpoints.userkept import kept_statements, place
from memrepo.engine.format.preferences import passing_preferences
from memrepo.engine.format.relativedates import dated
from memrepo.engine.format.remembering import said, user_statements
from memrepo.engine.format.standing import project_rule, rule_statements
from memrepo.engine.format.unasked import unasked_statements


@pytest.mark.parametrize(
    "message",
    [
        "When you write tests, I prefer pytest fixtures over setUp methods.",
        "Quand tu écris des tests, je préfère les fixtures pytest aux classes.",
        "Cuando me muestres cambios, prefiero diffs unificados en vez de lado a lado.",
        "Quando mi mostri il codice, preferisco i diff unificati.",
        "Whenever you summarise a PR for me I'd rather you used bullet points.",
        "Wenn du Tests schreibst, bevorzuge ich pytest-Fixtures statt setUp.",
        "Wenn du mir Code zeigst, ist mir eine kurze Zusammenfassung am liebsten.",
        "Als je code laat zien, heb ik liever unified diffs.",
        "När du skriver commit-meddelanden föredrar jag korta rubriker.",
    ],
)
def test_a_preference_scoped_by_the_agents_recurring_work_is_kept(message: str) -> None:
    assert passing_preferences([message]) == [message.rstrip(".")]
    assert place(message.rstrip("."), "preference", "shop", [], [message])[0] == "global"


@pytest.mark.parametrize(
    "message",
    [
        "When you're done, I'd rather you push the branch.",
        "When you get a chance, I'd prefer the second option.",
        "If you show me changes I prefer unified diffs.",
        "When Bob shows me changes I prefer unified diffs.",
        "When you show me changes do I prefer unified diffs?",
        "When you write the summary for this PR, I prefer bullet points.",
        "Quand tu auras fini, je préfère que tu pousses la branche.",
        "Wenn du fertig bist, ist mir eine kurze Zusammenfassung am liebsten.",
        "Wenn Bob Code zeigt, bevorzuge ich kurze Diffs.",
        "Wenn du mir Code zeigst, bevorzuge ich die zweite Variante.",
        "Wenn du willst, bevorzuge ich kurze Antworten.",
    ],
)
def test_a_one_off_a_supposition_or_someone_elses_condition_keeps_no_preference(message: str) -> None:
    assert passing_preferences([message]) == []


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        (
            "Anyway, whenever you write a changelog entry keep it under two lines, that's just how I like it.",
            "whenever you write a changelog entry keep it under two lines",
        ),
        ("Every time you open a PR, add the ticket number to its title.", None),
        ("Whenever you touch the SQL, run the migration check first.", None),
        ("Chaque fois que tu écris un message de commit, utilise toujours l'anglais.", None),
    ],
)
def test_an_order_after_a_recurring_condition_is_a_rule(message: str, rule: str | None) -> None:
    assert rule_statements([message]) == [rule or message.rstrip(".")]


@pytest.mark.parametrize(
    "message",
    [
        "When you're done, push the branch.",
        "When you get a chance, run the tests.",
        "Whenever you want, run the tests.",
        "When you finish the refactor, update the changelog.",
        "When you run the tests, make sure the DB is up.",
        "Whenever Bob writes commit messages he keeps them lowercase.",
        "Whenever you write commit messages, do you keep them lowercase?",
    ],
)
def test_a_one_off_order_after_when_is_no_rule(message: str) -> None:
    assert rule_statements([message]) == []


@pytest.mark.parametrize(
    "message",
    [
        "Why the wildcard imports? We never use wildcard imports in this codebase.",
        "We always squash merges in this repo.",
        "Wir nutzen Podman statt Docker in diesem Projekt.",
        "For falcon we deploy with kamal deploy from the repo root, nothing else.",
        "Für falcon deployen wir immer mit kamal aus dem Repo-Root.",
        "Pour falcon, on déploie avec kamal depuis la racine du dépôt.",
        "Voor falcon gebruiken we altijd pnpm, nooit npm.",
    ],
)
def test_a_team_practice_with_its_project_named_first_or_last_is_the_projects_rule(message: str) -> None:
    rules = rule_statements([message])
    assert len(rules) == 1
    assert project_rule(rules[0], "shop")
    assert place(rules[0], "rule", "shop", [], [message])[0] == "workspace"


@pytest.mark.parametrize(
    "message",
    [
        "For now we use the old key.",
        "For example we deploy with kamal.",
        "For falcon we had a meeting yesterday.",
        "For falcon we should deploy with kamal.",
        "Bob says we keep all imports at the top of the module in this codebase.",
        "Do we keep all imports at the top in this codebase?",
        "For falcon, Bob deploys with kamal.",
    ],
)
def test_a_temporary_past_hedged_reported_or_asked_practice_is_no_rule(message: str) -> None:
    assert rule_statements([message]) == []


@pytest.mark.parametrize(
    "message",
    [
        "이 저장소에서는 디버그용 print 좀 그만 남겨 주세요.",
        "커밋 메시지에 이모지 좀 그만 넣어 주세요.",
        "コミットメッセージに絵文字を入れるのはやめてください。",
        "别再在提交信息里加表情了。",
        "请不要再把调试日志提交到仓库里。",
    ],
)
def test_an_order_to_stop_in_korean_japanese_or_chinese_is_a_rule(message: str) -> None:
    assert rule_statements([message]) == [message.rstrip("。.")]


@pytest.mark.parametrize(
    "message",
    [
        "지금 그만해.",
        "이거 그만 해.",
        "これはやめてください。",
        "现在别再说了。",
        "팀장님이 console.log 좀 그만 남기라고 했어요.",
        "로그를 그만 남길까요?",
    ],
)
def test_a_cjk_stop_of_the_moment_or_someone_elses_is_no_rule(message: str) -> None:
    assert rule_statements([message]) == []


@pytest.mark.parametrize(
    ("message", "fact"),
    [
        ("Onthoud even: de nightly build draait om 02:00.", "de nightly build draait om 02:00"),
        ("Onthoud eens dat de staging-db op poort 5433 luistert.", "de staging-db op poort 5433 luistert"),
        ("Merk dir mal bitte: das Staging-Cluster heißt stage-7.", "das Staging-Cluster heißt stage-7"),
        (
            "Der Bot heißt ci-bot – merk dir bitte, dass er nur Lesezugriff hat.",
            "er nur Lesezugriff hat",
        ),
        (
            "Le serveur de test est lent — retiens bien que la base de recette s'appelle rec-3.",
            "la base de recette s'appelle rec-3",
        ),
        ("Kom ihåg snälla att vi bygger med Gradle 8.", "vi bygger med Gradle 8"),
    ],
)
def test_a_request_to_remember_with_a_softener_or_after_a_dash_is_heard(message: str, fact: str) -> None:
    assert user_statements([message]) == [fact]


@pytest.mark.parametrize(
    "message",
    [
        "Mein Kollege sagt – merk dir, dass der Bot alles darf.",
        "My colleague says -- remember that the bot can do anything.",
        "Ik weet het niet – onthoud jij dat maar.",
        "Je me souviens bien que le serveur était lent.",
        "Kun je even onthouden dat de poort 5173 is?",
    ],
)
def test_someone_elses_request_or_the_users_own_memory_is_not_kept(message: str) -> None:
    assert kept_statements([message], []) == []


@pytest.mark.parametrize(
    ("message", "until"),
    [
        ("Until December 18 the main build server is down every afternoon, so use build-2.", "2026-12-18"),
        ("Bis zum 18. Dezember ist der Build-Server jeden Nachmittag in Wartung.", "2026-12-18"),
        ("Jusqu'au 3 janvier, la base de recette est en lecture seule.", "2027-01-03"),
        ("Hasta el 2 de enero el entorno de staging está congelado.", "2027-01-02"),
        ("Tot 20 december staat de release op slot.", "2026-12-20"),
    ],
)
def test_a_notice_until_a_day_and_month_is_kept_and_dated(message: str, until: str) -> None:
    kept = unasked_statements([message])
    assert len(kept) == 1
    assert dated(kept[0], date(2026, 12, 6)).until == until


@pytest.mark.parametrize(
    "message",
    [
        "Until December 18 I was fixing the build.",
        "Until December 18, can you check the logs every day?",
        "Fino al 18 dicembre Marco dice che il server è in manutenzione.",
        "Until 18 December the tests are failing.",
    ],
)
def test_a_past_a_question_hearsay_or_a_fault_until_a_day_is_no_notice(message: str) -> None:
    assert unasked_statements([message]) == []


def test_a_day_and_month_that_has_passed_is_next_years_and_a_date_after_it_gives_no_end() -> None:
    assert dated("Until 5 December the build is slow", date(2026, 12, 6)).until == "2027-12-05"
    assert dated("Until March 3, then use the new key", date(2026, 12, 6)).until is None
    assert dated("I was born on 18 December", date(2026, 12, 6)).until is None


def test_a_german_ordinal_before_a_month_does_not_end_the_sentence() -> None:
    assert said("Bis zum 18. Dezember ist der Server gesperrt. Danke.") == [
        "Bis zum 18. Dezember ist der Server gesperrt",
        "Danke",
    ]
    assert said("Das sind 18. Dann gehen wir.") == ["Das sind 18", "Dann gehen wir"]
