"""An id printed beside a secret of the same name (:mod:`.prefixpairs`, issue 32 round 23). Our own phrasings."""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import prefixpairs

ID = "Q7kLm2xZp9vKd3Rt"
SECRET = "w8e7r6t5y4u3i2o1p0a9s8d7f6g5h4j3"


@pytest.mark.parametrize(
    "text",
    [
        f'{{"zorbit_id": "{ID}", "zorbit_secret": "{SECRET}"}}',
        f"ZORBIT_ID={ID}\nZORBIT_KEY={SECRET}",
        f"zorbitId: '{ID}'\nzorbitToken: '{SECRET}'",
        f"acme-relay.id = {ID}\nacme-relay.password = {SECRET}",
    ],
)
def test_an_id_beside_a_secret_of_its_prefix_is_redacted_with_it(text: str) -> None:
    out, types = redaction.redact(text)
    assert ID not in out and SECRET not in out
    assert "credential-id" in types


@pytest.mark.parametrize(
    "text",
    [
        f"user_id: {ID}\nuser_token: {SECRET}",  # a user's id names a person: public
        f"zorbit_id: 3f9a1c2e-4b5d-4e6f-8a7b-9c0d1e2f3a4b\nzorbit_secret: {SECRET}",  # a UUID: a record's id
        f"zorbit_id: {ID}\nother_secret: {SECRET}",  # another prefix's secret
        f"zorbit_id: {ID}",  # no secret beside it
        f"zorbit_id: build-cache-primary\nzorbit_secret: {SECRET}",  # a name, not a key's shape
    ],
)
def test_ids_without_their_own_secret_or_a_keys_shape_are_not_this_rule(text: str) -> None:
    assert list(prefixpairs.spans(text)) == []


def test_the_secret_must_stand_near() -> None:
    far = f"zorbit_id: {ID}\n" + "notes line here\n" * 40 + f"zorbit_secret: {SECRET}"
    assert list(prefixpairs.spans(far)) == []
