"""Secrets found by structure (issue 32, round 6): what a break-it tester found after round 5.

Each secret test fails on the code before this round: a key of an unknown vendor
with no keyword near it, a password under its label on the next line or in a
markdown table, and passphrases of several words said without quotes in Korean,
Portuguese and the other languages the said-password rule reads. Each look-alike
test pins what the new rules must leave alone.
"""

from __future__ import annotations

import random
import string

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import layout, phrases, prefixed

ZQ = "zq_4f8a9b2c7d1e6f3a0b5c8d9e2f7a1b4c"
"""An unknown vendor's key: a prefix and 32 random hex characters (the break-it tester's ``Zorbly`` key)."""


@pytest.mark.parametrize(
    "text",
    [
        f"Log into Zorbly with {ZQ}",
        f"prod zorbly -> {ZQ}",
        f"set {ZQ} before the deploy",
        f"export ZORBLY_AUTH={ZQ}",
        f'ZORBLY_CREDENTIAL="{ZQ}"',
    ],
)
def test_an_unknown_vendors_prefixed_key_with_no_keyword_is_redacted(text: str) -> None:
    out = redaction.redact(text)[0]
    assert ZQ not in out and "4f8a9b2c7d1e6f3a0b5c8d9e2f7a1b4c" not in out


@pytest.mark.parametrize(
    "token",
    [
        "spu-aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF",  # base62 body
        "rh-api-c8dfa8d2e4b7f14a3c6e9b01d5f7a2c4",  # two prefix parts, hex body
        "acme_live_Xq7Lm2Pz9Kd4Wn8Rt3Yb6Hc1Jf5Gs0Va",  # a live key of an invented vendor
    ],
)
def test_a_prefixed_random_token_is_found_by_its_shape(token: str) -> None:
    assert [(s, e) for s, e, _ in prefixed.spans(f"the value {token} here")] == [(10, 10 + len(token))]


@pytest.mark.parametrize(
    "text",
    [
        "my_variable_nameIsVeryLongAndCamelCase123",  # a camelCase name
        "sha256_4f8a9b2c7d1e6f3a0b5c8d9e2f7a1b4c4f8a9b2c7d1e6f3a0b5c8d9e2f7a1b4c",  # a digest named by its algorithm
        "trace-0c1b16f1222cd0779915440f3e78129d0c1b16f1",  # an id named as one
        "https://example.com/files/zq_4f8a9b2c7d1e6f3a0b5c8d9e2f7a1b4c",  # inside a path
        "- Stripe subscription sub_1OabcDEFghiJKLmnOPqrSTuv renews monthly",  # a documented object id
        "- Anthropic message id msg_01l20nGIFBVKxx4T731k0aW1jl",
        "feature_flag_enable_the_new_dashboard_for_everyone_2024",  # words
    ],
)
def test_names_ids_and_digests_with_a_prefix_are_not_taken_for_keys(text: str) -> None:
    assert list(prefixed.spans(text)) == []
    if " " in text:  # a lone name may still be another rule's (a bare high-entropy run)
        assert redaction.redact(text)[0] == text


def test_random_bodies_of_each_alphabet_are_found_most_of_the_time() -> None:
    """Measured shape rule, not a sample list: 500 random bodies of each alphabet, 90% or more read random."""
    rng = random.Random(6)
    for alphabet, length in ((string.ascii_letters + string.digits, 32), ("0123456789abcdef", 32)):
        found = sum(prefixed.random_body("".join(rng.choice(alphabet) for _ in range(length))) for _ in range(500))
        assert found >= 450, (alphabet, found)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Admin password\n    S3cr3t!pw", "S3cr3t!pw"),
        ("**Admin password**\n`S3cr3t!pw`", "S3cr3t!pw"),
        ("Password:\n\n  hunter2-Blue!", "hunter2-Blue!"),
        ("Wi-Fi password\nSunflower-77", "Sunflower-77"),
        ("## Password\nTr0ub4dor&3", "Tr0ub4dor&3"),
        ("비밀번호\n  Qw3rty!9", "Qw3rty!9"),
    ],
)
def test_a_password_under_its_label_is_redacted(text: str, value: str) -> None:
    assert value not in redaction.redact(text)[0]
    assert [text[s:e] for s, e, _ in layout.spans(text)] == [value]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("| host | user | password |\n| --- | --- | --- |\n| db | admin | S3cr3t!pw |", "S3cr3t!pw"),
        ("| service | user | pw |\n|---|---|---|\n| db | app | Kx9!mPq2 |\n| nas | root | n/a |", "Kx9!mPq2"),
        ("| Name | Token |\n| --- | --- |\n| ci | 8fK2mP9xQ4rT7vW1 |", "8fK2mP9xQ4rT7vW1"),
        ("| db | admin | S3cr3t!pw |", "S3cr3t!pw"),  # no header in sight: the cell after an account name
    ],
)
def test_a_password_in_a_table_cell_is_redacted(text: str, value: str) -> None:
    out = redaction.redact(text)[0]
    assert value not in out
    assert "| db |" in out or "| ci |" in out  # the other cells stay


