"""breaker24's trial of round 24's redaction rules (issue 32): every leak it found is redacted, every false alarm it
found stays verbatim. Lines as the trial wrote them (hostile, realistic memory lines)."""

from __future__ import annotations

import pytest

from memrepo.engine.redaction import redact

LEAKS = [
    "my wifi password is Hunter2024... don't tell anyone",
    "DB password: s3cr3tP4ss... rotate next week",
    "export DB_PASSWORD=Xk29fPq7Lm...",
    "password: Sunshine***2024",
    "WiFi password: Maxxxxxx1",
    "password: Kx9vL2mQ7•••",
    "token: <9f8e7d6c5b4a39281706f5e4d3c2b1a0>",
    "AWS_SECRET_ACCESS_KEY=<9dK2mQ7vLx8Zp4Rt7Vw1Yb3Nc6Hd5Jf0GaQeR2>",
    "api key <sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56>",
    "password: hunter2024<br>",
    "the admin password is Kx9vL2mQ7<sup>1</sup>",
    "AWS_SECRET_ACCESS_KEY=9dK2mQ7vLx8Zp4Rt7Vw1Yb3N/c6Hd5Jf0GaQeR2<br>",
    "SITE_API_KEY=9f8e7d6c5b4a39281706f5e4d3c2b1a0ff",
    "SITE_ENCRYPTION_KEY=Zk8q2Lm9Xp4Rt7Vw1Yb3Nc6Hd5Jf0Ga",
    "PUBLIC_DB_KEY=Zk8q2Lm9Xp4Rt7Vw1Yb3Nc6Hd5Jf0Ga",
    'siteEncryptionKey: "Zk8q2Lm9Xp4Rt7Vw1Yb3Nc6Hd5Jf0Ga"',
    "site api key: Kx9vL2mQ7Zp4",
    "public access key: Kx9vL2mQ7Zp4",
    "site token: Kx9vL2mQ7Zp",
    "şifre kırmızı-elma-42",
    "lösenord Sommar-2024!",
    "mật khẩu Hanoi-2024",
    "mail DNS: v=DKIM1; k=rsa; smtp_password=Kx9vL2mQ7Zp; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC",
    "S3 upload etag 9f8e7d6c5b4a39281706f5e4d3c2b1a0-12 and api token 0123456789abcdef0123456789abcdef-42",
    'expect "Password:" { send "Tr0ub4dor&3\\r" }',
    "the password for jira.acme.net is Tr0ub4dor!!",
    'gate code: "4821"',
    "door code **4821**",
    "PIN 4821 / PUK 87654321",
    "Conference PIN 918273645",
]

FALSE_ALARMS = [
    "the gate code was last changed in 2021, ask the landlord",
    "my bank card PIN was reset in March 2024",
    "access code is valid until 2025",
    "Die PIN wurde 2023 geändert",
    "Şifremi 2023 yılında değiştirdim",
    "lockbox code at 1600 Main St",
    "PIN reset ticket 48213 closed by IT",
    "the PIN pad timeout is 3000 ms",
    "Lost card? call the PIN helpline 0800 123 456",
    "Office address: 12 MG Road, Indiranagar, Bengaluru, Karnataka PIN 560038",
    "Our office is in Chennai, PIN 600042",
    "Mom lives in Jaipur, pincode 302017",
    "Il codice del prodotto è 40213",
    "El código del producto es 88231",
    "kod do zamówienia 884213",
    "RSA şifreleme 2048 bit anahtar",
    "пинг до сервера 1500 мс",
    "The GPIO PIN 1023 is unused",
    "primary key -> auto increment id",
    "first pass -> parse every file",
    "pwd -> print working directory",
    "passwords -> stored in 1Password vault",
    "wifi key -> on the router sticker",
    "password reset -> send-reset-email",
    "key => hash(user_id + salt)",
    "Passwords: Jira – via-google-sso; GitHub – via-okta-sso",
    "Logins: staging – ask-in-slack, prod – ops-team-only",
    "Passes: Day 1 – hands-on-workshop, Day 2 – keynote-and-demos",
    "Passwords: policy - min-12-chars",
    "Deploy branches on the server: `main` / `release-v2-hotfix`",
    "db migrations folder: `migrations` / `seed-data-dev`",
    "the admin panel lives under `admin` / `admin-dashboard-v2`",
    "κωδικός σφάλματος: 0x80070005",
    "Parola kuralı: harf-rakam-sembol",
    "jelszó: lásd-a-jelszókezelőt",
    "mật khẩu: xem-trong-bitwarden",
    "密码 策略：至少12位",
    "口令 已于2024-05-01更新",
    "口令 strength-check-enabled",
]


@pytest.mark.parametrize("text", LEAKS)
def test_a_secret_the_trial_saw_leak_is_redacted(text: str) -> None:
    out, types = redact(text)
    assert out != text and types, out


@pytest.mark.parametrize("text", FALSE_ALARMS)
def test_a_line_the_trial_saw_altered_stays_verbatim(text: str) -> None:
    assert redact(text) == (text, [])


def test_a_code_after_a_unit_number_is_redacted_and_the_unit_stays() -> None:
    out, _types = redact("door code for unit 1204 is 4821")
    assert "1204" in out and "4821" not in out, out
