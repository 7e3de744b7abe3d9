"""Passwords shaped like names from code stay redacted (issue 32 round 14, breaker18's findings).

:mod:`.codenames` keeps names like ``KubeadmConfigPatchesJSON6902``; a human
password of camel-case words and a year (``TigerDBAdmin2024Secure``) reads the
same. These pin what fix11c closed: a name's shape never cancels a finding a
label, a slot or a sentence made (:data:`.public.NAME_CANCELS`); a label on the
line above, a header row, a user before a slash, a password word in another
language or a config key (``wpa_psk:``) stops the keep; a name glued to a symbol
is not a name; the no-reply address, the DER public key and the .NET setting name
are checked whole.
"""

from __future__ import annotations

import base64
import random

import pytest

from memrepo.engine import redaction

PASSWORDS = ("TigerDBAdmin2024Secure", "GreenTeaLatte4Life2024", "SummerAWS2024Deploy", "BlueMonday1983Order")

SLOTS_AND_LABELS = [
    # B18-2b, B18-2: a label on its own line, a CSV header
    "db creds\nPassword:\nBlueMonday1983Order",
    "host,user,password\ndb01,root,TigerDBAdmin2024Secure",
    "host\tuser\tpassword\ndb01\troot\tTigerDBAdmin2024Secure",
    "| host | user | password |\n| db01 | root | TigerDBAdmin2024Secure |",
    # B18-3: quoted and positional password slots
    "mysql -uroot -p'GreenTeaLatte4Life2024' app",
    "unzip -P 'SummerAWS2024Deploy' a.zip",
    "ldapsearch -D cn=admin -w 'SummerAWS2024Deploy'",
    "runas /user:admin SummerAWS2024Deploy",
    "rabbitmqctl add_user deploy SummerAWS2024Deploy",
    # B18-9: the label after the value
    "use TigerDBAdmin2024Secure as the password",
    "admin with GreenTeaLatte4Life2024 as the grafana password",
    "echo TigerDBAdmin2024Secure | sudo -S apt update",
    # B18-1: a user before a slash, a place it is typed, a label one line up
    "root / GreenTeaLatte4Life2024",
    "admin/GreenTeaLatte4Life2024",
    "prod db: root SummerAWS2024Deploy",
    "wifi TigerDBAdmin2024Secure",
    "sudo prompt on build01: TigerDBAdmin2024Secure",
    "the sticky note on the monitor says TigerDBAdmin2024Secure",
    "the NAS wants BlueMonday1983Order now",
    "**Password**\n\nTigerDBAdmin2024Secure",
    "- user: admin\n  pass:\n    TigerDBAdmin2024Secure",
    # B18-11: other languages, config keys
    "wachtwoord: TigerDBAdmin2024Secure",
    "parola: TigerDBAdmin2024Secure",
    "heslo: TigerDBAdmin2024Secure",
    "пароль: TigerDBAdmin2024Secure",
    "密码：TigerDBAdmin2024Secure",
    "root_pw: TigerDBAdmin2024Secure",
    "rootpw: TigerDBAdmin2024Secure",
    "pin_code: TigerDBAdmin2024Secure",
    "wpa_psk: TigerDBAdmin2024Secure",
    "wpa_psk: GreenTeaLatte4Life2024",  # no rule read psk before (end to end: stored verbatim)
    "otp: TigerDBAdmin2024Secure",
    "seed: TigerDBAdmin2024Secure",
    "salt: TigerDBAdmin2024Secure",
    "hmac: TigerDBAdmin2024Secure",
    # B18-4: a symbol glued after the name-shaped head
    "root / WinterIsComing2024#Prod",
    "wifi WinterIsComing2024%Prod",
    "the new one AcmeCorpDeploy2024! works",
]


@pytest.mark.parametrize("text", SLOTS_AND_LABELS)
def test_password_shaped_like_a_name_stays_redacted(text: str) -> None:
    out = redaction.redact(text)[0]
    assert not any(pw in out for pw in (*PASSWORDS, "WinterIsComing2024", "AcmeCorpDeploy2024")), out


def test_csv_row_redacts_the_password_not_the_user() -> None:
    """B18-2: the marker used to sit on ``db01,root`` with the password in clear right after it."""
    out = redaction.redact("host,user,password\ndb01,root,TigerDBAdmin2024Secure")[0]
    assert out.endswith("[REDACTED:password]"), out


def test_noreply_address_with_a_token_as_login_redacted() -> None:
    """B18-5: a 38-character random mixed run is not a GitHub login, and a label before the address counts."""
    token = "ghpabcdEFGH1234ijklMNOP5678qrstUVWX90yz"
    assert token not in redaction.redact(f"a token: 12345+{token}@users.noreply.github.com")[0]
    kept = '"email": "21031067+Codertocat@users.noreply.github.com"'
    assert redaction.redact(kept)[0] == kept


def test_der_public_key_head_on_random_bytes_redacted() -> None:
    """B18-12: a run that only starts like a SubjectPublicKeyInfo is not one (its outer length is not the run's)."""
    rng = random.Random(1418)
    head = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"
    tail = base64.b64encode(rng.randbytes(150)).decode().rstrip("=")
    assert tail not in redaction.redact(f"client_secret: {head}{tail}")[0]


def test_setting_key_that_is_a_token_redacted() -> None:
    """B18-13: ``<add key=…>`` keeps a name of words, not a licence key registered as the name."""
    assert "Ngo9BigBOggjHTQxAR8" not in redaction.redact('<add key="Ngo9BigBOggjHTQxAR8" value="true" />')[0]
    kept = '<add key="ClientValidationEnabled" value="true" />'
    assert redaction.redact(kept)[0] == kept
