"""Vendor key families from rule sets' own examples (issue 32, round 7): :mod:`memrepo.engine.redaction.families`.

Each family is a vendor's documented shape or a vendor name before a value; each
test names a key the detectors missed before the family, and a look-alike of the
same shape that must stay.
"""

from __future__ import annotations

import pytest

from memrepo.engine.read import redactionepoch
from memrepo.engine.redaction import DETECTORS, families, public, redact

NIGHTFALL_PLAIN = "NF-" + "a1b2" * 8
FB_EXPLORER_SHORT = "EAACEdEose0cBAZZIf4J6Y"
HEX40 = "df1a2dcb1bee6441e7b92e89efb6c3122d72bc17"
HEX40_PLAIN = "0a1b2c3d4e" * 4
UNDERSCORE_KEY = "_JUDh0OfzivMGCOjf6Y2Fr"
DASH_KEY = "-HIyRpXRUMagT-V406qgkn"
COURIER_TEST = "pk_test_NCKPRR5EQZUXRE0ZFXY4X26TB011"
STRIPE_PK = "pk_test_fQmWIxO4TX07PRjlcwAWgRoe"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (f"use {NIGHTFALL_PLAIN} for the DLP job", NIGHTFALL_PLAIN),  # the prefix and length name it, whatever entropy
        (FB_EXPLORER_SHORT, FB_EXPLORER_SHORT),  # alone on its line: no word before it names it
        (f"wandb {HEX40_PLAIN}", HEX40_PLAIN),
        (f"convertkit {UNDERSCORE_KEY}", UNDERSCORE_KEY),
        (f"convertkit {DASH_KEY}", DASH_KEY),
        (f"courier_secret={COURIER_TEST}", COURIER_TEST),
        (f"COURIER_AUTH_TOKEN={COURIER_TEST}", COURIER_TEST),
    ],
)
def test_a_key_of_the_family_is_redacted(text: str, value: str) -> None:
    assert value not in redact(text)[0]


@pytest.mark.parametrize(
    "text",
    [
        f"merged {HEX40} into main",  # a commit id: no wandb word before it
        f"wandb run finished; commit {HEX40}",  # "commit" stands between: the vendor context keeps it
        "NF-1234 is the ticket for the nightfall rollout",  # a ticket key, far too short
        f"the build uses {UNDERSCORE_KEY}",  # no vendor name before it
        "convertkit _private_helper_function_name",  # a name, not a random body
        "convertkit --no-verify-signatures-please",  # a flag
        f"stripe publishable key {STRIPE_PK}",  # Stripe's pk_ bodies hold lower case: public by design
    ],
)
def test_a_look_alike_stays(text: str) -> None:
    assert redact(text)[0] == text


def test_wandb_names_a_hex_value_on_its_own_line_only() -> None:
    text = f"wandb notes\ncommit {HEX40}"
    assert [text[s:e] for s, e, _ in families.spans(text)] == []


def test_courier_and_stripe_pk_values_split_by_their_alphabet() -> None:
    assert list(public.public_spans(STRIPE_PK))
    assert not list(public.public_spans(COURIER_TEST))


def test_the_families_detector_is_registered_and_starts_a_new_epoch() -> None:
    assert "families" in DETECTORS
    assert any(p.name == "families.py" for p in redactionepoch._DETECTOR_SOURCES)


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("SNYK_TOKEN=6f1c9a52-3b7e-4d08-9e2a-c57b180d4f93", "snyk-key"),
        ("Authorization: SSWS 00PbHtzHlzhydU6qSveSdXytP35mcFstFTMcGSAYde", "okta-key"),
    ],
)
def test_kingfisher_rules_without_a_confidence_field_run_as_medium(text: str, slug: str) -> None:
    """Kingfisher reads a rule with no ``confidence`` as medium (its ``Confidence::default``); so does the import."""
    from memrepo.engine.redaction import kingfisher

    assert slug in {s for _, _, s in kingfisher.spans(text)}
