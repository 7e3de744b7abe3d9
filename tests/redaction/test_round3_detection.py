"""Issue 32: classes of secrets the scanners missed are redacted, public formats that look like secrets are kept."""

from __future__ import annotations

import base64
import hashlib
import struct

import pytest

from memrepo.engine.redaction import redact

MISSED = [
    # vendor shapes (issue 32's list, gitleaks' rule samples)
    ("token 1//0gLx3yJmC8VdYxkqJ0mNp7Rr2TzQ9wBvE4sHfKuLo6nWq for the sheets job", "1//0gLx3yJmC8VdYxkqJ0mNp7Rr2TzQ"),
    (
        "braintree access_token$production$abcd1234efgh5678$0123456789abcdef0123456789abcdef",
        "0123456789abcdef0123456789ab",
    ),
    ("mc key 0123456789abcdef0123456789abcdef-us12 for the newsletter", "0123456789abcdef0123456789abcdef"),
    ('client_secret: "QtT8Q~9C-_Ij~RouHVpD2Tuf3oHWGh.DQ3kcjbAn"', "QtT8Q~9C-_Ij~RouHVpD2Tuf3oHWGh"),
    ('<add key="ClearTextPassword" value="TestSource-Password9" />', "TestSource-Password9"),
    ("export BUNDLE_GEMS__CONTRIBSYS__COM=cafebabe:deadbeef", "cafebabe:deadbeef"),
    ("app token 1234567890123456|AbCdEfGhIjKlMnOpQrStUvWxYz0", "AbCdEfGhIjKlMnOpQrStUvWxYz0"),
    # passwords in speech and on command lines
    ("NAS login: admin / Copper4654&", "Copper4654&"),
    ("the NAS root pw is jSfbtPBCGn", "jSfbtPBCGn"),
    ("backups are encrypted with willow-maple-quartz-copper94", "willow-maple-quartz-copper94"),
    ("mysql -u root -pHkmk9YcQsmRuHNt prod_db < dump.sql", "Hkmk9YcQsmRuHNt"),
    ("sshpass -p 'RXv%9oHF#_z%Zq2#Si' ssh deploy@10.0.0.5", "RXv%9oHF#_z%Zq2#Si"),
    ("curl -s --user 'api:d2LkV78zLx!t' https://api.example.com", "d2LkV78zLx!t"),
]


@pytest.mark.parametrize(("text", "secret"), MISSED)
def test_a_class_the_scanners_missed_is_redacted(text: str, secret: str) -> None:
    out, types = redact(text)
    assert secret not in out and types


def test_a_seed_phrase_is_redacted_whole() -> None:
    words = "abandon ability able about above absent absorb abstract absurd abuse access accident"
    out, _ = redact(f"wallet seed phrase: {words}")
    assert "absorb abstract" not in out and out.startswith("wallet seed phrase: [REDACTED:")


def _ssh_key() -> str:
    algo, key = b"ssh-ed25519", hashlib.sha256(b"k").digest()
    wire = struct.pack(">I", len(algo)) + algo + struct.pack(">I", len(key)) + key
    return f"ssh-ed25519 {base64.b64encode(wire).decode()} deploy@ci-1"


PUBLIC = [
    "pin the base image to ghcr.io/acme/api:1.4@sha256:" + "9c" * 32,
    "    image: nginx:1.27@sha256:" + "0e" * 32,
    f"added the deploy key {_ssh_key()} to the repo",
    '      "integrity": "sha512-' + base64.b64encode(hashlib.sha512(b"x").digest()).decode() + '",',
    "const stripe = Stripe('pk_live_51HxQwErTyUiOpAsDfGhJkLzXcVbNm1234567890');",
    '<img src="data:image/png;base64,' + base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(30)).decode() + '">',
    "fixed in commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39",
    "tenant id 0f8fad5b-d9cb-469f-a165-70867728950e",
]


@pytest.mark.parametrize("text", PUBLIC)
def test_a_public_format_is_kept_verbatim(text: str) -> None:
    assert redact(text)[0] == text


def test_a_secret_beside_a_public_value_is_still_redacted() -> None:
    text = "image nginx@sha256:" + "0e" * 32 + f" pulled with {'ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90'}"
    out, _ = redact(text)
    assert "nginx@sha256:" + "0e" * 32 in out and "ghp_Ab12" not in out


def test_a_secret_dressed_as_a_data_url_is_still_redacted() -> None:
    fake = "data:image/png;base64," + base64.b64encode(b"AKIAIOSFODNN7ABCDEFG secret " * 3).decode()
    text = f"logo {fake} and the key sk_live_4eC39HqLyjWDarjtT1zdp7dcXyZ12345"
    out, _ = redact(text)
    assert "sk_live_4eC39" not in out


DEV_NOTES = [
    "npm run test:unit2 before pushing",
    "run pnpm dev:server1 locally",
    "postgres:16-alpine is the base",
    "admin / read-only for contractors",
    "mysql -p to be prompted",
    "ssh -p 2222 deploy@host",
    "rsync -avz --password-file=/etc/rsync.pw src/ dst/",
    "encrypted with age using the team key",
    "docker login -u ci --password-stdin",
    "redis-cli -a $REDIS_PASS ping",
    "the password is stored in 1Password under prod db",
]


@pytest.mark.parametrize("text", DEV_NOTES)
def test_dev_notes_near_the_password_rules_stay_as_written(text: str) -> None:
    assert redact(text)[0] == text
