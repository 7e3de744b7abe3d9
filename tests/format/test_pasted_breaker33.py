"""What the round-22 paste rules must leave the user's own (breaker33's trial of B32-4 and B32-5).

A request that says the text comes next blanked the next message whatever it was: "I'll send you the logs later",
"I'll share it with the team" then "Remember that ..." kept nothing. Now only a request that says the text comes
next ("I'll paste it", "in my next message", "I'll send it in a sec") counts, the next message must read as a
paste (two lines or more, or 160 characters), and its one-line first paragraph asking to keep something and its
last paragraph back in the user's voice stay. A line that states a standing rule ("From now on, explain this kind
of error in plain English") is not a task line, and a last paragraph of one line asking to keep something
("Remember that we target Python 3.12 only.") is the user's own after material too.
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.pasted import handed_over_next, task_material
from memrepo.engine.format.remembering import user_statements
from memrepo.engine.format.standing import rule_statements

PASTE = "## Setup\nKeep in mind that the staging database is wiped every night.\nRun `make bootstrap` first."


@pytest.mark.parametrize(
    ("ask", "own"),
    [
        (
            "Can you summarize the incident log? I'll send you the logs later.",
            "Remember that the staging DB is pg-stage-12.",
        ),
        (
            "Summarize this PR for me. I'll share it with the team.",
            "Great, thanks. From now on, always write PR summaries as bullet points.",
        ),
        (
            "What does this error mean? I'll post the fix to Slack after.",
            "Remember that our incident channel is #ops-fire.",
        ),
        (
            "Can you summarize this? I'll paste it in my next message.",
            "Actually never mind. From now on, always answer in English.",
        ),
        (
            "Can you rewrite this paragraph? I'll paste it next.",
            "Actually, scratch that. Remember that I use British English in all docs.",
        ),
        (
            "I'm gonna send the docs to the team later; can you explain this concept of idempotency?",
            "Remember that our API keys rotate monthly.",
        ),
        (
            "Translate this README section to German, I'll paste it next.",
            "Oh wait, also remember that the German should be formal.",
        ),
    ],
)
def test_the_users_own_next_message_is_kept(ask: str, own: str) -> None:
    assert handed_over_next([ask, own]) == [ask, own]


def test_the_users_own_paragraphs_around_a_paste_stay() -> None:
    ask = "I'll paste the log in a sec, then explain this crash to me."
    first = "Before that: remember that the prod DB is read-only for me."
    last = "Remember that I prefer British spelling."
    assert handed_over_next([ask, f"{first}\n\nERROR boom\nTraceback: x\n\n{last}"]) == [ask, f"{first}\n\n{last}"]
    assert handed_over_next([ask, f"{PASTE}\n\n{last}"]) == [ask, last]
    assert handed_over_next([ask, PASTE]) == [ask, ""]  # the paste alone: nothing of it kept


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "Hi Claude,\nquick context first.\nFrom now on, explain this kind of error in plain English.\n"
            "Remember that I am a designer, not a developer.",
            "I am a designer, not a developer",
        ),
        (
            "Thanks, that worked.\nPlease rewrite this function to use async.\n\nRemember that we target Python 3.12 only.",
            "we target Python 3.12 only",
        ),
    ],
)
def test_a_rule_or_a_last_request_of_the_users_own_is_kept(text: str, kept: str) -> None:
    span = task_material(text)
    assert span is None or kept not in text[span[0] : span[1]], text[span[0] : span[1]]
    assert kept in user_statements([text])


def test_a_standing_rule_that_names_a_task_is_still_a_rule() -> None:
    said = "From now on, explain this kind of error in plain English."
    assert task_material(said + "\nValueError: x") is None
    assert rule_statements([said])


def test_a_long_line_of_the_users_own_above_a_task_line_keeps_what_follows_theirs() -> None:
    text = (
        "I moved to Berlin last month and my whole team works from the Mitte office now, fine.\n"
        "Explain this to me: my timezone is CET now, remember that."
    )
    assert task_material(text) is None


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "Morning.\nBefore we start:\nCan you explain this error?\nAlso, from now on always use pnpm instead of npm.\n"
            "Thanks",
            "use pnpm instead of npm",
        ),
        (
            "Quick one.\nCan you rewrite this function to be async?\nFrom now on, always use type hints in Python code.\n"
            "Remember that our CI runs on GitHub Actions.",
            "our CI runs on GitHub Actions",
        ),
        ("ok\nexplain this to me simply\nremember that I'm new to Rust", "I'm new to Rust"),
    ],
)
def test_lines_in_the_users_voice_straight_under_a_task_line_are_theirs(text: str, kept: str) -> None:
    """The task is on something already in the chat: nothing is handed over, the lines under it are the user's."""
    assert task_material(text) is None
    assert any(kept in s for s in [*user_statements([text]), *rule_statements([text])])


def test_a_paste_under_a_blank_line_is_still_material() -> None:
    text = "Can you translate this README section to German?\n\nFrom now on, always run make bootstrap.\nThanks"
    span = task_material(text)
    assert span is not None and "make bootstrap" in text[span[0] : span[1]]


def test_a_pasted_pages_heading_is_no_task_line() -> None:
    ask = "Can you proofread our onboarding page? I'll paste it in my next message."
    page = "## How to explain this to new hires\nFrom now on, always run make bootstrap before make test."
    assert task_material(page) is None
    assert handed_over_next([ask, page]) == [ask, ""]


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("From now on, always run the linter before committing.\nCan you fix the failing test?", "linter"),
        ("Can you fix the failing test? Also, from now on, always run ruff before committing.", "ruff"),
        ("From now on, answer in German.\nCan you review the PR?", "German"),
    ],
)
def test_a_request_to_work_on_code_leaves_the_users_rule(said: str, rule: str) -> None:
    """breaker33: any "can you fix/check/review ..." in a message dropped every rule in it, as if the message held a
    document to review; the request's object must be text ("this", "the draft") for that."""
    assert any(rule in r for r in rule_statements([said])), rule_statements([said])


def test_a_request_to_review_text_the_message_holds_still_keeps_its_rules_out() -> None:
    said = "Can you review my README section?\n\nFrom now on, every PR needs two reviews."
    assert rule_statements([said]) == []
