"""The drafted rules of issue 32, each alone: public formats, passwords in prose, vendor shapes, fence look-alikes."""

from __future__ import annotations

import base64
import struct
import zlib

import pytest

from memrepo.engine.format.fencechars import LOOKALIKES
from memrepo.engine.redaction import public, speech, vendors


def _found(spans_fn, text: str) -> list[str]:
    return [text[s:e] for s, e, *_ in spans_fn(text)]


def _ssh_body(algo: bytes, key: bytes) -> str:
    wire = struct.pack(">I", len(algo)) + algo + struct.pack(">I", len(key)) + key
    return base64.b64encode(wire).decode()


def test_an_ssh_public_key_is_public_only_when_its_body_names_its_algorithm() -> None:
    good = f"ssh-ed25519 {_ssh_body(b'ssh-ed25519', bytes(range(32)))} me@host"
    assert _found(public.spans, good) == [good.rsplit(" ", 1)[0]]
    forged = f"ssh-ed25519 AAAA{base64.b64encode(b'x' * 40).decode()}"
    assert _found(public.spans, forged) == []


def test_an_image_digest_keeps_the_image_name() -> None:
    text = "FROM ghcr.io/acme/api:1.2@sha256:" + "ab" * 32 + " AS build"
    assert "ghcr.io/acme/api:1.2@sha256:" + "ab" * 32 in _found(public.spans, text)


def test_sri_needs_the_digest_length_of_its_algorithm() -> None:
    ok = "sha384-" + base64.b64encode(bytes(48)).decode()
    short = "sha384-" + base64.b64encode(bytes(40)).decode()
    assert _found(public.spans, f'integrity="{ok}"') == [ok]
    assert _found(public.spans, f'integrity="{short}"') == []


def test_a_data_url_must_start_with_its_formats_magic_number() -> None:
    png = "data:image/png;base64," + base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(20)).decode()
    fake = "data:image/png;base64," + base64.b64encode(b"sk_live_" + b"a" * 30).decode()
    assert _found(public.spans, png) == [png]
    assert _found(public.spans, fake) == []


def test_a_uuid_named_a_key_is_not_public() -> None:
    uid = "0f8fad5b-d9cb-469f-a165-70867728950e"
    assert _found(public.spans, f"tenant id {uid}") == [uid]
    assert _found(public.spans, f'HEROKU_API_KEY = "{uid}"') == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("mysql -u root -pVelvet8717* prod_db", "Velvet8717*"),
        ("sshpass -p 'meadow-copper-raven93' ssh deploy@10.0.0.5", "meadow-copper-raven93"),
        ("the NAS root pw is jSfbtPBCGn", "jSfbtPBCGn"),
        ("router creds are admin / Falcon5120& (change after the move)", "Falcon5120&"),
        ("grafana admin:UKxfAE9f+8k on the staging box", "UKxfAE9f+8k"),
        ("backups are encrypted with spruce-falcon-ember-pilot87", "spruce-falcon-ember-pilot87"),
    ],
)
def test_a_password_in_prose_or_on_a_command_line_is_found(text: str, secret: str) -> None:
    assert secret in _found(speech.spans, text)


@pytest.mark.parametrize(
    "text",
    [
        "backups are encrypted with AES-256-GCM",
        "mysql -u root -p prod_db",
        "sshpass -p $SSHPASS ssh deploy@host",
        "read / write access for the team",
        'the password field is hidden with type="password"',
    ],
)
def test_words_placeholders_and_algorithms_are_not_passwords(text: str) -> None:
    assert _found(speech.spans, text) == []


def test_a_seed_phrase_is_found_whole() -> None:
    words = "abandon ability able about above absent absorb abstract absurd abuse access accident"
    assert _found(speech.spans, f"wallet seed phrase: {words}") == [words]


def _github_token(body: str) -> str:
    crc, digits = zlib.crc32(body.encode()), ""
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    while crc:
        crc, r = divmod(crc, 62)
        digits = alphabet[r] + digits
    return f"ghp_{body}{digits.rjust(6, '0')}"


def test_a_github_token_with_a_valid_checksum_is_found_and_a_broken_one_is_not_by_its_checksum() -> None:
    token = _github_token("abcdefghijklmnopqrstuvwxyzABCD")
    assert vendors.checksum_ok(token)
    assert not vendors.checksum_ok(token[:-1] + ("A" if token[-1] != "A" else "B"))
    assert _found(vendors.spans, f"token {token} here") == [token]


@pytest.mark.parametrize(
    "secret",
    [
        "QtT8Q~9C-_Ij~RouHVpD2Tuf3oHWGh.DQ3kcjbAn",  # gitleaks' Azure AD client secret sample
        "1//0gLx3yJmC8VdYxkqJ0mNp7Rr2TzQ9wBvE4sHfKuLo6nWq",
        "access_token$production$abcd1234efgh5678$0123456789abcdef0123456789abcdef",
        "0123456789abcdef0123456789abcdef-us12",
        "1234567890123456|AbCdEfGhIjKlMnOpQrStUvWxYz0",
    ],
)
def test_vendor_shapes_the_scanner_missed_are_found(secret: str) -> None:
    assert _found(vendors.spans, f"keep {secret} safe") == [secret]


def test_a_kubernetes_secret_has_its_data_values_found() -> None:
    doc = "apiVersion: v1\nkind: Secret\ndata:\n  password: cGFzc3dvcmQxMjM=\n  user: YWRtaW4=\n"
    assert _found(vendors.spans, doc) == ["cGFzc3dvcmQxMjM=", "YWRtaW4="]


@pytest.mark.parametrize("char", "«»《》⟪⟫❰❱≺≻≤≥∕⁄／＜＞‹›")
def test_the_fence_look_alike_class_holds_the_issues_characters(char: str) -> None:
    assert char in LOOKALIKES


@pytest.mark.parametrize("char", "ノ丿é日")
def test_letters_that_only_resemble_a_slash_are_not_look_alikes(char: str) -> None:
    assert char not in LOOKALIKES
