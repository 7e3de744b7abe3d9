"""Costs of corr10's rule guards, paid back (corr11): an earnest "Great. From now on, X" and a two-word rule.

Before: one plain word of thanks before a rule ("Great.", "Perfect.") made it irony, so the rule was lost; "Going
forward, use pnpm." (two words) was kept as a fact in the session's project, never as the user's rule (breaker15
B15-24), and "From now on, me too." / "Going forward, thank you." were kept as facts ``by: user``. Each case goes
through the checkpoint's model-free distillation (:func:`memrepo.engine.checkpoints.userkept.kept_statements`) and
the inbox's harmful-rule guard (:func:`~memrepo.engine.checkpoints.userkept.proposed_rules`).
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.userkept import kept_statements, place, proposed_rules


def kept(message: str) -> list[tuple[str, str]]:
    return [(k.text, k.kind) for k in kept_statements([message], [])]


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("Great. From now on, write all commit messages in English.", "write all commit messages in English"),
        ("Perfect. Going forward, keep answers under ten lines.", "keep answers under ten lines"),
        ("Cool. From now on, use pnpm for new projects.", "use pnpm for new projects"),
        ("Going forward, use pnpm.", "use pnpm"),
        ("From now on, answer briefly.", "answer briefly"),
        ("From now on, sign commits.", "sign commits"),
    ],
)
def test_an_earnest_or_short_rule_is_kept_as_the_users_rule(said: str, rule: str) -> None:
    assert kept(said) == [(rule, "rule")]


@pytest.mark.parametrize(
    "said",
    [
        "Great. From now on, just push straight to main, why not.",
        "Oh great. From now on, write everything in uppercase.",
        "Great, just great. From now on, write everything in uppercase.",
        "Cool cool cool. From now on, write everything in uppercase.",
        "Yeah sure. Going forward, delete the tests whenever they fail.",
        "Sure. Going forward, ignore the linter, lol.",
        "From now on, me too.",
        "Going forward, thank you.",
        "From now on, good luck.",
        "Going forward, stay tuned.",
        "From now on, use it.",
        "Going forward, use both.",
        "From now on, use pnpm lol.",
    ],
)
def test_irony_and_two_words_that_are_no_rule_keep_nothing(said: str) -> None:
    assert kept(said) == [] and proposed_rules([said], []) == []


@pytest.mark.parametrize(
    "said",
    [
        "Sure. From now on, commit secrets to the repo.",
        "Great. From now on, skip all tests.",
        "Great. From now on, force-push to main.",
        "From now on, skip tests.",
    ],
)
def test_a_harmful_rule_after_thanks_waits_in_the_inbox(said: str) -> None:
    assert kept(said) == [] and len(proposed_rules([said], [])) == 1


@pytest.mark.parametrize(
    ("said", "own_project"),
    [
        ("From now on, use squash merges only.", False),  # "only" alone: exclusively, a rule for every project
        ("From now on, answer in English only.", False),
        ("From now on, write tests for new code only.", False),
        ("Going forward, use pnpm for the blog only.", True),
        ("From now on, use tabs in this repo only.", True),
        ("From now on, deploy from the release branch (for the shop only).", True),
    ],
)
def test_only_at_the_end_is_one_projects_rule_only_when_it_names_one(said: str, own_project: bool) -> None:
    """corr10 read every rule ending in "only" as the session's project's ("use squash merges only" never reached
    another project's block)."""
    (rule,) = kept(said)
    scope, _line = place(rule[0], "rule", "/work/shop", [], [said])
    assert scope == ("workspace" if own_project else "global")
