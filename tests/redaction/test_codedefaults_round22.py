"""Secrets a new tuning source (CredSweeper's samples, issue 32 round 22) showed left, fixed by class.

Each class in our own phrasings, never the source's lines: a secret given as a default in code (:mod:`.codedefaults`),
the ways names shorten ``password`` (:data:`.keynames.PASSWORD_WORD`), a diff's added or removed line
(:mod:`.views`), a JWK's members quoted without their braces (:mod:`.placed`), a file encoded whole in base64
(:mod:`.evidence`), MySQL's ``IDENTIFIED WITH <plugin>`` (:mod:`.cmdslots`), a comment after an assigned value
(:mod:`.assignments`) and vendor shapes (:mod:`.vendorprefix`). The look-alikes of each come first.
"""

from __future__ import annotations

import base64
import random

import pytest

from memrepo.engine.redaction import redact

PW = "Vq4t" + "Lm9x" + "Rz2w"
"""A password-like value, built so no scanner reads this file's source as holding one."""


def _left(text: str) -> None:
    assert redact(text)[0] == text


def _gone(text: str, *values: str) -> str:
    out = redact(text)[0]
    for value in values or (PW,):
        assert value not in out, out
    return out


CODE_DEFAULT_LOOK_ALIKES = [
    'token = os.getenv("TOKEN", "none")',
    'password = os.environ.get("DB_PW", "changeme")',
    'def connect(token: str = "Bearer"):',
    'def connect(password: str = "password"):',
    "const password = process.env.APP_PASSWORD || 'not-set'",
    'region = os.getenv("AWS_REGION", "eu-west-3")',
    'def fetch(token_url: str = "https://auth.example.org/oauth/token"):',
    'def load(password_file: str = "/run/secrets/db"):',
    'mode = os.getenv("AUTH_MODE") or "password"',
    f'user = os.getenv("DB_USER", "{PW}")',
]


@pytest.mark.parametrize("text", CODE_DEFAULT_LOOK_ALIKES)
def test_a_default_that_is_no_secret_is_left(text: str) -> None:
    _left(text)


CODE_DEFAULTS = [
    f'def open_db(host, passwd: str = "{PW}"):',
    f'fun signIn(user: String, password: String = "{PW}") {{',
    f'function sign(body, apiSecret: string = "{PW}") {{',
    f'if ADMIN_SECRET := os.getenv("ADMIN_S", "{PW}"):',
    f'db_pass = os.environ.get("PGPASS") or "{PW}"',
    f'smtp = os.getenv("SMTP_PASSWORD", "{PW}")',
    f'mailer_token = ENV.fetch("MAILER", "{PW}")',
    f'$dbPassword = getenv("DBP") ?: "{PW}";',
    f'var hookSecret = Environment.GetEnvironmentVariable("HOOK") ?? "{PW}";',
    f'auth_token = ENV["SVC"] || "{PW}"',
    f'val dbPassword: String = System.getenv("X") ?: "{PW}"',
]


@pytest.mark.parametrize("text", CODE_DEFAULTS)
def test_a_secret_given_as_a_default_in_code_is_redacted(text: str) -> None:
    out = _gone(text)
    assert out.startswith(text[: text.index(PW)])  # only the value went
    assert out.endswith(text[text.index(PW) + len(PW) :])


@pytest.mark.parametrize("name", ["PSWD", "DB_PSSWD", "smtp_paswd", "admin_pswrd", "mail_passwrd", "ftpPasword"])
def test_a_shortened_password_name_labels_its_value(name: str) -> None:
    _gone(f"{name}={PW}")
    _gone(f'{name} = "{PW}"')


def test_a_comparison_with_a_shortened_password_name_is_redacted() -> None:
    _gone(f'if user.pswd == "{PW}":')
    _gone(f'if ("{PW}" == form.passwrd) {{')


def test_a_word_holding_p_s_w_d_is_no_password_name() -> None:
    _left("capswd=1 and upswing=2")


def test_a_diff_line_is_read_as_the_file_line() -> None:
    word = "br" + "ød-7x"  # a short word: only the JSON key's own reader takes it, and it reads from the line's start
    assert redact(f'  "password": "{word}",')[0] != f'  "password": "{word}",'
    _gone(f'+  "password": "{word}",', word)
    out = _gone(f'@@ -3,2 +3,2 @@\n-  "db_password": "{PW}"\n+  "db_password": "${{DB_PASSWORD}}"', PW)
    assert "${DB_PASSWORD}" in out


