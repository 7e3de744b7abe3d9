"""Values labelled public or no secret stay verbatim in their label's shape (breaker21 B21-8, :mod:`.publiclabelled`).

The hostile cases come first: a secret after the same labels, or a public
label with a secret's value, must still be redacted. Then the breaker's
look-alikes, which were altered before.
"""

from __future__ import annotations

import base64
import random

import pytest

from memrepo.engine.redaction import redact

_RNG = random.Random(21)
KEY32 = base64.b64encode(_RNG.randbytes(32)).decode()
VAPID_PUBLIC = base64.urlsafe_b64encode(b"\x04" + _RNG.randbytes(64)).decode().rstrip("=")
VAPID_PRIVATE = base64.urlsafe_b64encode(_RNG.randbytes(32)).decode().rstrip("=")
GH = "ghp_" + "Vx9qLm2Tz8RpKa7Wc3Yh" + "5NbQwErTyUiOpAs1"
PW = "Xk9#mQ2" + "$vL7p"

STILL_SECRET = [
    (f"PrivateKey = {KEY32}", KEY32),
    (f"the wireguard private key is {KEY32}", KEY32),
    (f"VAPID_PRIVATE_KEY={VAPID_PRIVATE}", VAPID_PRIVATE),
    (f"PublicKey = {GH}", GH),
    (f'"publicKey": "{GH}"', GH),
    (f"the public key and the secret key is {KEY32}", KEY32),
    (f"the key for the cache is {PW}", PW),
    (f"my SSH key comment is bob@laptop-2024 and the passphrase is {PW}", PW),
    ("the redis password is app:4242:Zq8vR2mWx7", "app:4242:Zq8vR2mWx7"),
]


@pytest.mark.parametrize(("text", "secret"), STILL_SECRET)
def test_secrets_after_the_same_labels_are_still_redacted(text: str, secret: str) -> None:
    out, types = redact(text)
    assert secret not in out and types, out


LOOK_ALIKES = [
    f"the laptop's wireguard public key is {KEY32}",
    f"the wireguard peer PublicKey = {KEY32}",
    f'"publicKey": "{VAPID_PUBLIC}",',
    f"VAPID_PUBLIC_KEY={VAPID_PUBLIC}",
    "my PGP public key block starts with mQINBGN3jR0BEAC8vXyZ7wq1",
    "the key for the cache is user:42:profile",
    "cache keys look like session:{id}:tokens and order:*:lines",
    "my SSH key comment is bob@laptop-2024",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_public_values_labelled_so_stay_verbatim(text: str) -> None:
    assert redact(text) == (text, [])
