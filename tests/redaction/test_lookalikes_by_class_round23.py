"""Public formats a new look-alike source (pubformats4, issue 32 round 23) showed redacted, kept by class.

Each class in our own lines, never the source's: names in code's places (:mod:`.codeforms`), WebAuthn's values sent
in the clear and DNS record names (:mod:`.attestations`), values file formats define as public
(:mod:`.fileforms`), and the NKey and Dropbox
shapes inside a run of standard base64 (:mod:`.vendorprefix`). The secrets beside each class come after it.
"""

from __future__ import annotations

import base64
import json
import random

import pytest

from memrepo.engine.redaction import fileforms, redact
from memrepo.engine.redaction.attestations import cose_public_key
from memrepo.engine.redaction.codeforms import words_name


def _left(text: str) -> None:
    assert redact(text)[0] == text


def _gone(text: str, value: str) -> None:
    out = redact(text)[0]
    assert value not in out, out


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _rand(n: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(n)


def _der_sig(seed: int) -> bytes:
    r, s = bytes([0x11]) + _rand(31, seed), bytes([0x22]) + _rand(31, seed + 1)
    body = b"\x02\x20" + r + b"\x02\x20" + s
    return b"\x30" + bytes([len(body)]) + body


def _cose_ec2(private: bool = False) -> bytes:
    """A CBOR map: kty 2 (EC2), alg -7 (ES256), crv 1, x and y of 32 bytes (and d when ``private``)."""
    items = [b"\x01\x02", b"\x03\x26", b"\x20\x01", b"\x21\x58\x20" + _rand(32, 7), b"\x22\x58\x20" + _rand(32, 8)]
    if private:
        items.append(b"\x23\x58\x20" + _rand(32, 9))
    return bytes([0xA0 + len(items)]) + b"".join(items)


CODE_PLACES = [
    "if root, err = tpmDecodeX509Attestation(raw); err != nil {",
    "ca.KeyUsage = x509.KeyUsageCRLSign | x509.KeyUsageCertSign",
    "return chain, key, base64.StdEncoding.EncodeToString(block.Bytes)",
    'ATTEST_KEY_ECC_X962_DER PublicKeyAlgEncoding = "ecc_x962_der"',
    "signer, credKey, nonce := buildSignedVectorPackedES384(t)",
    "signing_key_ids: bundle.x509_root_certificate_key_ids,",
    "sig := base64.RawURLEncoding.EncodeToString(decodeHexSignature(t, sigHex))",
]


@pytest.mark.parametrize("text", CODE_PLACES)
def test_a_name_in_a_call_member_or_type_place_is_kept(text: str) -> None:
    _left(text)


@pytest.mark.parametrize("name", ["xK9mPq2ZtR7vWb", "aB3dE9fGhJkLmNpQ", "Q7wErTy8UiOp2As"])
def test_a_random_token_is_no_name_of_words(name: str) -> None:
    assert not words_name(name)


def test_a_token_assigned_beside_a_call_is_still_redacted() -> None:
    token = "xK9mPq2ZtR7vWb4Lc8Nd"
    _gone(f'api_token = "{token}"; client = newClient(api_token)', token)


def test_webauthn_values_sent_in_the_clear_are_kept() -> None:
    client_data = {"type": "webauthn.get", "challenge": _b64url(_rand(32, 3)), "origin": "https://login.example.org"}
    _left(f'"clientDataJSON": "{_b64url(json.dumps(client_data).encode())}",')
    _left(f'"signature": "{_b64url(_der_sig(1))}",')
    _left(f'Challenge: "{_b64url(_rand(32, 4))}",')
    _left(f'credentialPublicKey, _ := hex.DecodeString("{_cose_ec2().hex()}")')


def test_a_jwt_payload_and_a_private_cose_key_are_not_kept() -> None:
    assert cose_public_key(_cose_ec2())
    assert not cose_public_key(_cose_ec2(private=True))
    payload = _b64url(json.dumps({"sub": "u-1", "type": "session", "api_secret": "Zt8qLw2RmX5vNc"}).encode())
    _gone(f"session_token: eyJhbGciOiJIUzI1NiJ9.{payload}.{_b64url(_rand(32, 5))}", payload)


def test_dns_record_names_are_kept() -> None:
    _left("No key for signature mail2024q3._domainkey.example.net")
    _left('value = "quiet-otter-9fk2m8qz1xv7c4n0p6tbd3wy.herokudns.com"')
    _left("alias: d3kq8zpx1v7wm2.cloudfront.net")


def test_an_nkey_seed_shape_inside_standard_base64_is_kept_alone_it_is_redacted() -> None:
    seed = "SU" + "A" * 56
    _left("AAAAB3NzaC1yc2EAAAADAQAB/" + seed + "+x9Lw")
    alone = "SUAM" + "K7QX2VDNLP4RJ3WZ5HSTBY6CFGE" + "MOUKQ2R5XZBW7NDLPJ3TVHY4SGCE"
    _gone(f"nkey: {alone}", alone)


def _file_format_lines() -> list[str]:
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + _rand(60, 20)).decode()
    entry = {"apiVersion": "0.0.1", "kind": "hashedrekord", "spec": {"data": {"hash": {"value": _rand(32, 23).hex()}}}}
    return [
        f'      "image/png": "{png}",',
        "ENV NGINX_GPG_KEYS 3A7F29C1E84B05D6F2A9C3E17B40D58E26F1A9C4 7C2E91A4B3D08F56E2C1A7B94D3F60E8A15C2B97",
        "extra-trusted-public-keys = builds.example.org-1:" + base64.b64encode(_rand(32, 21)).decode(),
        f'"canonicalizedBody": "{base64.b64encode(json.dumps(entry).encode()).decode()}",',
    ]


@pytest.mark.parametrize("text", _file_format_lines())
def test_values_file_formats_define_as_public_are_kept(text: str) -> None:
    _left(text)


def test_secrets_beside_those_formats_are_still_redacted() -> None:
    nix_secret = base64.b64encode(_rand(64, 25)).decode()
    _gone(f"secret-key-files: builds.example.org-1:{nix_secret}", nix_secret[:40])
    _gone("GPG_PASSPHRASE=3A7F29C1E84B05D6F2A9C3E17B40D58E26F1A9C4", "3A7F29C1E84B05D6F2A9C3E17B40D58E26F1A9C4")
    payload = base64.b64encode(json.dumps({"kind": "session", "token": "Zt8qLw2RmX5vNcQ4"}).encode()).decode()
    _gone(f"auth_blob: {payload}", payload)
    key_id = _rand(20, 26).hex()
    _gone(f"private-key-id: {key_id}", key_id)
    public_key = base64.b64encode(_rand(32, 27)).decode()
    assert list(fileforms.spans(f"builds.example.org-1:{public_key}")) != []
    assert list(fileforms.spans(f"ci-runner-1:{public_key}")) == []  # a Nix key's name is a cache's host name
