"""Vendor words beside public ids, documented id prefixes and "secret" as an adjective stay verbatim (issue 32, round 5).

Each false alarm the breaker found is one case of a class: a word naming a
public resource between a vendor's name and its id, an object id by a prefix
its vendor documents as an id, and "secret" describing a noun. The secrets
beside them (a secret word after the resource word, a client secret built on an
id, a key-shaped value after a noun "secret") are still redacted.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction


@pytest.mark.parametrize(
    "text",
    [
        # a word naming a public resource between the vendor and the id
        "Datadog dashboard 3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b",
        "Datadog monitor 3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b is noisy again",
        "the Sentry alert 7c1e4a2b9d3f4e6a8b0c2d4e6f8a0b1c fired twice",
        "Grafana folder 9b7f3c2a-1d4e-4b6a-8c0d-2e4f6a8b0c1d holds the SLO boards",
        # an object id by a prefix its vendor documents as an id
        "Stripe price price_1MoBy5LkdIwHu7ixZhnattbh",
        "the monthly plan is price_1MoBy5LkdIwHu7ixZhnattbh, yearly prod_NWjs8kKbJWmuuc",
        "refunded pi_3MtwBwLkdIwHu7ix28a3tqPa for cus_NffrFeUfNV2Hib",
        "checkout session cs_test_a1YS1URlnyQCN5fUUduORoQ7Pw41PJqDWkIVQCpJPqkfIhd6tVY8XB1OLY",
        "OpenAI assistant asst_abc123XYZdef456GHIjkl789 in thread thread_abc123XYZdef456GHIjkl7",
        "uploaded file-BK7bzQj3FfZFXr7DbL6xJwfo for the batch",
        "Claude answered msg_01XFDUDYJgAACzvnptvVoYEL and called toolu_01A09q90qw90lq917835lq9",
        # "secret" describing a noun, the value words and a number
        "our secret lunch spot is zorbacafe-4471",
        "the secret menu item is burger-42",
        "secret santa group: office-2026",
    ],
)
def test_a_public_id_or_an_adjective_secret_stays_verbatim(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Datadog dashboard api key 3f2a1b4c5d6e4f708a9b0c1d2e3f4a5b", "3f2a1b4c5d6e4f708a9b0c1d2e3f4a5b"),
        ("Datadog 3f2a1b4c5d6e4f708a9b0c1d2e3f4a5b", "3f2a1b4c5d6e4f708a9b0c1d2e3f4a5b"),
        (
            "client secret pi_3MtwBwLkdIwHu7ix28a3tqPa_secret_YrKJUKribcBjcG8HVhfZluoGH",
            "YrKJUKribcBjcG8HVhfZluoGH",
        ),
        ("restricted key rk_live_51MoBy5LkdIwHu7ixZhnattbhXk93mQz7abLq", "rk_live_51MoBy5LkdIwHu7ixZhnattbh"),
        ("the secret for prod is zorbacafe-4471", "zorbacafe-4471"),
        ("our secret lunch spot key: Xk93mQz7Lq0pW2", "Xk93mQz7Lq0pW2"),
        ("secret api: x8Fq2LmZ0pQw7Rt1", "x8Fq2LmZ0pQw7Rt1"),
    ],
)
def test_the_secret_beside_them_is_still_redacted(text: str, secret: str) -> None:
    out, _ = redaction.redact(text)
    assert secret not in out, out
