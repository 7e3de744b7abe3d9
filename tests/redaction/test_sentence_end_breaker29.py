"""A secret's span ends before the sentence's own full stop (breaker29 B29-1).

Before: "Here's the token for the release bot: ghp_…. Also remember that the release bot posts to #wren-releases."
was redacted to "…: [REDACTED:github-token] Also remember …": a label rule's span took the ".", the two sentences
became one, and the checkpoint kept nothing of the request to remember after the secret.
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.userkept import kept_statements
from memrepo.engine.redaction import redact

GHP = "ghp_R8mYq2LzT0vKc4XwN7bHs1PdE9uJa3GfQ6oI"
HEX = "8f3a9c2e7b1d4f6a9c0e2b4d6f8a1c3e"


@pytest.mark.parametrize(
    ("said", "secret"),
    [
        (f"Here's the token for the release bot: {GHP}. Also remember that the bot posts to #wren.", GHP),
        (f"api key: {HEX}. Also remember that the bot posts to #wren.", HEX),
        (f"token: {GHP}, and remember that the bot posts to #wren.", GHP),
        (f"The deploy key is {GHP}; remember that the bot posts to #wren.", GHP),
    ],
)
def test_the_secret_is_redacted_and_its_sentence_keeps_its_punctuation(said: str, secret: str) -> None:
    out, _kinds = redact(said)
    assert secret not in out
    mark = out.index("[REDACTED:")
    closed = out.index("]", mark) + 1
    assert out[closed] == said[said.index(secret) + len(secret)]  # the "." "," or ";" after the secret is kept


def test_a_request_to_remember_after_a_pasted_token_is_kept() -> None:
    said = f"Here's the token for the release bot: {GHP}. Also remember that the release bot posts to #wren-releases."
    kept = [k.text for k in kept_statements([redact(said)[0]], [])]
    assert kept == ["the release bot posts to #wren-releases"]


def test_a_secret_ending_the_text_leaves_the_last_full_stop() -> None:
    out, _kinds = redact(f"api key: {HEX}.")
    assert HEX not in out and out.endswith("].")