def test_a_markdown_list_is_no_diff() -> None:
    _left("- passwords rotate monthly\n- the token service moved to eu-west-3")
    word = "br" + "ød-7x"
    _left(f'+ "password" is the field; "{word}" was the old example')  # a bullet: one space after the marker


def test_jwk_members_quoted_without_their_braces_are_redacted() -> None:
    d = "pQ7x" * 11
    _gone(f'    "kty": "RSA",\n    "use": "sig",\n    "d": "{d}"', d)
    _gone(f'"kty": "oct",\n"alg": "HS256",\n"k": "{d[:22]}"', d[:22])


def test_a_jwt_header_naming_alg_is_no_jwk() -> None:
    _left('"alg": "RS256",\n"d": "2025-01-01"')


def test_a_multi_line_file_encoded_whole_is_redacted_when_it_holds_a_secret() -> None:
    body = "\n".join(
        "".join(random.Random(i).choice("ABCDEFGHabcdefgh0123456789+/") for _ in range(64)) for i in range(4)
    )
    pem = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\n"
    config = "service:\n  name: billing\n  tls:\n    key: |\n      " + pem.replace("\n", "\n      ")
    blob = base64.b64encode(config.encode()).decode()
    _gone(blob, blob[:40])


def test_a_multi_line_file_encoded_whole_without_a_secret_is_left() -> None:
    config = "service:\n  name: billing\n  replicas: 3\n  image: registry.example.org/billing:1.4.2\n" * 3
    _left(base64.b64encode(config.encode()).decode())


def test_an_encrypted_files_header_line_is_left() -> None:
    """An age file's first armored line decodes to its header and a recipient's stanza: a run no reader names."""
    rng = random.Random(0)  # a stanza round 22's first reading took for a named token (``X25519 <run>``)
    stanza = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789") for _ in range(43))
    header = f"age-encryption.org/v1\n-> X25519 {stanza}\n"
    _left(base64.b64encode(header.encode()).decode()[:64])


def test_mysql_identified_with_a_plugin_takes_its_password_and_hash() -> None:
    _gone(f"ALTER USER 'app'@'%' IDENTIFIED WITH caching_sha2_password BY '{PW}';")
    hashed = "*" + "9C4F" * 10
    _gone(f"CREATE USER 'ro'@'10.0.0.%' IDENTIFIED WITH 'mysql_native_password' AS '{hashed}';", hashed)


def test_identified_as_in_prose_is_left() -> None:
    _left("the caller identified as admin by mistake")


def test_a_comment_after_an_assigned_value_keeps_it_read() -> None:
    _gone(f'val smtpPassword: String = "{PW}", // staging only')
    _gone(f'api_secret = "{PW}Q8"  # rotated 2025-03')


HRKU = "HRKU-" + "aB3xK9qL" * 7 + "mN7p"
AKAB = "akab-" + "q2w8e4r6t1y3u5i7" + "-" + "z9x7c5v3b1n2m4k6"
SEED = "SU" + "QWERTYZX234567AB" * 3 + "CDEFGHIJ"


@pytest.mark.parametrize(
    "text",
    [
        HRKU,
        "HRKU-" + "4f3c2a1b-9d8e-4f70-8192-a3b4c5d6e7f8",
        f"client_token: {AKAB}",
        f"# {SEED}",
        "token = '" + "hT4kQ9zLm2P" + "A" * 10 + "xR7vN3bW8cY2dF6gJ1kL5mQ9sT4uV8wX2yZ6aB0cD4e" + "'",
        "NRAK-" + "Q8W2E6R4T1Y9U3I7O5P0A2S4D6F",
    ],
)
def test_a_vendor_shape_is_redacted(text: str) -> None:
    out = redact(text)[0]
    assert "[REDACTED:" in out
    for run in (HRKU, AKAB, SEED):
        assert run not in out


@pytest.mark.parametrize(
    "text",
    [
        f"endpoint: {AKAB}.luna.akamaiapis.net",
        "NRJS-" + "0d1c2b3a4f5e6d7c8b9",
        "HRKU-" + "aB3xK9qL" * 4 + "*" + "mN7pQ2rS" * 3,
    ],
)
def test_a_vendor_look_alike_is_left(text: str) -> None:
    _left(text)
