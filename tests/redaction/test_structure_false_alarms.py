"""Memory text about passwords and pins that holds none stays whole (breaker2, round 6 follow-up).

Found by running ordinary developer memory lines through :func:`redact`: the
passphrase rule (:mod:`.phrases`) took sentences saying how a password is handled
("rotated monthly via Vault", "trocada todo mês pelo Vault") for passphrases, and
the layout rule (:mod:`.layout`) took a device's pin names (``GPIO17``) under a
``Pin`` header or label for PINs.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import configs, layout, phrases, prefixed


@pytest.mark.parametrize(
    "text",
    [
        "the password is rotated every ninety days",
        "the password is rotated monthly via Vault",
        "the password is managed centrally through Okta",
        "the password is synced nightly across environments",
        "password is randomly generated per deploy",
        "password is mandatory everywhere except localhost",
        "the password is handled by Terraform via random_password",
        "password was updated via ansible playbook rotate_db_creds.yml",
        "password is synced via Vault agent v1.15",
        "pw is rotated weekly via cron job",
        "password for staging is shared via team vault",
        "a senha é trocada todo mês pelo Vault",
        "a senha é gerada automaticamente pelo Terraform",
        "la contraseña es generada automáticamente cada mes",
        "la contraseña es distinta según cada entorno",
        "das Passwort ist bei Lena hinterlegt worden",
        "das Passwort ist jeweils pro Umgebung verschieden",
        "le mot de passe est changé chaque mois automatiquement",
        "le mot de passe est géré par Vault désormais",
        "le mot de passe est identique partout sauf prod",
    ],
)
def test_a_sentence_on_how_a_password_is_handled_stays(text: str) -> None:
    assert list(phrases.spans(text)) == []
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("my password is correct horse battery staple", "correct horse battery staple"),
        ("Minha senha do wifi é cafe com leite 42", "cafe com leite 42"),
        ("the wifi password is blue_river 77", "blue_river 77"),
    ],
)
def test_passphrases_are_still_taken(text: str, words: str) -> None:
    start = text.index(words)
    assert [(s, e) for s, e, _ in phrases.spans(text)] == [(start, start + len(words))]


@pytest.mark.parametrize(
    "text",
    [
        "| Pin | Signal | Notes |\n|-----|--------|-------|\n| GPIO17 | LED_STATUS | active high |\n| PA10 | USART1_RX | x |",
        "### Status LED pin\nGPIO17",
    ],
)
def test_a_devices_pin_names_stay(text: str) -> None:
    assert list(layout.spans(text)) == []
    assert redaction.redact(text)[0] == text


def test_the_layout_rule_takes_no_pin_name_under_a_pin_label() -> None:
    # an older rule (labelled-secret, rules.py) still takes "Reset pin:\nPA10_nRST"; layout adds nothing to it
    assert list(layout.spans("Reset pin:\nPA10_nRST")) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [("Door PIN:\n4821", "4821"), ("| Name | PIN |\n|---|---|\n| front door | 0815 |", "0815")],
)
def test_a_pin_under_its_label_or_header_is_redacted(text: str, value: str) -> None:
    assert value not in redaction.redact(text)[0]
    assert [text[s:e] for s, e, _ in layout.spans(text)] == [value]


@pytest.mark.parametrize(
    "text",
    [
        "- password: bcrypt",
        "- passwords: argon2id",
        "- password: SHA-512",
        "- password: plaintext",
        "- password: rotated",
        "- password: monthly",
        "- password: Okta",
        "- DB_PASSWORD: injected",
        "- db_password: from_vault",
        "- <password>see-vault</password> in pom.xml",
        "- bypass: cloudflare",
        "- compass: north",
        "- Surpass: benchmark",
        "- first_pass: lint",
        "- second-pass: typecheck",
        "- https://wiki.acme.io/search?q=password&bypass=cache",
    ],
)
def test_config_lines_about_a_password_or_with_a_pass_word_stay(text: str) -> None:
    assert list(configs.spans(text)) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("- password: sunshine", "sunshine"),
        ("SSHpassword=sunshine", "sunshine"),
        ("db_pass: letmein99", "letmein99"),
        ("jdbc:mysql://localhost/app?user=admin&userpass=sunshine", "sunshine"),
    ],
)
def test_a_plain_word_under_a_password_key_is_still_taken(text: str, value: str) -> None:
    assert [text[s:e] for s, e, _ in configs.spans(text)] == [value]


@pytest.mark.parametrize(
    "text",
    [
        "the feature branch is fix-4f2a9c1e7b3d5e6f7a8b9c0d1e2f3a4b",
        "renovate branch renovate-a3f5c8e9b1d2f4a6c8e0b2d4f6a8c0e2 is stale",
    ],
)
def test_a_branch_name_carrying_a_hash_stays(text: str) -> None:
    assert list(prefixed.spans(text)) == []
    assert redaction.redact(text)[0] == text


def test_a_mailgun_style_hex_key_is_still_taken() -> None:
    text = "Log into Zorbly with key-3f2a9c1e7b3d4f5a6b7c8d9e0f1a2b3c"
    assert [text[s:e] for s, e, _ in prefixed.spans(text)] == ["key-3f2a9c1e7b3d4f5a6b7c8d9e0f1a2b3c"]
