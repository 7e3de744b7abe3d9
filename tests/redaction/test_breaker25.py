"""breaker25's findings on round 16's redaction keeps (issue 32, round 13 of the helpers), each as it was found.

Every "is taken" case leaked on integration 038d05b; every "is kept" case was redacted there. The values are made
for this file (random shapes, no vendor's real key).
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

ESC, BEL, ST = "\x1b", "\x07", "\x1b\\"
TOKEN = "Zk9xQ2mP7vL4nR8tY3wBq1Xc7Hf2"
GHP = "ghp_Zk9xQ2mP7vL4nR8tY3wBq1Xc7Hf2aB3dE5gJ"


def _gone(text: str, value: str) -> str:
    out = redaction.redact(text)[0]
    assert value not in out, out
    assert "[REDACTED:" in out
    return out


def _kept(text: str) -> None:
    assert redaction.redact(text) == (text, [])


# --- B25-2: a secret inside a terminal OSC sequence --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (f"{ESC}]0;deploy@ci: export GITHUB_TOKEN={GHP}{BEL} $ ls", GHP),  # a shell's title: the command line
        (f"see {ESC}]8;;https://admin:{TOKEN}@db.example.com/{ST} the db {ESC}]8;;{ST} now", TOKEN),  # OSC 8 link
        (f"{ESC}]8;id=42;https://admin:{TOKEN}@db.example.com/{BEL}db{ESC}]8;;{BEL}", TOKEN),  # with parameters
        (f"{ESC}]52;c;Z2hwX1prOXhRMm1QN3ZMNG5SOHRZM3dCcTFYYzdIZjJhQjNkRTVnSg=={ST} copied", "Z2hwX1prOXhRMm1Q"),
        (f"{ESC}]633;E;export API_TOKEN={TOKEN};nonce{BEL}", TOKEN),  # VS Code's shell integration
        (f"{ESC}]2;password: {TOKEN}{ST}", TOKEN),
    ],
)
def test_a_secret_inside_an_osc_sequence_is_taken(text: str, value: str) -> None:
    out = _gone(text, value)
    assert out.startswith(text[:3]), out  # the framing stays: only the value goes


@pytest.mark.parametrize(
    "text",
    [
        f"{ESC}]0;deploy@ci-runner-7: ~/src/memrepo{BEL}$ make test",
        f"docs at {ESC}]8;;https://docs.example.com/guide/install{ST}the guide{ESC}]8;;{ST}",
        f"{ESC}]633;P;Cwd=/home/dev/projects/memrepo{BEL}{ESC}]633;E;git status{BEL}",
    ],
)
def test_an_osc_sequence_without_a_secret_is_kept(text: str) -> None:
    _kept(text)


# --- B25-3: ACCA/ABIA words are no AWS key ids; the key id's exact shape still is -------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I passed the ACCA-SBR-Strategic-Business-2024 exam",
        "ACCA_Qualification_Path_v2 doc",
        "ABIA-Nigeria-2023-election-report",
        "ACCADEMIA2024ROMAFEST is the hashtag",
        "ABIADVANCEDTRAINING2024 course code",
    ],
)
def test_a_word_starting_acca_or_abia_is_kept(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize("key", ["ACCAZK7XQ2MP7VL4NR3T", "ABIAZK7XQ2MP7VL4NR3T"])
def test_an_abia_or_acca_key_id_in_its_exact_shape_is_taken(key: str) -> None:
    assert redaction.redact(key) == ("[REDACTED:aws-access-key]", ["aws-access-key"])
    _gone(f"the deploy role uses {key} now", key)


# --- B25-1: a webhook or capability URL with an explicit port --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "https://hooks.slack.com:443/services/T01ABCDEF/B01ABCDEF/Zk9xQ2mP7vL4nR8tY3wBq1Xc",
            "Zk9xQ2mP7vL4nR8tY3wBq1Xc",
        ),
        (f"https://discord.com:443/api/webhooks/123456789012345678/{TOKEN}{TOKEN}-aB3", TOKEN),
        (f"curl https://api.acme.io:8443/v1/{TOKEN}/status", TOKEN),
        (f"capability url https://files.example.net:8080/s/{TOKEN}/download", TOKEN),
        (f"https://alerts.acme.io:8443/webhook/{TOKEN}", TOKEN),
    ],
)
def test_a_token_in_a_url_with_a_port_is_taken(text: str, value: str) -> None:
    out = _gone(text, value)
    assert ":8443/" in out or ":443/" in out or ":8080/" in out  # the host and port stay readable


@pytest.mark.parametrize(
    "text",
    ["https://git.company.com:7990/scm/proj/repo.git", "see http://localhost:8080/api/v2/users/42/profile"],
)
def test_a_url_port_and_plain_path_stay_kept(text: str) -> None:
    _kept(text)


# --- B25-4: the kid / x5t keep keeps only a key id's or thumbprint's shape -------------------------------------

JWS = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.Zk9xQ2mP7vL4nR8tY3wBq1Xc7Hf2aB3dE5gJ"
PAIR = "AKIAZK9XQ2MP7VL4NR8T:wJalrXUtnFEMI/K7MDENG/bPxRfiCYZk9xQ2mP7v"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (f"kid={JWS} alg", "Zk9xQ2mP7vL4nR8tY3wBq1Xc7Hf2aB3dE5gJ"),
        (f"x5t: {PAIR} for JWT", "wJalrXUtnFEMI"),
        (f"x5t: {PAIR}", "wJalrXUtnFEMI"),
        ("kid: AKIAZK9XQ2MP7VL4NR8T alg aws", "AKIAZK9XQ2MP7VL4NR8T"),
        (f"the JWT kid: admin:{TOKEN}", TOKEN),
        (f"JWT HS256 key kid:{TOKEN}/wJalrXUtnFEMI/K7MDENG/bPxRfiCY", TOKEN),
        (f"Partner API: send header X-Client acme and kid: {TOKEN} with each call", TOKEN),
        (f"x5t={TOKEN}/wJalrXUtnFEMI+K7MDENG/bPxRf=", TOKEN),
        (f"JWT secret: kid={TOKEN}", TOKEN),
    ],
)
def test_a_credential_after_kid_or_x5t_is_taken(text: str, value: str) -> None:
    _gone(text, value)


@pytest.mark.parametrize(
    "text",
    [
        'x5t: "3q2-7wAAAAAAAAAAAAAAAAAAAAA"',  # 20 bytes of base64url: a SHA-1 thumbprint, no JOSE word needed
        '{"alg":"RS256","kid":"prod-signing-2024.v2","typ":"JWT"}',
        "the JWKS kid is 3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ],
)
def test_a_key_id_or_thumbprint_in_its_shape_stays_kept(text: str) -> None:
    _kept(text)


# --- B25-6 / B25-7: what a found value's copies take -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "copy"),
    [
        ("use the secret named db-creds-prod-v2 (kubectl get secret db-creds-prod-v2 -o yaml)", "db-creds-prod-v2"),
        ("the SSH key id_ed25519_work2024 is loaded; ssh-add ~/.ssh/id_ed25519_work2024", "id_ed25519_work2024"),
        ("api key name: billing-service-2024, rotate billing-service-2024 monthly", "billing-service-2024"),
        ("license key server: lic01.acme.local:27000, ping lic01.acme.local:27000", "lic01.acme.local:27000"),
        ('password manager entry "Prod-DB-2024" holds it; search Prod-DB-2024', "Prod-DB-2024"),
        (
            "The admin password for https://db.example.com:5432 is in 1Password; connect psql to "
            "https://db.example.com:5432/prod",
            "https://db.example.com:5432",
        ),
        ('url = "github:acme/infra/main"; token = "github:acme/infra/main"', "github:acme/infra/main"),
        ("image: ghcr.io/acme/api:1.4 and the pull token ghcr.io/acme/api:1.4 is fine", "ghcr.io/acme/api:1.4"),
    ],
)
def test_a_name_or_a_kept_value_is_not_spread_to_its_copies(text: str, copy: str) -> None:
    out = redaction.redact(text)[0]
    assert out.count("[REDACTED:") <= 1, out
    assert copy in out, out


@pytest.mark.parametrize(
    "text",
    [
        "token: 6f1c2a9e-3b7d-4e8a-9c1f-2d5b7e9a0c3f for request 6f1c2a9e-3b7d-4e8a-9c1f-2d5b7e9a0c3f",
        "secret: SecretSanta2024 and again SecretSanta2024",
        "password: correct-horse-battery-staple, I typed correct-horse-battery-staple twice",
    ],
)
def test_a_secret_found_once_is_still_taken_in_every_copy(text: str) -> None:
    out = redaction.redact(text)[0]
    assert out.count("[REDACTED:") == 2, out


def test_a_longer_copy_a_shorter_found_value_starts_is_taken_whole() -> None:
    text = (
        "db password is Tulip7Garden and the root password is Tulip7Garden/root, the sticky note says Tulip7Garden/root"
    )
    out = redaction.redact(text)[0]
    assert "Tulip7Garden" not in out and "/root" not in out, out


# --- B25-5: a flake reference's owner and repository read as names -----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        f'inputs.infra.url = "github:acme/{TOKEN}aB3dE5gJ";',
        "nix develop github:Zk9xQ2mP7vL4nR8tY3wBq1Xc/infra",
        'url = "gitlab:deploy-token/Zk9xQ2mP7vL4nR8tY3wBq1Xc"',
    ],
)
def test_a_token_in_a_flake_references_name_is_taken(text: str) -> None:
    _gone(text, "Zk9xQ2mP7vL4nR8tY3wBq1Xc")


@pytest.mark.parametrize(
    "text",
    ['url = "github:nix-community/home-manager/release-24.05"', 'url = "github:acme/infra2024/main";'],
)
def test_a_flake_reference_with_names_stays_kept(text: str) -> None:
    _kept(text)


def test_a_name_shaped_value_said_to_be_the_password_is_taken_in_every_copy() -> None:
    out = redaction.redact("password: build-2024-11-05 and the release tag is build-2024-11-05")[0]
    assert "build-2024-11-05" not in out, out
