"""Issue 32 round 25: a second hostile trial (breaker25b, a helper's own lines): configs, tools, plain speech.

Leaks: XML key/value elements, Redis/keepalived/Cisco/Wi-Fi directives, passwords given to hashing tools,
e-mail and password pairs, passwords "changed to", one plain word after "password is"
(:mod:`memrepo.engine.redaction.saidplain`). False alarms: years and dates after a password word in six
languages, Indian postal PIN codes, travel passes' numbers (:mod:`memrepo.engine.redaction.publicnumbers`).
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import publicnumbers, saidplain, valueparts

LEAKS = [
    ('<add key="DbPassword" value="Kv8pLm2Qx9rT" />', "Kv8pLm2Qx9rT"),
    ('<property name="hibernate.connection.password" value="Summer2024!"/>', "Summer2024!"),
    ('<string name="wifi_password">Summer2024!</string>', "Summer2024!"),
    ('<entry key="db.password">Summer2024!</entry>', "Summer2024!"),
    ('<setting name="ApiSecret" serializeAs="String"><value>Walrus#61</value></setting>', "Walrus#61"),
    ("redis.conf: requirepass Walrus#61", "Walrus#61"),
    ("redis-cli CONFIG SET masterauth Walrus#61", "Walrus#61"),
    ("    wpa-psk Walrus#61", "Walrus#61"),
    ("crypto isakmp key Summer2024! address 0.0.0.0", "Summer2024!"),
    ("security key Summer2024!", "Summer2024!"),
    ("openssl passwd -6 Summer2024!", "Summer2024!"),
    ("openssl passwd -apr1 'Summer2024!'", "Summer2024!"),
    ("mkpasswd -m sha-512 Summer2024!", "Summer2024!"),
    ("slappasswd -s Summer2024!", "Summer2024!"),
    ("caddy hash-password --plaintext Summer2024!", "Summer2024!"),
    ("rclone obscure Summer2024!", "Summer2024!"),
    ("vercel env add DB_PASSWORD production <<< Walrus#61", "Walrus#61"),
    ("doppler secrets set DB_PASSWORD Summer2024!", "Summer2024!"),
    ("bob.smith@gmail.com:Bramble42", "Bramble42"),
    ("Disney+: jane.doe@outlook.com:Summer2024!", "Summer2024!"),
    ("gmail: bob.smith@gmail.com / Bramble42", "Bramble42"),
    ("Hulu - jane.doe@outlook.com - Summer2024!", "Summer2024!"),
    ("the wifi password was changed to Bramble42", "Bramble42"),
    ("router password got changed to Bramble42 last week", "Bramble42"),
    ("they changed the password from Otter11 to Bramble42", "Otter11"),
    ("they changed the password from Otter11 to Bramble42", "Bramble42"),
    ("the wifi password is Sunflower", "Sunflower"),
    ("The user's Netflix password is Sunflower.", "Sunflower"),
    ("password is pineapplepie", "pineapplepie"),
    ("the password for the guest wifi is pineapple", "pineapple"),
]
KEPT = [
    "PIN code 560034 (Bangalore, Koramangala)",
    "Address: Flat 4B, Andheri West, Mumbai - PIN: 400053",
    "pincode 110001",
    "Pin code: 400053, Maharashtra",
    "the office PIN code is 600028 (Chennai)",
    "PIN 560034 is outside the delivery zone",
    "ski pass number 01-1614-1874-2230",
    "boarding pass: 4471 2291 0034",
    "gym pass: 4471",
    "annual pass: 88123401",
    "パスワードは2024年5月12日に変更しました",
    "비밀번호는 2024년 5월 12일에 변경했어요",
    "密码是2024年改的",
    "पासवर्ड 2024-05-12 को बदला गया",
    "şifre 2024'te değişti",
    "كلمة المرور 2024-05-12 تم تغييرها",
    "the password is required",
    "the password is case-sensitive.",
    "the password is expired",
    "my password is long",
    "password is changed weekly",
    "the password is stored in 1Password",
    '<add key="DbPassword" value="${DB_PASSWORD}" />',
    "contact bob.smith@gmail.com - thanks",
    "mail bob@example.com: meeting at 10",
]


@pytest.mark.parametrize(("text", "secret"), LEAKS)
def test_each_leak_of_the_second_trial_is_redacted(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]


@pytest.mark.parametrize(("text", "secret"), LEAKS)
def test_each_leak_was_one_without_the_rounds_rules(text: str, secret: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without :mod:`.saidplain` the line leaks (a test of the module, not of some older rule)."""
    monkeypatch.setattr(saidplain, "spans", lambda _text: iter(()))
    monkeypatch.setattr(valueparts, "KEY_LABELS", ())  # round 26 reads a PSK after a bare space too
    redaction.use_detectors(redaction.DETECTORS)
    try:
        assert secret in redaction.redact(text)[0]
    finally:
        monkeypatch.undo()
        redaction.use_detectors(redaction.DETECTORS)


