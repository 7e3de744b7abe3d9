"""A private key pasted as one line of base64 DER is redacted whole (breaker18 B18-7; engine/redaction/derkeys.py).

Keys are made fresh with the real ``openssl`` for each run, in the forms ``openssl pkey -outform DER | base64 -w0``
and ``openssl rsa -traditional`` give; the public halves and a certificate stay verbatim (docs/architecture.md §3).
"""

from __future__ import annotations

import base64
import shutil
import subprocess

import pytest

from memrepo.engine import redaction

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="makes its keys with the openssl command")


def _der(*args: str, data: bytes | None = None) -> str:
    out = subprocess.run(["openssl", *args], input=data, capture_output=True, check=True, timeout=120).stdout
    return base64.b64encode(out).decode("ascii")


@pytest.fixture(scope="module")
def keys() -> dict[str, bytes]:
    pems = {}
    for name, args in {
        "rsa": ["genpkey", "-algorithm", "rsa", "-pkeyopt", "rsa_keygen_bits:2048"],
        "ec": ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"],
        "ed25519": ["genpkey", "-algorithm", "ed25519"],
    }.items():
        pems[name] = subprocess.run(["openssl", *args], capture_output=True, check=True, timeout=120).stdout
    return pems


FORMS = [(name, form) for name in ("rsa", "ec", "ed25519") for form in ("pkcs8", "traditional", "encrypted")]
"""Each key in each form openssl writes it in (ed25519 has no traditional form: openssl writes PKCS #8)."""


@pytest.mark.parametrize(("name", "form"), [f for f in FORMS if f != ("ed25519", "traditional")])
def test_a_private_key_in_one_line_of_base64_der_is_redacted_whole(
    keys: dict[str, bytes], name: str, form: str
) -> None:
    if form == "pkcs8":
        b64 = _der("pkey", "-outform", "DER", data=keys[name])
    elif form == "traditional":
        kind = "rsa" if name == "rsa" else "ec"
        b64 = _der(kind, "-outform", "DER", *(["-traditional"] if kind == "rsa" else []), data=keys[name])
    else:
        b64 = _der(
            "pkcs8", "-topk8", "-outform", "DER", "-v2", "aes-256-cbc", "-passout", "pass:Hv4qL8zT2c", data=keys[name]
        )
    for text in (b64, f"ssh key (base64 DER): {b64}", f"the box's key {b64} for the deploy box"):
        out = redaction.redact(text)[0]
        assert b64[:40] not in out and b64[-40:] not in out, out[:200]
        assert "[REDACTED:" in out


@pytest.mark.parametrize("name", ["rsa", "ec", "ed25519"])
def test_the_public_half_stays_verbatim(keys: dict[str, bytes], name: str) -> None:
    b64 = _der("pkey", "-pubout", "-outform", "DER", data=keys[name])
    text = f"the deploy key's public half: {b64}"
    assert redaction.redact(text)[0] == text
