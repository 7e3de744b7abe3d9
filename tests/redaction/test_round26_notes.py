"""Issue 32 round 26: classes read on notes5's tune half (docs/architecture.md §3).

Each value here is invented for this file; the corpus's own lines are the benchmark's.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import keyformats

DEEPL = "a4b9a54d-c1f0-4aa9-ae39-5e8b93aabadd:fx"
FERNET = "sLv9wgTwfQ1chLp_1lQJ2fXC52iKzCUP3B0LizE-0Ow="


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f'translator = deepl.Translator("{DEEPL}")', DEEPL),
        (f"- DeepL free key for the docs bot: {DEEPL}", DEEPL),
        (f"from cryptography.fernet import Fernet\nf = Fernet(b'{FERNET}')", FERNET),
        (f"FERNET_KEY={FERNET}", FERNET),
        (f"airflow: fernet_key = {FERNET}", FERNET),
    ],
)
def test_a_key_in_its_documented_format_is_redacted_without_a_label(text: str, secret: str) -> None:
    out, _types = redaction.redact(text)
    assert secret not in out, out


def test_a_uuid_alone_is_still_an_id_and_a_32_byte_value_needs_fernet_named() -> None:
    """The DeepL and Fernet shapes take nothing of their neighbours: a bare UUID, 32 bytes on a line not naming
    Fernet, a Fernet token (ciphertext, longer than a key)."""
    text = "request a4b9a54d-c1f0-4aa9-ae39-5e8b93aabadd failed with 502"
    assert redaction.redact(text)[0] == text
    assert list(keyformats.spans(f"cache salt {FERNET}")) == []
    token = "gAAAAABrFznxOBdR_GCWIGEY2r0tRsRrb9nVsC4hl7ywaAi6-ELyA_eFIY5uVa29GdUk9MiTKk4wE8-DMjYspBCYpoMjKOsswQ=="
    assert list(keyformats.spans(f"Fernet token: {token}")) == []
    assert [slug for _s, _e, slug in keyformats.spans(f"Fernet key: {FERNET}")] == ["fernet-key"]


def test_an_oauth_client_id_is_kept_and_its_secret_beside_it_is_redacted() -> None:
    """RFC 6749 §2.2: the client identifier is not a secret (every authorization URL carries it)."""
    client_id = "AQkquBDf1zctJOWGKWUEtKXm6qVhueUEMvXO_-MCI4DQQ4-LWvkDLIN2fGsd"
    secret = "EFnKbl3E_vRzN2cx7T_z4f9Qm0wbS8Lp3dUq1yHa6XoK2jC5eG8iT0sV9nB4"
    for text in (
        f"paypal:\n  mode: live\n  client_id: {client_id}\n  client_secret: {secret}",
        f"PAYPAL_CLIENT_ID={client_id}\nPAYPAL_CLIENT_SECRET={secret}",
    ):
        out, _types = redaction.redact(text)
        assert client_id in out and secret not in out, out


def test_an_app_id_beside_its_secret_is_still_redacted_with_it() -> None:
    text = "ZORVEL_APP_ID=Qw8rT2yU4iO6pA1sD3fG\nZORVEL_APP_SECRET=f4aadbaf272f8477bf45c3fb7392c052"
    out, _types = redaction.redact(text)
    assert "Qw8rT2yU4iO6pA1sD3fG" not in out


@pytest.mark.parametrize(
    "text",
    [
        "Stripe-Version: 2024-06-20\nIdempotency-Key: 5d1f0c9e-7b2a-4c3d-9e8f-0a1b2c3d4e5f",
        "retry with the same idempotency key 5d1f0c9e-7b2a-4c3d-9e8f-0a1b2c3d4e5f so the charge is not doubled",
        "- sshd: PasswordAuthentication no, PubkeyAuthentication yes on all hosts [kind: preference]",
        "mapboxgl.accessToken = 'pk.eyJ1IjoiYWNtZW1hcHMiLCJhIjoiY2x4OXEydzFlMGE3YjNjNGQ1ZTZmN2c4aCJ9.Yq3vR8kLmN2pXs7TdW4zBg'; "
        "// public token, URL-restricted",
    ],
)
def test_an_idempotency_key_and_a_list_after_a_label_stay(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("the staging password, Tr0ub4dor&3, goes in the vault today", "Tr0ub4dor&3"),
        ("token, 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
    ],
)
def test_a_value_after_a_label_and_a_comma_is_still_redacted(text: str, secret: str) -> None:
    out, _types = redaction.redact(text)
    assert secret not in out, out
