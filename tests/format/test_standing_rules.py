"""The user's standing rules said in a session (corr10, :mod:`memrepo.engine.format.standing`).

Before: "Going forward, write all commit messages in English" was kept as a fact in the session's workspace file
(other projects never saw it), and "From here on ...", "In future, ...", "Please stop X-ing", "Don't ever X again"
and the French, German and Spanish rules were not kept at all.
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.remembering import user_statements
from memrepo.engine.format.standing import project_rule, rule_statements, same_rule


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("Going forward, write all commit messages in English.", "write all commit messages in English"),
        ("From here on, always run the linter before committing.", "always run the linter before committing"),
        ("In future, always add a changelog line to every PR.", "always add a changelog line to every PR"),
        ("In the future, please always ask before deleting files.", "always ask before deleting files"),
        ("Moving forward, never commit to the release branch.", "never commit to the release branch"),
        ("Please stop adding emojis to commit messages.", "stop adding emojis to commit messages"),
        ("Don't ever force-push to main again.", "Don't ever force-push to main again"),
        ("Never use tabs in YAML files again.", "Never use tabs in YAML files again"),
        ("From now on, run `make lint` before committing.", "run `make lint` before committing"),
        (
            "Désormais, écris toujours les messages de commit en anglais.",
            "écris toujours les messages de commit en anglais",
        ),
        ("Ab sofort bitte immer Type Hints verwenden.", "bitte immer Type Hints verwenden"),
        ("A partir de ahora, responde siempre en español.", "responde siempre en español"),
        ("De ahora en adelante, nunca hagas push directo a main.", "nunca hagas push directo a main"),
    ],
)
def test_a_standing_rule_is_read_as_one(said: str, rule: str) -> None:
    assert rule_statements([said]) == [rule]


@pytest.mark.parametrize(
    "said",
    [
        '"From now on, always use tabs" is what the old style guide said.',  # quoted
        "Should we from now on deploy on Thursdays?",  # a question
        "My manager says from now on every PR needs two reviews.",  # another person's rule
        "Bob's rule is: going forward, never merge on Fridays.",
        "Review comment from Dana: going forward, please stop using print for logging.",
        "> From now on, use snake_case for all new modules.\nWhat do you think of this comment?",  # pasted
        "Going forward is the only option we have left.",  # the lead-in as a noun
        "In future releases the API will drop v1.",
        "Going forward, I think we should deploy on Thursdays.",  # a hedge
        "Don't ever do that again.",  # a rule of nothing
        "Don't ever do this kind of thing again.",
        "Never mind, use the old config again.",
        "Stop the dev server.",  # a task
        "Stop running the tests for now.",  # for now only
        "Stop adding debug prints to this function while we finish the refactor.",
        "Stop making excuses and fix it.",
        "Please stop worrying about it.",
        "Don't ever call me that again.",
        "Mein Chef sagt, ab sofort brauchen alle PRs zwei Reviews.",  # hearsay in German
        "Ab sofort ist der Server wieder online.",  # a state, not a rule
        "Désormais, le build prend dix minutes.",  # a fact
        "Going forward, Bob handles the releases, he said.",
        "From now on, the staging DB is pg-stage-12.",  # a fact, kept as one by the request rule
        # breaker15 B15-11, B15-12: a document's words, irony
        "Here is what the handbook says. From now on, every PR needs two reviews.",
        "Here's the CONTRIBUTING.md:\n\n## Commits\nFrom now on, write all commit messages in German.\n\nCan you review it?",
        "Great. From now on, just push straight to main, why not.",
        "Can you proofread this for our wiki?\n\nFrom now on, every PR needs two reviews.",
        "Yeah sure. Going forward, delete the tests whenever they fail. That's what you seem to want.",
    ],
)
def test_a_look_alike_is_no_rule(said: str) -> None:
    assert rule_statements([said]) == []


def test_a_rule_taken_back_or_pasted_is_not_kept() -> None:
    assert rule_statements(["Going forward, write commit messages in German. Just kidding."]) == []
    assert rule_statements(["From now on, keep answers under five lines.", "Actually, forget that, never mind."]) == []
    pasted = "Here is the team wiki page:\nGoing forward, never merge on Fridays.\nSummarize it for me."
    assert rule_statements([pasted]) == []


def test_a_lead_in_as_a_noun_or_a_hedge_is_no_request_to_keep_either() -> None:
    assert user_statements(["Going forward is the only option we have left."]) == []
    assert user_statements(["Going forward, I think we should deploy on Thursdays."]) == []
    assert user_statements(["Going forward, Bob handles the releases, he said."]) == []
    assert user_statements(["Can you proofread this for our wiki?\n\nFrom now on, every PR needs two reviews."]) == []
    assert rule_statements(["From now on, always review the diff before committing."]) == [
        "always review the diff before committing"
    ]
    assert user_statements(["Going forward, we tag releases as vYYYY.MM."]) == ["we tag releases as vYYYY.MM"]


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("write all commit messages in German", "Write all commit messages in English"),
        ("keep answers under five lines", "Keep answers under ten lines"),
        ("keep answers under twenty lines unless I ask for more", "Keep answers under ten lines"),
        ("answer in imperial units, not metric", "Always answer in metric units"),
        ("stop adding emojis to commit messages", "Always add emojis to commit messages"),
        ("stop writing commit messages in English; write them in German", "Write all commit messages in English"),
    ],
)
def test_a_newer_rule_on_the_same_subject_replaces_the_older(new: str, old: str) -> None:
    assert same_rule(new, old)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("always run the linter before committing", "Always run the tests before committing"),  # another object
        ("write all commit messages in lowercase", "Write all commit messages in English"),  # another kind of value
        # breaker15 B15-10, B15-13: another attribute, another object, one project's rule
        ("write all commit messages in Markdown", "Write all commit messages in English"),
        ("keep answers under 80 characters per line", "Keep answers under ten lines"),
        ("never use tabs in YAML files again", "Use tabs in Makefiles"),
        ("write tests in Vitest", "Write tests in English"),
        ("log errors to Sentry", "Log errors in JSON"),
        ("write all commit messages in German for the shop repo", "Write all commit messages in English"),
        ("always answer in metric units", "Keep answers under ten lines"),
        ("write all commit messages in English", "Write all commit messages in English"),  # the same rule
        ("never use tabs in YAML files again", "Write all commit messages in English"),
    ],
)
def test_a_rule_on_another_subject_replaces_nothing(new: str, old: str) -> None:
    assert not same_rule(new, old)


def test_a_teams_rule_is_the_projects() -> None:
    assert project_rule("we deploy the shop from the release branch")
    assert not project_rule("write all commit messages in English")
    assert project_rule("write all commit messages in German for the shop repo")
