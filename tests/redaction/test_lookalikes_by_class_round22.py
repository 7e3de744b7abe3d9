"""Look-alikes kept by class: placeholders, signatures and key ids (issue 32, round 22).

Each kept line below is a phrasing written for this test (none is a corpus line): a placeholder that says it is
one, a DER signature or a key id of signed metadata. Each secret beside them is the nearest thing that is still a
credential (or that a scanner's tests take for one) and must still be redacted.
"""

from __future__ import annotations

import base64
import hashlib

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import placeholders, signatures


def _der_int(n: int) -> bytes:
    raw = n.to_bytes(32, "big").lstrip(b"\0")
    if raw[0] & 0x80:
        raw = b"\0" + raw
    return b"\x02" + bytes([len(raw)]) + raw


def _signature(seed: str) -> bytes:
    """A DER ECDSA signature (two 256-bit integers) made from ``seed``."""
    r = int(hashlib.sha256(f"r{seed}".encode()).hexdigest(), 16)
    s = int(hashlib.sha256(f"s{seed}".encode()).hexdigest(), 16)
    body = _der_int(r) + _der_int(s)
    return b"\x30" + bytes([len(body)]) + body


def _digest(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


KEPT = [
    "MAPBOX_ACCESS_TOKEN=your-mapbox-access-token",
    "Authorization: Bearer REPLACE_ME_WITH_A_TOKEN",
    'sendgrid_api_key: "SG.INSERT.YOUR.KEY"',
    "aws_access_key_id = AKIAI44QH8DHBEXAMPLE",
    "    access_key: ASIAQ7TLBJ3PXEXAMPLE",
    '"db_password": "&lt;YOUR_DB_PASSWORD&gt;"',
    "license_key = notarealkey-please-replace",
    f'"sig": "{base64.b64encode(_signature("a")).decode()}"',
    f'  "signedEntryTimestamp": "{base64.b64encode(_signature("b")).decode()}",',
    f"signature: {_signature('c').hex()}",
    f'"keyid": "{_digest("k1")}",',
    f"keyId: {base64.b64encode(bytes.fromhex(_digest('k2'))).decode()}",
    f'"publicKeyId" : "{_digest("k3")[:40]}"',
]


@pytest.mark.parametrize("text", KEPT)
def test_a_look_alike_of_these_classes_comes_out_unchanged(text: str) -> None:
    assert redaction.redact(text)[0] == text


def _pkcs8_like() -> str:
    """A DER blob shaped as a private key (SEQUENCE { INTEGER 0, SEQUENCE {...}, OCTET STRING }), base64."""
    key = hashlib.sha256(b"private").digest()
    alg = b"\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01\x05\x00"
    body = b"\x02\x01\x00" + alg + b"\x04\x20" + key
    return base64.b64encode(b"\x30" + bytes([len(body)]) + body).decode()


STILL_SECRET = [
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("GITHUB_TOKEN=ghp_R4nd0mexampleZq9Lw2Vt8Ks5Nd3Hx7Pm1Cy6Ub4", "ghp_R4nd0mexampleZq9Lw2Vt8Ks5Nd3Hx7Pm1Cy6Ub4"),
    ("export RDS_PASSWORD='dummy-pass'", "dummy-pass"),
    ("api_token=000000Zx9Qk2Lm8Rt4Vb7Nc1Wd5Fh3Jg6", "000000Zx9Qk2Lm8Rt4Vb7Nc1Wd5Fh3Jg6"),
    (f'"sig": "{_pkcs8_like()}"', _pkcs8_like()),
    (f"private_key_id: {_digest('pk')[:40]} private_key: {_pkcs8_like()}", _pkcs8_like()),
]


@pytest.mark.parametrize(("text", "secret"), STILL_SECRET)
def test_the_nearest_credential_is_still_redacted(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]


def test_each_placeholder_class_by_itself() -> None:
    assert placeholders.stand_in("sk-proj-REPLACE_WITH_YOUR_KEY")
    assert not placeholders.stand_in("YOUR_VERY_LONG_SECRET_42")  # a number piece: may be a real value
    assert placeholders.stand_in("AKIAIOSFODNN7EXAMPLE")
    assert not placeholders.stand_in("AQcAQH0dMHEXAMPLEzmpkb58urFRkgeB")  # EXAMPLE inside a random run
    assert not placeholders.stand_in("glsa_invalidINVALIDinvalid_0000")  # a doubled word: taken out (held-out totals)
    assert not placeholders.placeholder("0000000000000000000000000000000g")  # a zero key: taken out the same way
    assert not placeholders.stand_in("AIzaSyAtestTESTt3s7te-_testtesttest")  # test twice: scanners' findings
    assert not placeholders.placeholder("abcdef1234567890abcdef1234567890")  # counting: scanners' findings too


def test_a_der_signature_parses_and_a_private_key_does_not() -> None:
    assert signatures.der_signature(_signature("x"))
    assert not signatures.der_signature(base64.b64decode(_pkcs8_like()))
    assert not signatures.der_signature(_signature("x") + b"\0")  # trailing bytes
    assert not signatures.der_signature(b"\x30\x06\x02\x01\x80\x02\x01\x01")  # a negative integer


def test_a_key_id_needs_its_name_and_a_digest_length() -> None:
    assert list(signatures.spans(f"keyid: {_digest('a')}"))
    assert not list(signatures.spans(f"keyid: {_digest('a')[:48]}"))  # no digest is 48 hex digits
    assert not list(signatures.spans(f"access_key_id: {_digest('a')[:40]}"))
    assert not list(signatures.spans(f"token: {_digest('a')}"))


UI_AND_URL_KEPT = [
    '    "confirm_password_hint": "Skriv passordet ditt en gang til.",',
    '  "passwordTooShort": "Das Passwort muss mindestens 8 Zeichen haben",',
    "passwordLabel: 'Contraseña:'",
    'const DSN = "postgres://app:INSERT_PASSWORD_HERE@db.internal:5432/app";',
    "redis_url: redis://default:your_password@cache:6379/0",
    'MONGO_URI="mongodb://admin:REPLACE_WITH_PASSWORD@mongo:27017"',
]


@pytest.mark.parametrize("text", UI_AND_URL_KEPT)
def test_ui_text_and_a_url_password_word_come_out_unchanged(text: str) -> None:
    assert redaction.redact(text)[0] == text


UI_AND_URL_SECRET = [
    ('"password": "correct horse battery staple"', "correct horse battery staple"),
    ('"new_password": "Tr0ub4dor&3"', "Tr0ub4dor&3"),
    ("postgres://app:s3cr3t-Pa55word@db.internal:5432/app", "s3cr3t-Pa55word"),
    ("https://deploy:passwordX9q2@git.internal/repo.git", "passwordX9q2"),
    ("postgres://app:secret@db.internal:5432/app", ":secret@"),
]


@pytest.mark.parametrize(("text", "secret"), UI_AND_URL_SECRET)
def test_a_passphrase_and_a_real_url_password_are_still_redacted(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]


def test_ui_text_needs_words_and_a_password_word_or_a_label_colon() -> None:
    from memrepo.engine.redaction import uitext

    assert uitext.ui_text("Glemt passordet?")
    assert uitext.ui_text("Kennwort:")
    assert not uitext.ui_text("Kennwort")  # one word, no colon: may be the password itself
    assert not uitext.ui_text("my password is s3cr3t!x")  # a word with digits inside: not UI text
    assert not uitext.ui_text("blue fish swims north")  # a passphrase names no password


FORMATS_KEPT = [
    "from ..helpers.tempfiles import Utf8TempFileWriter, cleanup_all as cleanup",
    '{"pageInfo": {"endCursor": "Y3Vyc29yOnYyOpK5MjAyNC0wMS0wMVQwMDowMDowMA==", "hasNextPage": true}}',
    '"artifact": "ios-ui-snapshots_1712345678901",',
    f'DOTENV_PUBLIC_KEY_PRODUCTION="03{_digest("pub")}"',
    '"publicKeyId": "Q7KZ2MXRTN4VBC8WPLHD"',
]


@pytest.mark.parametrize("text", FORMATS_KEPT)
def test_an_import_a_cursor_a_stamped_name_and_a_labelled_public_key_come_out_unchanged(text: str) -> None:
    assert redaction.redact(text)[0] == text


FORMATS_SECRET = [
    (f'DOTENV_PRIVATE_KEY_PRODUCTION="{_digest("priv")}"', _digest("priv")),
    ("next_cursor=ghp_R4nd0mZq9Lw2Vt8Ks5Nd3Hx7Pm1Cy6Ub4aaaa", "ghp_R4nd0mZq9Lw2Vt8Ks5Nd3Hx7Pm1Cy6Ub4aaaa"),
    ("password: deploy-key_1717594066", "deploy-key_1717594066"),
]


@pytest.mark.parametrize(("text", "secret"), FORMATS_SECRET)
def test_the_same_places_with_a_secret_are_still_redacted(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]


def test_a_sentence_under_a_password_key_is_ui_text_and_a_label_needs_a_password_word() -> None:
    from memrepo.engine.redaction import uitext

    assert uitext.ui_text("We will text you a code to confirm it is you.")
    assert not uitext.ui_text("purple monkey dishwasher lamp river stone.")  # no short words: a passphrase
    assert not uitext.ui_text("application:")  # a label of no password word: a name, maybe a user's


def test_a_drive_share_links_resource_key_is_kept_and_elsewhere_is_not() -> None:
    link = "notes: https://docs.google.com/document/d/1Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc/edit?resourcekey=0-Vb7Nm2Qw4Er6Ty8Ui0Op1A"
    assert redaction.redact(link)[0] == link
    elsewhere = "https://api.example.net/v1/files?resourcekey=0-Vb7Nm2Qw4Er6Ty8Ui0Op1A"
    assert "0-Vb7Nm2Qw4Er6Ty8Ui0Op1A" not in redaction.redact(elsewhere)[0]
