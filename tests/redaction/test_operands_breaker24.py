"""Passwords a tool takes as a positional operand, and device configs' passwords (breaker24 B24-1; :mod:`.operands`).

The look-alikes come first: the same commands with a variable, a placeholder, a
documented default or no secret at all, prose naming the commands, and hashed
device passwords left to the hash rules. Then each operand slot with a password in
it: the breaker's own repros and the table's other rows.
"""

from __future__ import annotations

import pytest

from memrepo.engine.redaction import redact

PW = "Vx9qLm2" + "Tz8Rp"
WIFI = "sunflower-river" + "-42"

LOOK_ALIKES = [
    "use mc alias set minio http://minio:9000 $MINIO_USER $MINIO_PASSWORD",
    "mc alias set minio http://minio:9000 minioadmin minioadmin",
    "mc alias set minio http://minio:9000 <ACCESS_KEY> <SECRET_KEY>",
    "mc alias list",
    "mc alias set lets you save a host and its keys",
    "composer config http-basic.repo.packagist.com bob $PACKAGIST_TOKEN",
    "composer config --global http-basic.example.org",
    "composer config http-basic lets you store credentials",
    "composer config minimum-stability dev-main",
    "poetry config http-basic.corp bob",
    "poetry config virtualenvs.in-project true",
    "poetry config http-basic.pypi is where the creds go",
    "bw unlock --passwordenv BW_PASSWORD",
    "bw unlock --raw",
    "bw unlock asks for the master password",
    "run bw unlock then export BW_SESSION",
    "bw login with your email and password",
    "networksetup -setairportnetwork needs the device name",
    "networksetup -setairportnetwork en0 HomeNet",
    "p4 -P $P4PASSWD sync",
    "use p4 -P with a ticket from p4 login",
    "htpasswd -c /etc/nginx/.htpasswd bob",
    "mysqladmin -u root -p status",
    "snmp-server community public RO",
    "enable secret is better than enable password",
    "enable password encryption with service password-encryption",
    "the snmp-server community strings should be changed",
    "snmp-server community string",
    "enable secret level 15",
    "wpa-psk ascii mode",
    "username admin password admin",
    "key-string rotation happens weekly",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_stay_verbatim(text: str) -> None:
    assert redact(text) == (text, [])


SLOTS = [
    (f"minio admin login: mc alias set minio http://minio:9000 minioadmin {PW}", PW),
    (f"mc config host add minio http://minio:9000 AKIDEXAMPLE {PW}", PW),
    (f"mc alias set --api S3v4 minio http://minio:9000 admin '{PW}'", PW),
    (f"private packagist auth: composer config http-basic.repo.packagist.com bob {PW}", PW),
    (f"composer config --global --auth http-basic.repo.example.com bob {PW}", PW),
    (f"poetry source creds: poetry config http-basic.corp bob {PW}", PW),
    (f"unlock the vault with bw unlock {PW}", PW),
    (f"bw login bob@example.com {PW}", PW),
    (f"perforce: p4 -u bob -P {PW} sync", PW),
    (f"networksetup -setairportnetwork en0 HomeNet {WIFI}", WIFI),
    (f"networksetup -addpreferredwirelessnetworkatindex en0 HomeNet 0 WPA2 {WIFI}", WIFI),
    (f"core switch: username admin privilege 15 secret 0 {PW}", PW),
    (f"enable secret 0 {PW}", PW),
    (f"enable secret 0 {WIFI}", WIFI),
    (f"username bob password 0 {PW}", PW),
    ("username bob password 7 0822455D0A16", "0822455D0A16"),
    (f"tacacs-server host 10.0.0.5 key 0 {PW}", PW),
    (f"wpa-psk ascii 0 {WIFI}", WIFI),
    (f"snmp-server community {PW} RO", PW),
]


@pytest.mark.parametrize(("text", "secret"), SLOTS)
def test_a_password_in_its_operand_slot_is_redacted(text: str, secret: str) -> None:
    out, types = redact(text)
    assert secret not in out and types, out


STILL = [
    (f"htpasswd -bc /etc/nginx/.htpasswd bob {PW}", PW),
    (f"htpasswd -nb bob {PW}", PW),
    (f"mysqladmin -u root password {PW}", PW),
    (f"enable secret {PW}", PW),
]
"""Rows of the table other rules caught already (the password word, ``-b``'s slot): still redacted."""


@pytest.mark.parametrize(("text", "secret"), STILL)
def test_rows_other_rules_caught_are_still_redacted(text: str, secret: str) -> None:
    out, types = redact(text)
    assert secret not in out and types, out


def test_only_the_operand_goes() -> None:
    text = f"mc alias set minio http://minio:9000 minioadmin {PW}"
    assert redact(text)[0] == text.replace(PW, "[REDACTED:password]")
    out, _ = redact(f"networksetup -setairportnetwork en0 HomeNet {WIFI}")
    assert out == "networksetup -setairportnetwork en0 HomeNet [REDACTED:password]"
    out, _ = redact(f"snmp-server community {PW} RO")
    assert out == "snmp-server community [REDACTED:password] RO"


def test_a_hashed_device_password_is_left_to_the_hash_rules() -> None:
    from memrepo.engine.redaction import operands

    assert list(operands.spans("enable secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0")) == []
