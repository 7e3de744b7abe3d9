"""Passwords said around the word that names them (breaker17 B17-7, issue 32; engine/redaction/credsaid.py).

Each form from the finding is redacted, with fresh values (not the benchmark's); the same sentence shapes holding
a path, a scheme name or plain words stay verbatim (docs/architecture.md §3).
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

PW = "Autumn#2031"


@pytest.mark.parametrize(
    "text",
    [
        f"the grafana admin is admin with {PW} as the password.",
        f"use {PW} as the password for grafana",
        f"{PW} as my passphrase, please",
        f"my laptop's login is jdoe and {PW}",
        f"the creds are admin, {PW}",
        f"the backup encryption key is in 1Password under 'restic' and it's {PW}.",
        f"the wifi password? it's {PW}",
        f"the root password was changed to {PW}",
        f"the login got reset to {PW} yesterday",
    ],
)
def test_a_password_said_around_its_name_is_redacted(text: str) -> None:
    out = redaction.redact(text)[0]
    assert PW not in out and PW[:-1] not in out, out
    assert "[REDACTED:" in out, out


@pytest.mark.parametrize(
    "text",
    [
        "use Python3.12 as the runtime for the login service",
        "the login flow was changed to OAuth2-PKCE",
        "the key is in config.yaml and it's RS256-PSS",
        "the password policy changed to something stronger",
        "the secret is managed by Vault and it's rotated weekly",
        "The deploy key is read-only and it's named DeployKey2024",
    ],
)
def test_the_same_shapes_without_a_password_stay_verbatim(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    "text",
    [
        "my laptop's login is jdoe and TigerDBAdmin2024Secure",
        "the login got reset to SummerAWS2024Deploy",
    ],
)
def test_a_password_of_capitalised_words_and_digits_is_redacted(text: str) -> None:
    """B18-10: ``secret_shape`` reads these as identifiers; the sentence says they are passwords."""
    assert text.split()[-1] not in redaction.redact(text)[0]


@pytest.mark.parametrize(
    "text",
    [
        "the login flow changed to OAuth2PKCE last sprint",
        "password strength meter changed to zxcvbn-ts@3.0.4",
        "password complexity rule changed to ^(?=.*\\d)(?=.*[A-Z]).{12,}$",
        "the key takeaway? it's O(n^2)-bound",
        "the secret sauce? it's SIMD+AVX2",
        "use TOTP+WebAuthn as the login",
        "use mTLS+SPIFFE as the credentials",
    ],
)
def test_a_scheme_a_package_or_a_regex_after_a_credential_word_stays_verbatim(text: str) -> None:
    """B18-6: notes about a login or password *feature* name a scheme, a pinned package, a regex or a notation."""
    assert redaction.redact(text)[0] == text