@pytest.mark.parametrize(
    "text",
    [
        "| key | value |\n|---|---|\n| timeout | 30s |",
        "| user | password |\n|---|---|\n| admin | see vault |\n| root | — |",
        "| option | secret |\n|---|---|\n| --api-key | yes |",
        "Password:\n  see vault",
        "Password\nPolicy: at least 12 chars",
        "password policy\n  min-length",
    ],
)
def test_tables_and_labels_without_a_password_stay(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("my password is correct horse battery staple", "correct horse battery staple"),
        ("비밀번호는 correct horse battery staple 입니다", "correct horse battery staple"),
        ("와이파이 비밀번호는 sunny day 2024 이야", "sunny day 2024"),
        ("Minha senha do wifi é cafe com leite 42", "cafe com leite 42"),
        ("a senha é correct horse battery staple", "correct horse battery staple"),
        ("la contraseña es gato negro 99", "gato negro 99"),
        ("das Passwort ist blauer himmel 42", "blauer himmel 42"),
        ("le mot de passe est soleil levant 88.", "soleil levant 88"),
        ("пароль — синий кит 42", "синий кит 42"),
    ],
)
def test_a_passphrase_said_without_quotes_is_redacted_whole(text: str, words: str) -> None:
    out = redaction.redact(text)[0]
    assert all(w not in out for w in words.split() if len(w) > 2), out


@pytest.mark.parametrize(
    "text",
    [
        "The wifi password is on the fridge",
        "Password for the NAS is under the keyboard",
        "senha: está no cofre",
        "비밀번호: 팀장에게 문의",
        "The password must be at least 12 characters",
        "The password is 12 characters long",
        "the password is the same as the old one",
        "my password is not set yet",
        "the password was changed yesterday by Marta",
        "password: ******** (masked)",
        "Пароль для сервера: см. хранилище",
    ],
)
def test_talk_about_a_password_stays(text: str) -> None:
    assert list(phrases.spans(text)) == []
    assert redaction.redact(text)[0] == text


def test_a_sentence_after_a_password_is_not_taken_with_it() -> None:
    out = redaction.redact("the password is hunter2 and the user is bob")[0]
    assert "hunter2" not in out and out.endswith("and the user is bob")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("    <password>sunshine7</password>", "sunshine7"),
        ("<TRAVEL_API_KEY>YXNkZmZmZmZm_Xq7Lm2Pz</TRAVEL_API_KEY>", "YXNkZmZmZmZm_Xq7Lm2Pz"),
        ('      {"key": "db.password", "value": "letmein"},', "letmein"),
        ("- name: DB_PASSWORD\n  value: letmein99", "letmein99"),
        ("<name>password</name>\n<value>sunshine</value>", "sunshine"),
        ("<key>Password</key>\n<string>sunshine</string>", "sunshine"),
        ("  password: sunshine", "sunshine"),
        ("SSHpassword=sunshine", "sunshine"),
        ('$db_password01 = "hunter";', "hunter"),
        ("jdbc:mysql://localhost/app?user=admin&userpass=sunshine", "sunshine"),
    ],
)
def test_a_password_in_a_config_files_syntax_is_redacted_even_a_word(text: str, value: str) -> None:
    assert value not in redaction.redact(text)[0]


@pytest.mark.parametrize(
    "text",
    [
        "password: required",
        "Password: expired",
        "password = asdf",  # an unquoted word after " = " is a variable in code
        "pass: true",
        "pass: 12/12",
        "<password>${DB_PASS}</password>",
        "- name: DB_PASSWORD\n  valueFrom:",
        "<primaryKey>id</primaryKey>",
        "<passwordPolicy>strict</passwordPolicy>",
        'db_password: "null"',
    ],
)
def test_config_lines_without_a_password_stay(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    ("text", "secret", "kept"),
    [
        ("The prod db password is Tr0ub4dor&3xQ since june", "Tr0ub4dor&3xQ", "since june"),
        ("the wifi password is blue river 77 until friday", "blue river 77", "until friday"),
        ("das Passwort ist rote Katze 99 seit Mai", "rote Katze 99", "seit Mai"),
    ],
)
def test_a_clause_after_a_password_ends_it(text: str, secret: str, kept: str) -> None:
    out = redaction.redact(text)[0]
    assert all(w not in out for w in secret.split()) and out.endswith(kept), out
    start = text.index(secret)
    found = [(s, e) for s, e, _slug in redaction.find(text)]
    assert found == [(start, start + len(secret))]  # the value alone: `secrets allow` can name it
