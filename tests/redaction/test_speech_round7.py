"""Passwords said in twelve languages, and the look-alikes that must stay (issue 32, round 7).

Round 7 measured a new tuning set (benchmarks/secrets_corpus/speech3.json) and
found false alarms on code that calls for a password and a variable passed
through (the other look-alikes: test_false_alarms_round7.py); and misses in
Italian, Dutch and Polish, values said before their password word, recovery
codes and seed phrases named in other languages.
Values here are fresh, not the benchmark's (docs/architecture.md §3).
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction


def _kept(text: str) -> None:
    assert redaction.redact(text)[0] == text


def _gone(text: str, *secrets: str) -> str:
    out = redaction.redact(text)[0]
    for secret in secrets:
        assert secret not in out, out
    return out


@pytest.mark.parametrize(
    "text",
    [
        'PASSWORD := os.Getenv("PW")',
        'pw := os.Getenv("DB_PASSWORD")',
        'DB_PASS := mustEnv("DB_PASS")',
        'password := flag.String("password", "", "db password")',
        "password = getpass.getpass()",
        "let pw = read_password()?;",
    ],
)
def test_code_that_calls_for_a_password_stays(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize(
    "text",
    [
        "docker run -e POSTGRES_PASSWORD postgres:16",
        "docker run -e MYSQL_ROOT_PASSWORD mysql:8.4",
    ],
)
def test_a_variable_passed_through_stays(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("la password di root è Tz8!kWq3Lm", "Tz8!kWq3Lm"),
        ("la chiave del wifi è Gufo2231!", "Gufo2231!"),
        ("il PIN del bancomat è 41952", "41952"),
        ("Het wachtwoord van de wifi is Uil4417#", "Uil4417#"),
        ("pincode van de bankpas is 7720", "7720"),
        ("wifi-wachtwoord = Meeuw902!", "Meeuw902!"),
        ("Hasło do wifi to Sowa5521?", "Sowa5521?"),
        ("login: admin, hasło Kp2#vX9mQz", "Kp2#vX9mQz"),
        ("パスコードは739214です", "739214"),
        ("PIN 번호는 582913", "582913"),
        ("银行卡密码是630418", "630418"),
        ("la clave de la alarma es 48213957", "48213957"),
    ],
)
def test_passwords_and_pins_said_in_more_languages_are_taken(text: str, secret: str) -> None:
    _gone(text, secret)


def test_a_password_after_ist_jetzt_is_still_taken() -> None:
    _gone(
        "mein Passwort fürs Intranet ist jetzt Rx7?bN2wQe", "Rx7?bN2wQe"
    )  # phrases.py reads "jetzt" as a sentence's word


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Heron5521! is the wifi key", "Heron5521!"),
        ("Wq3!zRt8Yp is the password for the kiosk account", "Wq3!zRt8Yp"),
        ("reset Ola's password to Lynx4410#", "Lynx4410#"),
        ("the code for the back door is 90417", "90417"),
        ("encrypted the external backup disk with Jm5?qWx2Zr", "Jm5?qWx2Zr"),
        ("wifi: CabinNet / heron4410", "heron4410"),
        ("rabbitmqctl add_user billing Crane7781#", "Crane7781#"),
        ("rabbitmqctl change_password guest Vx8!nQ2pLs", "Vx8!nQ2pLs"),
    ],
)
def test_passwords_in_other_orders_are_taken(text: str, secret: str) -> None:
    _gone(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "Bitwarden is the password manager we use",
        "reset the password to the default via the portal",
        "the code for the back door is on the wiki",
        "rabbitmqctl add_user billing $RABBIT_PASSWORD",
        "variable_password0 = password;",
    ],
)
def test_the_same_orders_without_a_password_stay(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize(
    "label",
    [
        "2FA recovery codes for the AWS root account:",
        "Wiederherstellungscodes:",
        "codes de récupération :",
        "códigos de recuperación:",
        "codici di recupero:",
        "herstelcodes:",
        "kody odzyskiwania:",
        "リカバリーコード:",
        "恢复码：",
        "복구 코드:",
    ],
)
def test_recovery_codes_named_in_twelve_languages_are_taken(label: str) -> None:
    codes = ["7c1e9-40b2d", "a8f03-19c6e", "5d2b7-e0a41"]
    _gone(f"{label} {' '.join(codes)}", *codes)


@pytest.mark.parametrize(
    "label",
    ["the 24 word seed for the trezor:", "frase semilla:", "phrase de récupération :", "助记词："],
)
def test_seed_phrases_named_in_other_words_are_taken(label: str) -> None:
    words = "acid actor adapt afford agent aisle album absorb abuse access adult advice"
    _gone(f"{label} {words}", words)


def test_recovery_codes_with_no_code_after_them_stay() -> None:
    _kept("recovery codes regenerated on 2024-05-01")
    _kept("store recovery codes offline")


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Der Türcode ist 61842", "61842"),
        ("El código de la puerta es 730519", "730519"),
        ("Kod do alarmu: 4093", "4093"),
        ("locker combination is 552071", "552071"),
        ("key for the safe: 830266", "830266"),
        ("my iPhone code is 418830", "418830"),
        ("SIM PUK: 90412", "90412"),
        ("card pin 7302", "7302"),
    ],
)
def test_a_code_named_by_what_it_opens_is_taken_in_any_language(text: str, secret: str) -> None:
    _gone(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "error code is 4040",
        "the door code is 6 digits",
        "code of conduct: 2024 edition",
        "PIN entry timeout 30 seconds",
        "pin 3 on the arduino",
        "logged in with my SSO account",
    ],
)
def test_codes_and_logins_without_a_secret_stay(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize(
    ("text", "secrets"),
    [
        ("the pw changed, it's now Qz4!mWr8Kt", ["Qz4!mWr8Kt"]),
        ("logged into the NAS with Fj7#pLq2Xs", ["Fj7#pLq2Xs"]),
        ("the passphrase we agreed on: lotus quartz raven 61", ["lotus", "quartz", "raven"]),
        ("otp recovery: 3f9a1-c07e2 b58d4-a1f36", ["3f9a1-c07e2", "b58d4-a1f36"]),
        ("ftp://backup:7*?kQs2Lw?Zp@files.local/", ["7*?kQs2Lw?Zp"]),
    ],
)
def test_a_second_batchs_phrasings_are_taken(text: str, secrets: list[str]) -> None:
    _gone(text, *secrets)
