"""A newer rule said the everyday way replaces the older one (breaker23 B23-12, B23-2).

Before: a reason after the rule ("Going forward, answer in English again, German was a bad idea.") stayed in the
kept rule, and its words (the old value "German" again) stopped the replacement: "Answer in German" stood beside
it in every block; "Use npm instead of pnpm" stood beside "Use pnpm"; a lead-in at the sentence's end ("Actually,
let's do commit messages in German from now on.") kept nothing; "Ab sofort schreibst du die Commit-Nachrichten auf
Deutsch." was kept as "Schreibst du ..." (a question's word order). Each case goes through the checkpoint's
model-free distillation (:func:`memrepo.engine.checkpoints.userkept.kept_statements`) and its placing of a rule
(:func:`~memrepo.engine.checkpoints.userkept.place`), which names the stored rule a newer one replaces.
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.userkept import kept_statements, place, proposed_rules


def _stored(text: str) -> ExistingEntry:
    return ExistingEntry("E1", "lessons.md", 5, text, "user", {"by": "user", "kind": "rule", "added": "2026-11-01"})


@pytest.mark.parametrize(
    ("old", "said", "rule"),
    [
        ("Answer in German", "Going forward, answer in English again, German was a bad idea.", "answer in English again"),
        (
            "Write commit messages in English",
            "Going forward, write commit messages in German, the team is all German now.",
            "write commit messages in German",
        ),
        ("Indent with 2 spaces", "Going forward, indent with 4 spaces; 2 was too cramped.", "indent with 4 spaces"),
        ("Keep answers under ten lines", "From now on, keep answers under five lines because I read them on my phone.",
         "keep answers under five lines"),
        ("Use pnpm", "From now on, use npm instead of pnpm.", "use npm instead of pnpm"),
        (
            "Write commit messages in English",
            "Actually, let's do commit messages in German from now on.",
            "do commit messages in German from now on",
        ),
        ("Answer in German", "Answer in English from now on.", "Answer in English from now on"),
    ],
)  # fmt: skip
def test_a_newer_rule_with_a_reason_or_an_old_value_named_replaces_the_older(old: str, said: str, rule: str) -> None:
    stored = _stored(old)
    assert [(k.text, k.kind) for k in kept_statements([said], [stored])] == [(rule, "rule")]
    assert place(rule, "rule", None, [stored], [said]) == ("global", stored)


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("From now on, write commit messages in English, short and in the imperative.",
         "write commit messages in English, short and in the imperative"),
        ("From now on, reply in English even when I write in Spanish.",
         "reply in English even when I write in Spanish"),
        ("From now on, run the tests before pushing, unless the change is docs only.",
         "run the tests before pushing, unless the change is docs only"),
    ],
)  # fmt: skip
def test_a_clause_that_belongs_to_the_rule_stays_in_it(said: str, rule: str) -> None:
    assert [(k.text, k.kind) for k in kept_statements([said], [])] == [(rule, "rule")]


@pytest.mark.parametrize(
    ("said", "old"),
    [
        ("From now on, use pnpm instead of npm.", "Use pnpm"),  # the named value is not the stored one's
        ("Going forward, answer in German, the client asked.", "Write commit messages in English"),
    ],
)
def test_a_named_or_reasoned_rule_on_another_value_or_subject_replaces_nothing(said: str, old: str) -> None:
    stored = _stored(old)
    rule = kept_statements([said], [stored])[0].text
    assert place(rule, "rule", None, [stored], [said]) == ("global", None)


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("Ab sofort schreibst du die Commit-Nachrichten auf Deutsch.", "schreib die Commit-Nachrichten auf Deutsch"),
        ("Ab sofort antwortest du bitte auf Deutsch.", "antworte auf Deutsch"),
        ("Von nun an benutzt du pnpm statt npm.", "benutz pnpm statt npm"),
    ],
)
def test_a_german_du_form_rule_is_kept_as_the_imperative(said: str, rule: str) -> None:
    assert [(k.text, k.kind) for k in kept_statements([said], [])] == [(rule, "rule")]


@pytest.mark.parametrize(
    "said",
    [
        "I prefer tabs from now on.",  # the user's preference, a fact
        "The staging DB is pg-stage-12 from now on.",
        "Going forward, let's see how it goes with the new CI.",
    ],
)
def test_a_trailing_lead_in_on_a_fact_or_a_hedge_is_no_rule(said: str) -> None:
    assert all(k.kind != "rule" for k in kept_statements([said], []))


@pytest.mark.parametrize(
    "said",
    [
        "Actually, don't bother running the tests before pushing anymore, CI does it.",
        "Don't bother running the linter before committing anymore, the hook does it.",
        "No need to keep running the tests before every push anymore.",
    ],
)
def test_a_rule_turned_around_without_a_lead_in_waits_in_the_inbox(said: str) -> None:
    """Before (breaker23 B23-13): silent, the user's rule stood and nothing said so; now a proposal beside it."""
    stored = _stored("Always run the tests before you push")
    assert kept_statements([said], [stored]) == []
    assert len(proposed_rules([said], [stored])) == 1


def test_dont_bother_anymore_is_a_rule_to_stop() -> None:
    said = "Don't bother adding emojis to commit messages anymore."
    assert [(k.text, k.kind) for k in kept_statements([said], [])] == [
        ("stop adding emojis to commit messages", "rule")
    ]