@pytest.mark.parametrize("text", KEPT)
def test_each_false_alarm_of_the_second_trial_is_kept(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize("text", KEPT[:16])  # the postal codes, passes and dates
def test_each_number_kept_was_a_false_alarm_before(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(publicnumbers, "spans", lambda _text: iter(()))
    monkeypatch.setattr(valueparts, "not_a_secret_value", lambda _value: False)  # round 26 keeps dates too
    assert redaction.redact(text)[0] != text


# Seed phrases in the layouts wallets show, and a password on the line under its label (:mod:`.saidlists`).
WORDS = [
    "ripple",
    "harvest",
    "lobster",
    "canyon",
    "velvet",
    "orbit",
    "glimmer",
    "thunder",
    "pistol",
    "meadow",
    "anchor",
    "fossil",
]
NUMBERED = " ".join(f"{i}. {w}" for i, w in enumerate(WORDS, 1))
LISTED = [
    "seed phrase: " + NUMBERED,
    "seed phrase: " + " ".join(f"{i}) {w}" for i, w in enumerate(WORDS, 1)),
    "seed phrase: " + " ".join(f"{i}.{w}" for i, w in enumerate(WORDS, 1)),
    "Ledger recovery phrase:\n" + "\n".join(f"{i}. {w}" for i, w in enumerate(WORDS, 1)),
    "seed words:\n" + "\n".join(WORDS),
    "seed phrase:\n" + " ".join(WORDS),
    "Metamask secret recovery phrase:\n" + " ".join(WORDS),
    "seed phrase: " + " ".join(WORDS[:4]) + "\n" + " ".join(WORDS[4:8]) + "\n" + " ".join(WORDS[8:]),
    "BIP39: " + " / ".join(WORDS),
    "seed phrase: " + "-".join(WORDS),
    "Seed-Phrase (Wallet): " + " ".join(WORDS),
    "recovery phrase for the Exodus wallet — " + " ".join(WORDS),
    "сид-фраза: " + " ".join(WORDS),
    "시드 문구: " + " ".join(WORDS),
    "kurtarma ifadesi: " + " ".join(WORDS),
    "Lösenord:\nAlg#2024",
    "Şifre:\nKedi!2024",
    "पासवर्ड:\nSher@2024",
    "كلمة المرور:\nAsad@2024",
    "Hasło\nKot!2024",
    "Wachtwoord\nFiets!99",
    "password (NAS):\n`Bramble42`",
]
LISTED_KEPT = [
    "The seed phrase words are printed on the card in the safe, twelve of them in order",
    "seed phrase: keep it offline and never type it into a website, use the hardware wallet",
    "Lösenord:\nse 1Password",
    "Hasło\nw menedżerze haseł",
    "seed words:\n- never share them\n- keep offline",
    "recovery phrase backup: done on 2024-05-01 with the steel plate, stored at home in the safe",
]

_PASSWORDS = ("Alg#2024", "Kedi!2024", "Sher@2024", "Asad@2024", "Kot!2024", "Fiets!99", "Bramble42")


@pytest.mark.parametrize("text", LISTED)
def test_a_listed_seed_phrase_or_a_password_under_its_label_is_redacted(text: str) -> None:
    out = redaction.redact(text)[0]
    assert not [w for w in (*WORDS, *_PASSWORDS) if w in out]


@pytest.mark.parametrize("text", LISTED_KEPT)
def test_talk_about_seed_phrases_and_labels_with_no_value_is_kept(text: str) -> None:
    assert redaction.redact(text)[0] == text


# A login said with its account, and codes said with "still" or "opens with" (saidplain, codesaid).
SAID_WITH = [
    ("The NAS credentials are admin and Bramble42.", "Bramble42"),
    ("NAS creds: admin Bramble42", "Bramble42"),
    ("router login admin and Quokka77x", "Quokka77x"),
    ("Mum's PIN is still 8841", "8841"),
    ("the lockbox code opens with 5530", "5530"),
]
SAID_WITH_KEPT = [
    "credentials: see 1Password",
    "login page redirects to sso2 now",
    "the credentials are in vault2 and rotated",
    "PIN is still the same as before",
    "the PIN is still required for 2024 renewals",
]


@pytest.mark.parametrize(("text", "secret"), SAID_WITH)
def test_a_login_with_its_account_and_a_code_still_set_are_redacted(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]


@pytest.mark.parametrize("text", SAID_WITH_KEPT)
def test_talk_of_logins_and_pins_with_no_value_is_kept(text: str) -> None:
    assert redaction.redact(text)[0] == text
