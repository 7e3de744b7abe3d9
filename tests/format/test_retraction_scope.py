"""A "don't store it" about one sentence takes back that sentence only; a kept line loses its lead-in "Also,".

Before (breaker23 B23-6): "I'm on call this week, remember that. And my AWS secret is <key>, don't store it." kept
nothing: the retraction about the secret took back every request before it in the message. And (B23-4) "Also, the
blog's comments are handled by Giscus, keep that in mind." kept "Also, the blog's comments ...". Read as the
checkpoint reads the user's messages (:func:`memrepo.engine.format.remembering.user_statements`,
:func:`memrepo.engine.format.standing.rule_statements`).
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.remembering import user_statements
from memrepo.engine.format.standing import rule_statements

SECRET = "[REDACTED:labelled-secret]"


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (f"I'm on call this week, remember that. And my AWS secret is {SECRET}, don't store it.",
         ["I'm on call this week"]),
        (f"Remember that the deploy window is Tuesday. My token is {SECRET} but don't save that.",
         ["the deploy window is Tuesday"]),
        (f"Keep in mind that the staging host is stage3.internal. Also the DB password is {SECRET}, do not store it!",
         ["the staging host is stage3.internal"]),
    ],
)  # fmt: skip
def test_a_dont_store_it_about_its_own_sentence_keeps_the_other_requests(said: str, kept: list[str]) -> None:
    assert user_statements([said]) == kept


@pytest.mark.parametrize(
    "said",
    [
        "Remember that the deploy window is Tuesday. Don't store that.",
        "Remember that the deploy window is Tuesday, actually don't store that.",
        "Remember that the deploy window is Tuesday. Just kidding.",
        "Remember that the deploy window is Tuesday. And don't save it.",
    ],
)
def test_a_retraction_of_its_own_still_takes_back_the_request_before_it(said: str) -> None:
    assert user_statements([said]) == []


def test_a_rule_beside_a_secret_not_to_store_is_kept() -> None:
    said = f"From now on, answer in German. And my token is {SECRET}, don't store it."
    assert rule_statements([said]) == ["answer in German"]
    assert rule_statements(["From now on, answer in German. Don't store that."]) == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Also, the blog's comments are handled by Giscus, keep that in mind.",
         ["the blog's comments are handled by Giscus"]),
        ("Plus, the shop API runs on port 9090, remember that.", ["the shop API runs on port 9090"]),
        ("So, the release train leaves on Thursdays, remember that.", ["the release train leaves on Thursdays"]),
    ],
)  # fmt: skip
def test_a_kept_line_loses_its_lead_in(said: str, kept: list[str]) -> None:
    assert user_statements([said]) == kept
