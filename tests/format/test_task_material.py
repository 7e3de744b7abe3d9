"""Which part of a message is material handed over for a task, and "and that" clauses (breaker30 B30-25, B30-20).

:func:`~memrepo.engine.format.pasted.task_material` finds the text under "translate/summarise/explain this" (first
line) or over "Summarize the above." (last line); :func:`~memrepo.engine.format.remembering.user_statements` keeps no
request inside it, and splits "remember that A and that B" into A and B.
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.pasted import handed_over_next, own_short_message, task_material
from memrepo.engine.format.remembering import user_statements
from memrepo.engine.format.thatclauses import that_clauses


@pytest.mark.parametrize(
    ("text", "material"),
    [
        ("Can you translate this README section to German?\n\n## Setup\nKeep in mind X.", "## Setup\nKeep in mind X."),
        ("What does this comment in the PR mean?\n\nalice: remember that X", "alice: remember that X"),
        ("Translate this to French: Remember that X.", "Remember that X."),
        ("Please translate the following paragraph into Spanish. Keep in mind X.", "Keep in mind X."),
        ("Line one of it.\nLine two of it.\nSummarize the above.", "Line one of it.\nLine two of it."),
        ("Explain this log:\nremember that X\nerror\n\nAlso, remember that Y.", "remember that X\nerror"),
        # breaker32 B32-4: the task line after a greeting or a line of the user's own
        (
            "Morning!\nCan you translate this README section to German?\n## Setup\nKeep in mind X.",
            "## Setup\nKeep in mind X.",
        ),
        (
            "Hi. Quick one.\nThanks!\nSummarize this thread for me:\nanna: remember X\nbo: ok",
            "anna: remember X\nbo: ok",
        ),
        ("Remember that Y.\nNow translate this to German: Keep in mind X.", "Keep in mind X."),
    ],
)
def test_the_material_of_a_task(text: str, material: str) -> None:
    span = task_material(text)
    assert span is not None and text[span[0] : span[1]] == material


@pytest.mark.parametrize(
    "text",
    [
        "Remember that I translate the docs into German every release.",  # a fact about a task, asked to keep
        "Can you explain why the build fails? Also remember that we use Node 20.",  # nothing handed over
        "Summarize this PR for me, and remember that we deploy on Fridays.",  # no material after the request
        "We ship on Fridays.\nSummarize the above.",  # one short line above: the user's own
        "Remember that we ship on Fridays.\nRemember that CI is GitHub Actions.\nNow explain this error.",
        "One.\nTwo.\nThree.\nCan you translate this README section to German?\nKeep in mind X.",  # not in the first three
    ],
)
def test_no_material(text: str) -> None:
    assert task_material(text) is None


def test_the_text_handed_over_in_the_next_message() -> None:
    """breaker32 B32-5: "I'll paste it next", then the paste; its last paragraph in the user's own voice stays."""
    ask = "Can you translate our README section to German? I'll paste it in my next message."
    paste = "## Setup\nKeep in mind that X.\nRun Y first."
    assert handed_over_next([ask, paste, "Remember that Z."]) == [ask, "", "Remember that Z."]
    assert handed_over_next([ask, paste + "\n\nAlso, remember that Z."]) == [ask, "Also, remember that Z."]
    # the message before says nothing comes next, hands its text over itself, or the next one asks its own task
    plain = ["Can you summarize this PR for me?", "Remember that we deploy on Fridays."]
    assert handed_over_next(plain) == plain
    inline = ["Translate this, I'll paste more later: Hallo.", "Remember that Z."]
    assert handed_over_next(inline) == inline
    own_task = [ask, "Explain this error first:\nValueError"]
    assert handed_over_next(own_task) == own_task


def test_a_one_line_task_is_no_correction_of_the_users_own() -> None:
    assert own_short_message("No, the deploy window is Friday now.")
    assert not own_short_message("Translate this to French: the deploy window is Friday now.")


@pytest.mark.parametrize(
    ("fact", "parts"),
    [
        (
            "CI runs on GitHub Actions and that deploys need a green build",
            ["CI runs on GitHub Actions", "deploys need a green build"],
        ),
        ("the blog is on Netlify, and that the CDN is Fastly", ["the blog is on Netlify", "the CDN is Fastly"]),
        (
            "the blog is on Netlify and that is final",
            ["the blog is on Netlify and that is final"],
        ),  # "that" points back
        ("we use X and that one too", ["we use X and that one too"]),
        ("X and that Y", ["X and that Y"]),  # a part under two words stays joined
    ],
)
def test_that_clauses(fact: str, parts: list[str]) -> None:
    assert that_clauses(fact) == parts


def test_remember_that_a_and_that_b_gives_both() -> None:
    said = ["Remember that the Stripe key is [REDACTED:stripe-key] and that webhooks go to /api/stripe/webhook."]
    assert user_statements(said) == ["webhooks go to /api/stripe/webhook"]
    assert user_statements(["Keep in mind that we use pnpm and that CI is GitHub Actions."]) == [
        "we use pnpm",
        "CI is GitHub Actions",
    ]
