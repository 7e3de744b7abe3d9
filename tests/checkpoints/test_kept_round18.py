"""What the model-free checkpoint keeps, read by the sentence's structure (round 18, heldout9 and breaker28).

Before, each of these kept nothing: a standing word inside a practice said for the project ("En este repo las
traducciones nunca se editan a mano"), a head that labels what follows as a rule or the user's way of working ("House
rule for this repo: ..."), a topic with "please always" and a manner but no verb ("Commit-Messages bitte immer auf
Englisch"), a Japanese topic with the verb asked for ("...は全部大文字で書いてほしいです"), "I like" + a kind of thing,
and a lead word before "from now on" without its comma ("Ok from now on the CI runs on Node 22").
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.userkept import kept_statements, place


def _line(text: str, path: str = "workspaces/shop.md") -> ExistingEntry:
    return ExistingEntry(f"{path}#L5", path, 5, text, "user", {})


def _kept(said: str, lines: list[ExistingEntry] | None = None) -> list[tuple[str, str, str]]:
    """(text, kind, scope) of each statement kept from ``said`` in project "shop"."""
    existing = lines or []
    return [
        (k.text, k.kind, place(k.text, k.kind, "shop", existing, [said])[0]) for k in kept_statements([said], existing)
    ]


@pytest.mark.parametrize(
    ("said", "has"),
    [
        (
            "En este repo las traducciones nunca se editan a mano, siempre se regeneran con npm run i18n.",
            "npm run i18n",
        ),
        ("In this project API errors always come back as RFC 7807 problem+json.", "problem+json"),
        ("V tomhle repu se changelog dělá jen skriptem release-notes, ne ručně.", "release-notes"),
        ("In diesem Projekt werden Migrationen immer mit Alembic erzeugt.", "Alembic"),
        ("Dans ce projet, les tests tournent toujours sous pytest.", "pytest"),
    ],
)
def test_a_standing_word_in_a_practice_said_for_the_project_keeps_the_projects_rule(said: str, has: str) -> None:
    kept = _kept(said)
    assert [(kind, scope) for text, kind, scope in kept if has in text] == [("rule", "workspace")]


@pytest.mark.parametrize(
    "said",
    [
        "In this repo the build was always slow.",  # a past
        "In this project the tests are flaky right now, always red.",  # the moment
        "In this repo, is the build always slow?",  # a question
        "In this project we might always use tabs.",  # a hedge
    ],
)
def test_a_past_the_moment_a_question_or_a_hedge_after_the_opener_keeps_no_rule(said: str) -> None:
    assert [k for k in _kept(said) if k[1] == "rule"] == []


@pytest.mark.parametrize(
    ("said", "text", "scope"),
    [
        (
            "House rule for this repo: nobody pushes straight to main, everything goes through a PR with one approval.",
            "House rule for this repo: nobody pushes straight to main, everything goes through a PR with one approval",
            "workspace",
        ),
        (
            "Before we start, one thing about how I work: show me a diff first and wait for my ok before you touch "
            "more than one file.",
            "Show me a diff first and wait for my ok before you touch more than one file",
            "global",
        ),
        ("Ground rule: every migration gets a down step.", "Every migration gets a down step", "global"),
    ],
)
def test_a_head_labelling_a_rule_keeps_what_follows_as_one(said: str, text: str, scope: str) -> None:
    assert _kept(said) == [(text, "rule", scope)]


@pytest.mark.parametrize(
    "said",
    [
        "Bob's rule: always squash.",  # someone else's
        "Quick question about the policy: can you check it?",  # a question
        "Here is the error: rule 42 failed on line 3.",  # no head naming a rule before the colon
        "If that's the rule: fine.",
    ],
)
def test_a_head_of_someone_else_a_question_or_no_rule_keeps_nothing(said: str) -> None:
    assert [k for k in _kept(said) if k[1] == "rule"] == []


@pytest.mark.parametrize(
    ("said", "has"),
    [
        (
            "Kannst du die Tests laufen lassen? Übrigens: Commit-Messages bitte immer auf Englisch, auch wenn ich Deutsch "
            "schreibe.",
            "auf Englisch",
        ),
        ("Commit messages always in English, please.", "in English"),
        ("Messaggi di commit per favore sempre in inglese.", "in inglese"),
        ("Die Tests bitte immer mit pytest -x.", "pytest -x"),
        ("日次集計のクエリを見てもらえますか。ちなみに、SQLのキーワードは全部大文字で書いてほしいです。", "大文字"),
    ],
)
def test_a_topic_with_the_manner_asked_for_every_time_is_a_rule(said: str, has: str) -> None:
    assert [kind for text, kind, _scope in _kept(said) if has in text] == ["rule"]


@pytest.mark.parametrize(
    "said", ["Das ist bitte immer so.", "これは英語で書いてください。", "Please fix this in English."]
)
def test_a_statement_or_this_one_asked_for_keeps_no_rule(said: str) -> None:
    assert [k for k in _kept(said) if k[1] == "rule"] == []


@pytest.mark.parametrize(
    ("said", "text"),
    [
        (
            "Can you fix the lint errors in Button.tsx? Side note, I like single quotes and no semicolons in TS, always "
            "have.",
            "I like single quotes and no semicolons in TS, always have",
        ),
        ("I like small commits with clear messages.", "I like small commits with clear messages"),
        ("btw I love short answers without bullet points.", "I love short answers without bullet points"),
    ],
)
def test_i_like_a_kind_of_thing_is_a_preference_for_me(said: str, text: str) -> None:
    assert _kept(said) == [(text, "preference", "global")]


@pytest.mark.parametrize(
    "said",
    ["I like the new dashboard.", "I love your idea.", "I like where this is going.", "I like how fast this is now."],
)
def test_i_like_a_thing_at_hand_keeps_nothing(said: str) -> None:
    assert _kept(said) == []


@pytest.mark.parametrize(
    "said",
    [
        "Ok from now on the CI runs on Node 22.",
        "so, from now on the CI runs on Node 22",
        "Alright from now on the CI runs on Node 22",
    ],
)
def test_a_lead_word_before_from_now_on_keeps_the_statement(said: str) -> None:
    line = _line("The CI runs on Node 20")
    kept = kept_statements([said], [line])
    assert [k.text.casefold() for k in kept] == ["the ci runs on node 22"]
    assert place(kept[0].text, kept[0].kind, "shop", [line], [said]) == ("workspace", line)


@pytest.mark.parametrize(
    ("said", "old"),
    [
        ("Me equivoqué con el puerto de la API: es el 8443, con TLS.", "La API de puffin escucha en el puerto 8081"),
        ("I got the staging port wrong: it is 6433.", "The staging DB listens on port 5432"),
        ("Je me suis trompé sur le port de l'API : c'est 8443.", "L'API de puffin écoute sur le port 8081"),
        ("Errei a porta da API: é a 8443.", "A API do puffin escuta na porta 8081"),
    ],
)
def test_a_cue_that_names_the_topic_corrects_with_the_value_after_it(said: str, old: str) -> None:
    """The statement after the cue ("es el 8443") names no subject; the cue does ("con el puerto de la API"): the
    sentence whole is read, and placed on the line it corrects (h9-corr-api-port-es)."""
    line, other = _line(old), _line("The prod DB listens on port 5433")
    kept = kept_statements([said], [line, other])
    assert len(kept) == 1
    assert place(kept[0].text, kept[0].kind, "shop", [line, other], [said]) == ("workspace", line)


def test_a_cue_naming_a_topic_with_no_value_after_it_keeps_nothing() -> None:
    line = _line("The staging DB listens on port 5432")
    assert kept_statements(["I got the staging port wrong, sorry about that."], [line]) == []


@pytest.mark.parametrize(
    ("said", "old"),
    [
        ("We ditched Jest last sprint, Vitest runs the unit tests.", "Cedar's unit tests run with Jest (npm test)"),
        ("We dropped Sentry, Bugsnag handles error tracking now.", "Errors are tracked in Sentry"),
        (
            "Das mit Node 18 stimmt so nicht mehr, wir haben lynx letzte Woche auf Node 22 gehoben.",
            "Lynx läuft auf Node 18 LTS",
        ),
        (
            "Wat je over de database van kestrel hebt staan klopt niet meer, we draaien op MariaDB 11.",
            "Kestrel gebruikt PostgreSQL 15 als database",
        ),
        (
            "The database in your notes is out of date, we run MariaDB 11 now.",
            "Kestrel uses PostgreSQL 15 as its database",
        ),
        (
            "Petite correction : la responsable produit de cedar, c'est Claire Dubois, Marc est parti sur un autre projet.",
            "Responsable produit de cedar : Marc Lefèvre",
        ),
    ],
)
def test_a_correction_naming_the_old_value_or_pointing_at_memory_replaces_its_line(said: str, old: str) -> None:
    """A new name first in a later clause ("..., Vitest runs ...") is a name; "stimmt so nicht mehr" is "stimmt nicht
    mehr"; a product with its version for another ("MariaDB 11" for "PostgreSQL 15") beside a stale cue and a shared
    subject; "est parti" leaves the old name (heldout9's corrections)."""
    project = next((p for p in ("cedar", "lynx", "kestrel") if p in f"{said} {old}".casefold()), "shop")
    path = f"workspaces/{project}.md"  # a project's name is no person ("Cedar's unit tests")
    line, other = _line(old, path), _line("The docs site is built with mkdocs", path)
    kept = kept_statements([said], [line, other])
    assert len(kept) == 1
    assert place(kept[0].text, kept[0].kind, project, [line, other], [said]) == ("workspace", line)


@pytest.mark.parametrize(
    ("said", "old"),
    [
        ("Your notes on the frontend are out of date, we use React 19.", "The backend runs Django 5"),
        ("We dropped Sentry, Bob handles it.", "Errors are tracked in Sentry"),
        ("Marc est parti en vacances, c'est Claire qui valide cette semaine.", "Cedar's tests run with Jest"),
    ],
)
def test_another_subject_or_no_new_value_of_its_kind_replaces_nothing(said: str, old: str) -> None:
    line = _line(old)
    assert [k for k in kept_statements([said], [line]) if place(k.text, k.kind, "shop", [line], [said])[1]] == []


@pytest.mark.parametrize(
    ("said", "until"),
    [
        ("FYI there's a change freeze on kestrel until the end of January, only hotfixes get merged.", "-01-31"),
        ("The payments sandbox is down until the end of January.", "-01-31"),
        (
            "For the next three weeks Priya is covering code review on puffin while Sam is on parental leave, so tag "
            "her on PRs.",
            "",
        ),
        ("Heads up: for the next two weeks Priya is covering code review.", ""),
    ],
)
def test_a_state_with_its_end_or_over_a_span_is_kept(said: str, until: str) -> None:
    """ "there's X until the end of <month>" (an end on that month's last day, "there" a subject), and a progressive
    said over a span ("For the next three weeks Priya is covering ...": the state of that span, not an event)."""
    from datetime import date

    from memrepo.engine.format.relativedates import dated

    kept = kept_statements([said], [])
    assert len(kept) == 1
    assert dated(kept[0].text, date(2026, 12, 5)).until is not None
    assert until in (dated(kept[0].text, date(2026, 12, 5)).until or "")


@pytest.mark.parametrize(
    "said",
    [
        "For the next two weeks the build is failing on main.",  # a fault
        "For the next two weeks Bob is fixing the login bug.",  # a task of the moment
        "There's a bug in the parser.",  # no end
        "For the next three weeks I am working on the parser.",
    ],
)
def test_a_fault_a_task_or_no_end_keeps_no_notice(said: str) -> None:
    assert kept_statements([said], []) == []


@pytest.mark.parametrize(
    ("said", "old"),
    [
        ("Cambio di programma: i rilasci di puffin li facciamo il giovedì.", "Il rilascio di puffin è il lunedì"),
        ("Change of plans: the standup is at 10:15.", "The standup is at 9:30"),
    ],
)
def test_a_change_of_plans_cues_a_correction_of_an_inflected_subject(said: str, old: str) -> None:
    """ "Cambio di programma:" is a correction's cue, and "i rilasci" is the line's "Il rilascio" inflected."""
    line = _line(old, "workspaces/puffin.md")
    kept = kept_statements([said], [line])
    assert len(kept) == 1
    assert place(kept[0].text, kept[0].kind, "puffin", [line], [said]) == ("workspace", line)


def test_a_danish_pin_request_pins_what_follows() -> None:
    from memrepo.engine.format.remembering import pinned_statements

    said = "Fastgør det her: kestrel må aldrig logge kundernes e-mailadresser."
    assert pinned_statements([said]) == ["kestrel må aldrig logge kundernes e-mailadresser"]


def test_a_rule_named_as_the_subject_after_a_cjk_project_opener_is_the_projects() -> None:
    said = "这个项目的分支命名规则是 feature/LYNX-编号，比如 feature/LYNX-142。"
    assert _kept(said) == [(said.rstrip("。"), "rule", "workspace")]
    assert _kept("这个项目的构建很慢。") == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Always remember: the staging DB resets nightly.", [("the staging DB resets nightly", "fact")]),
        ("Never forget that the staging DB resets nightly.", [("the staging DB resets nightly", "fact")]),
        ("Always bear in mind that prod is read-only.", [("prod is read-only", "fact")]),
        ("From now on, always answer in English.", [("always answer in English", "rule")]),
        ("Always run the linter before committing.", [("Always run the linter before committing", "rule")]),
    ],
)
def test_a_request_to_keep_after_always_is_kept_by_the_request_readers_not_as_a_rule(
    said: str, kept: list[tuple[str, str]]
) -> None:
    """The remember verbs are read once, by the request readers: a rule whose part they keep is no rule
    (``standing._asked_to_keep``; before, ``ruleforms`` listed the verbs a third time, and "Never forget that X" kept
    nothing)."""
    assert [(k.text, k.kind) for k in kept_statements([said], [])] == kept


def test_a_standing_lead_in_with_please_keeps_its_rule() -> None:
    """h7-rule-meadow-openapi: the request readers keep the rule less its "please"; that is the rule, not a request."""
    said = "Going forward, every new endpoint in this repo needs an OpenAPI example, please."
    assert "rule" in [k.kind for k in kept_statements([said], [])]
