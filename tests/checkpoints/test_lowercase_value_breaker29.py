"""A same-session correction whose new value is a lowercase word replaces the request it corrects (breaker29 B29-7).

Before: "Remember that my shell is fish." then "No wait, my shell is zsh." kept fish: a correction is taken at once
only when it says nothing but the new value, and a lowercase word the old line lacks ("zsh", "main") was read as a
word that scopes the value, not as the value. Now the word that stands where the old value stood is the value.
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.userkept import kept_statements


@pytest.mark.parametrize(
    ("asked", "corrected", "kept"),
    [
        ("Remember that my shell is fish.", "No wait, my shell is zsh.", "my shell is zsh"),
        (
            "Remember that wren's default branch is trunk.",
            "No wait, wren's default branch is main.",
            "wren's default branch is main",
        ),
        (
            "Remember that the standup is in the morning.",
            "Sorry, the standup is in the late afternoon.",
            "the standup is in the late afternoon",
        ),
        (
            "Remember that the on-call channel is ops.",
            "Actually, the on-call channel is incidents now.",
            "the on-call channel is incidents now",
        ),
    ],
)
def test_a_lowercase_value_said_in_the_old_values_place_replaces_the_request(
    asked: str, corrected: str, kept: str
) -> None:
    assert [k.text for k in kept_statements([asked, corrected], [])] == [kept]


@pytest.mark.parametrize(
    "corrected",
    [
        "No wait, my shell is zsh on the work laptop.",  # a scope added after the value: not a swap
        "No wait, on the server my shell is zsh.",  # a scope before it
    ],
)
def test_a_value_said_with_a_new_scope_does_not_replace_the_request(corrected: str) -> None:
    texts = [k.text for k in kept_statements(["Remember that my shell is fish.", corrected], [])]
    assert "my shell is fish" in texts
