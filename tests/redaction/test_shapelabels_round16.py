"""A value found by its shape under any name needs evidence; a key naming a public value is against it (issue 32,
round 16: :mod:`.shapelabels`).

The kept lines are the shapes the tuned public-format parts showed altered by the ``name: value`` shape rule
(``assigned-token``) with nothing naming a secret; each was redacted before this round. The secrets are the same
places with a name that does say so: they stay redacted.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import keynames, shapelabels

RUN = "Zk9xQ2mP7vL4nR8tY3wBq1Xc7Hf2aB3dE5gJ"


@pytest.mark.parametrize(
    "text",
    [
        f"ACME_API_KEY={RUN}",
        f'"token": "{RUN}"',
        f"zorbly_secret = {RUN}",
        f"id_token: {RUN}",  # a public word in the key, a secret word after it
        f"TERM=acme_{RUN}",  # a vendor-style head before a random body
        f"password: {RUN}",
    ],
)
def test_a_shape_under_a_name_naming_a_secret_is_redacted(text: str) -> None:
    out = redaction.redact(text)[0]
    assert RUN not in out, out


@pytest.mark.parametrize(
    "text",
    [
        f"github etag: {RUN}",  # a vendor's name would be evidence; the key says what the value is
        f'acme "contentDigest": "{RUN}"',
        f"stripe\tshasum: {RUN}",
        f"npm ci --integrity {RUN}",
    ],
)
def test_a_key_naming_a_public_value_wins_over_other_evidence(text: str) -> None:
    assert redaction.redact(text)[0] == text


def test_a_key_is_read_in_any_style() -> None:
    assert keynames.key_words("contentDigest") == ["content", "digest"]
    assert keynames.key_words("X-Request-Id") == ["x", "request", "id"]
    assert keynames.key_words("COMMIT_SHA") == ["commit", "sha"]
    text = f"x-request-id: {RUN}"
    assert shapelabels.public_label(text, text.index(RUN))
    text = f"commitToken: {RUN}"
    assert not shapelabels.public_label(text, text.index(RUN))


def test_only_spans_the_shape_rules_alone_found_are_weak() -> None:
    found = [(0, 10, "high-entropy"), (5, 20, "labelled-secret"), (30, 40, "high-entropy"), (50, 60, "assigned-token")]
    assert not shapelabels.weak((0, 20, "labelled-secret"), found)
    assert shapelabels.weak((30, 40, "high-entropy"), found)
    assert shapelabels.weak((50, 60, "assigned-token"), found), "a run after a name naming nothing (round 17)"
    assert not shapelabels.weak((50, 60, "url-token"), [(50, 60, "url-token")]), "a URL path's token is no guess"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("unicode-256color", True),
        ("v1-s3-artifact-repository", True),
        (RUN, False),
        ("9x8k2j4h7g6f5d3s", False),  # letters and digits in turn: no word
    ],
)
def test_a_body_of_words_is_told_from_a_random_one(body: str, words: bool) -> None:
    assert shapelabels.words_only(body) is words


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("key: controller.k8sclient.retry.max", True),  # a values list naming a setting
        ("  - key: server.k8sclient.retry.base.backoff", True),
        ("password: controller.k8sclient.retry.max", False),  # a password's label: whatever its shape
        ("key: correct.horse.battery.staple2024x", False),  # letters after digits: not a name of words
    ],
)
def test_a_settings_dotted_name_under_key_is_kept(text: str, kept: bool) -> None:
    assert (redaction.redact(text)[0] == text) is kept


def test_a_head_before_words_is_no_evidence_of_a_key() -> None:
    from memrepo.engine.redaction import evidence

    for name in ("rxvt-unicode-256color", "default-v1-s3-artifact-repository"):
        assert not evidence.has_evidence(name, 0, len(name)), name
    assert evidence.has_evidence(f"acme_{RUN}", 0, len(RUN) + 5)
