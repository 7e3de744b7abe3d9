"""Passwords said as "auth", "login", "sudo", an unlock code or Redis' ``AUTH <pw>`` (breaker14 B14-3, issue 32).

Each form from the finding is redacted; the same words before a file path, a URL
path, an identifier, a version, an address or plain words stay verbatim (B11-1).
Values here are fresh, not the benchmark's (docs/architecture.md §3).
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import authsaid

PW = "Tq6!xR3#mK8w"


def _gone(text: str, *secrets: str) -> str:
    out = redaction.redact(text)[0]
    for secret in secrets:
        assert secret not in out, out
    assert "[REDACTED:" in out, out
    return out


@pytest.mark.parametrize(
    "text",
    [
        f"the redis auth is {PW}",
        f"the auth for grafana is {PW}",
        f"grafana auth: {PW}",
        f"AUTH {PW}",
        f"redis AUTH {PW}",
        f"AUTH default {PW}",
        f"the grafana login is {PW}",
        f"the login for grafana is admin {PW}",
        f"{PW} is grafana's login",
        f"sudo on the build box is {PW}",
        f"the unlock code is {PW}",
        f"connect with -p {PW}",
        f"the redis auth {PW}.",
        f"Quick setup note: staging redis requires AUTH {PW}, remember that.",
        f"Also remember that the redis auth on prod is {PW}.",
    ],
)
def test_password_said_as_auth_or_login_is_redacted(text: str) -> None:
    _gone(text, PW)


@pytest.mark.parametrize("text", [f"REDIS_AUTH={PW}", f"ADMIN_LOGIN={PW}", f'redis_auth: "{PW}"'])
def test_env_name_ending_in_auth_or_login_is_redacted(text: str) -> None:
    _gone(text, PW)


def test_pasted_env_keeps_its_other_lines() -> None:
    text = f"REDIS_AUTH={PW}\nADMIN_LOGIN=Hz4$wP9!cL2v\nREDIS_HOST=cache.internal\nADMIN_USER=admin\n"
    out = _gone(text, PW, "Hz4$wP9!cL2v")
    assert "REDIS_HOST=cache.internal\nADMIN_USER=admin\n" in out


@pytest.mark.parametrize(
    "text",
    [
        "see auth/login.py:14 for the bug",
        "The secret scanning job runs in .github/workflows/secrets.yml",
        "the login route is /api/v2/login",
        "use @login_required on the view",
        "the authMiddleware handles it",
        "auth is AuthMiddleware2 now",
        "the auth is OAuth2-based",
        "auth is v2.4.1-beta now",
        "the login is broken again",
        "sudo apt-get install -y libpq-dev",
        "login: admin",
        "ADMIN_LOGIN=admin",
        "docker run -p 127.0.0.1:8080:80 nginx",
        "mkdir -p src/Auth2/login",
        "the last login at 2024-12-01T10:00Z",
        "auth: ${{ secrets.REDIS }}",
        "the login for grafana is admin@example.com",
        "login host is db-01.prod.internal",
        "pytest -p no:cacheprovider",
        "AUTH failed: WRONGPASS invalid username-password pair",
        "the auth is JWT-HS256",
        "login is Okta(SAML2)",
        "login: John.Doe2",
        "AUTH_TYPE=OAuth2",
        "psql -p 5433 -U app",
        "git add -p src/Foo2.java",
    ],
)
def test_look_alikes_stay(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    ("value", "secret"),
    [
        (PW, True),
        ("kJ8#mN2$pQ9!wE4", True),
        ("auth/login.py:14", False),
        ("login_required", False),
        ("AuthMiddleware2", False),
        ("v2.4.1-beta", False),
        ("db-01.prod.internal", False),
        ("Passw0rd", False),
        ("abcdefgh", False),
    ],
)
def test_secret_shape(value: str, secret: bool) -> None:
    assert authsaid.secret_shape(value) is secret
