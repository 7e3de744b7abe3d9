"""A value made of words after a vendor's name is no vendor key; a random key there still is.

Issue 32 round 23: the "vendor named before a value" rule (:mod:`.context`) took ordinary names for keys when a
vendor's name stood before them: a package's platform, a hardware model, a URL-encoded name.
:func:`.codenames.words_ok` reads such a value as words; a vendor's key is random and never does.
"""

from __future__ import annotations

import random
import string

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import codenames, context


@pytest.mark.parametrize(
    "text",
    [
        "nvidia profile `dell-xps-15-9560-intel` and `asus-zephyrus-gu603h-nvidia` stay",
        "google-cloud-sdk (468.0.0-x86_64-linux-gnu)",
        "![CodeQL scan](https://github.com/acme/signer/workflows/CodeQL%20scan/badge.svg)",
    ],
)
def test_a_name_of_words_after_a_vendor_stays(text: str) -> None:
    out, found = redaction.redact(text)
    assert out == text, found


@pytest.mark.parametrize(
    "value",
    [
        "asus-zephyrus-gu603h-nvidia",
        "468.0.0-x86_64-linux-gnu",
        "CodeQL%20scan%20main",
        "4.35.1-aarch64-linux-musl",
    ],
)
def test_words_ok_reads_words_versions_and_model_codes(value: str) -> None:
    assert codenames.words_ok(value, context.VENDORS)


@pytest.mark.parametrize(
    "text,key",
    [
        ("sendgrid rubgq-zfxwp-ga4k2x-plmnbq", "rubgq-zfxwp-ga4k2x-plmnbq"),
        ("heroku 8f3kq9ZxLm2PwR7tYv4Nq", "8f3kq9ZxLm2PwR7tYv4Nq"),
        ("github token %20kq9ZxLm2PwR7tYv4Nq8f3", "kq9ZxLm2PwR7tYv4Nq8f3"),
        ("nvidia api key: asus-zephyrus-gu603h-nvidia", "asus-zephyrus-gu603h-nvidia"),
        ("heroku login: root HerokuDeploy-2024-Summer", "HerokuDeploy-2024-Summer"),
        ("aws deploy uses SummerAWS2024Deploy as the password", "SummerAWS2024Deploy"),
        ("the stripe one StripeDeploy2024! works", "StripeDeploy2024"),
    ],
)
def test_a_key_after_a_vendor_is_still_taken(text: str, key: str) -> None:
    """A random value after a vendor's name, and a value of words a secret word, a password's slot or role, or a
    symbol glued after it names a password, are still redacted."""
    out, _found = redaction.redact(text)
    assert key not in out, out


def test_random_tokens_read_as_words_no_more_than_names() -> None:
    """Random tokens with separators (the shapes of vendors' keys) pass :func:`.codenames.words_ok` no more often
    than :func:`.codenames.name_ok`, which already cancels a vendor key (1 in 1000 at most: both cases at random
    sometimes read as camel-case words)."""
    rng = random.Random(23)
    lower, mixed = string.ascii_lowercase + string.digits, string.ascii_letters + string.digits
    tokens = []
    for i in range(3000):
        alphabet = (lower, mixed)[i % 2]
        parts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(4, 12))) for _ in range(rng.randint(2, 5))]
        tokens.append(rng.choice("-_.").join(parts))
        tokens.append("-".join("".join(rng.choice(string.ascii_lowercase) for _ in range(5)) for _ in range(4)))
    passed = [t for t in tokens if codenames.words_ok(t, context.VENDORS)]
    assert len(passed) <= max(len(tokens) // 1000, sum(codenames.name_ok(t) for t in tokens)), passed
