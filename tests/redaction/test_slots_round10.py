"""Secrets in a password's place whatever their shape (breaker16 B16-1, B16-10, B16-11; issue 32).

A UUID as a URL's password or after ``-p``/``-u user:`` (B16-1), a Google app
password after ``…_PASSWORD=`` (B16-10), and one-case hex in ``gh secret set
--body``, ``curl -u <key>:`` and ``echo <v> | … --password-stdin`` (B16-11) are
redacted; the same values as ids, placeholders and variables stay.
Values here are fresh, not the benchmark's (docs/architecture.md §3).
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

U = "5d2e8f1a-3b7c-4e9d-a1f6-0c8b7e6d5a4f"
X = "a41c9e07b3d258f6e1c0b9a7d4e3f261"


@pytest.mark.parametrize(
    "text",
    [
        f"postgres://app:{U}@db.internal:5432/app",
        f"redis://:{U}@cache:6379/0",
        f"https://deploy:{U}@git.acme.dev/app.git",
        f"docker login -u deploy -p {U} registry.acme.dev",
        f"mysql -u root -p{U} app",
        f"curl -u admin:{U} https://api.acme.dev/",
        f"db.acme.dev:5432:app:app:{U}",
    ],
)
def test_uuid_in_a_password_place_is_redacted(text: str) -> None:
    out = redaction.redact(text)[0]
    assert U not in out and "[REDACTED:" in out, out


@pytest.mark.parametrize(
    "text",
    [
        "EMAIL_HOST_PASSWORD=qzvx bkft rnpw cmyd",
        "SMTP_PASSWORD=qzvx bkft rnpw cmyd",
        "MAIL_PASSWORD=qzvx bkft rnpw cmyd # gmail app password",
    ],
)
def test_spaced_app_password_after_a_password_name_is_redacted(text: str) -> None:
    out = redaction.redact(text)[0]
    assert "qzvx bkft" not in out and "[REDACTED:" in out, out


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"gh secret set DEPLOY_TOKEN --body {X}1a2b3c4d", X),
        (f"curl https://v3.recurly.com/accounts -u {X}:", X),
        (f"curl -u {U}: https://api.example.com", U),
        (f"echo {X} | docker login -u acme --password-stdin registry.acme.dev", X),
    ],
)
def test_one_case_secret_in_a_command_slot_is_redacted(text: str, secret: str) -> None:
    out = redaction.redact(text)[0]
    assert secret not in out and "[REDACTED:" in out, out


@pytest.mark.parametrize(
    "text",
    [
        f"request id {U} failed",
        f"see https://app.acme.dev/runs/{U}",
        f"job {U}: done",
        f"the trace {U} at db:5432",
        "MAIL_PASSWORD=your pass word here",
        "SMTP_PASSWORD=xxxx xxxx xxxx xxxx",
        "gh secret set DEPLOY_TOKEN --body $TOKEN",
        "echo $CR_PAT | docker login ghcr.io -u me --password-stdin",
        "curl -u admin: https://example.com",
    ],
)
def test_look_alikes_stay(text: str) -> None:
    assert redaction.redact(text)[0] == text


def test_a_uuid_as_a_jwk_symmetric_key_is_redacted_its_kid_kept() -> None:
    """B16-1's last case: the JWK rule found ``"k"``, then the UUID keep dropped it; a ``kid`` stays an id."""
    assert U not in redaction.redact('{"kty":"oct","k":"' + U + '"}')[0]
    assert U in redaction.redact('{"kid":"' + U + '","kty":"RSA"}')[0]
