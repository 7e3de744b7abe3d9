"""Public halves, masked keys and placeholders kept verbatim, the secrets beside them still redacted (issue 32
round 24: :mod:`.pubkeyshapes`, :func:`.placeholders.shown_masked`, :func:`.rules._names_public`,
:func:`.shapelabels.public_half`). Our phrasings; values made here with their format's structure."""

from __future__ import annotations

import base64
import hashlib
import random

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import placeholders, pubkeyshapes, publicids, rules, shapelabels

_RNG = random.Random(24)
_POINT = base64.urlsafe_b64encode(b"\x04" + _RNG.randbytes(64)).decode().rstrip("=")
_WG = base64.b64encode(_RNG.randbytes(32)).decode()
_DKIM = base64.b64encode(_RNG.randbytes(32)).decode()
_SHA512 = hashlib.sha512(b"left-pad").hexdigest()
_ETAG = hashlib.md5(b"backup").hexdigest() + "-12"

STRUCTURAL = [
    f"- push key for the PWA (VAPID, private half in the vault): {_POINT} [kind: setup]",
    f"applicationServerKey: urlBase64ToUint8Array('{_POINT}')",
    f"`wg set wg1 peer {_WG} allowed-ips 10.9.0.4/32`",
    f"- laptop peer pubkey {_WG} [kind: network]",
    f'mail._domainkey TXT "v=DKIM1; k=ed25519; p={_DKIM}"',
    f"| left-pad@npm:1.3.0 | 10c0/{_SHA512} |",
    f"- nightly upload ok, ETag {_ETAG} [kind: backup]",
]
MASKED = [
    "the dashboard lists the token as ghp_************Qx7A, created in May",
    "MAILJET_SECRET=••••••••1c9e",
    "OPENAI_API_KEY=sk-******",
    "ACME_KEY=acme_sec_<32 hex chars>",
    "curl 'https://api.example.org/v2/items?api_key=YOUR_API_KEY&page=2'",
]
LABELLED = [
    "- The Quillmesh signing key id is kq93hd02jf7x [kind: setup]",
    "key id: 7QX2LMB94K",
    "Trinkle.init({ publishableKey: 'tk_pub_9fHq2LxZr4PwT6mNc8Vd', theme: 'dark' })",
    "PUBLIC_CAPTCHA_SITE_KEY=0x4AAAAAAAb7Qk2mZr9XwTt1",
]
SECRETS = [
    ("- VAPID private key: " + base64.urlsafe_b64encode(_RNG.randbytes(32)).decode().rstrip("="), 20),
    ("TURNSTILE_SECRET_KEY=0x4AAAAAAAb7Qk2mZr9XwTt1RkQ8fZpLmN3cV", 21),
    ("publishableKey: 'sk_live_51Hq8d2LkT9xQw7Zr4PmN6cVb'", 17),
    ("the private key id is kq93hd02jf7x and the key is kx_9Qm2LdR7vT4zPw8Nc6Hb3", 50),
    ("git clone https://x-access-token:ghs_8Qm2LdR7vT4zPw8Nc6Hb3Xk9Jf5Ys1Tu0Ab@github.com/acme/app.git", 33),
]


@pytest.mark.parametrize("text", STRUCTURAL + MASKED + LABELLED)
def test_a_public_value_stays_verbatim(text: str) -> None:
    assert redaction.redact(text) == (text, [])


@pytest.mark.parametrize("text", STRUCTURAL + MASKED + LABELLED)
def test_each_was_a_false_alarm(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the round's keeps off (the code before it) each line is altered: the test above is not idle."""
    monkeypatch.setattr(pubkeyshapes, "spans", lambda _text: iter(()))
    monkeypatch.setattr(placeholders, "shown_masked", lambda _text: iter(()))
    before = r"(?<![\w.+/~-])(?:&lt;)?[\w+~-][\w.+/~;&-]{5,}={0,2}"  # round 23's token: ``&`` ran on into a query
    monkeypatch.setattr(placeholders, "_TOKEN_RE", placeholders.lazyre.compile(before))
    monkeypatch.setattr(rules, "_names_public", lambda _m, _label: False)
    monkeypatch.setattr(shapelabels, "public_half", lambda _text, _start: False)
    monkeypatch.setattr(shapelabels, "_public_half", lambda _words: False)
    monkeypatch.setattr(publicids, "spans", lambda _text: iter(()))  # round 25 keeps a key id too
    redaction.flush_clean_memo()
    assert redaction.redact(text)[0] != text


@pytest.mark.parametrize(("text", "at"), SECRETS)
def test_a_secret_in_the_same_place_is_still_redacted(text: str, at: int) -> None:
    out, types = redaction.redact(text)
    assert types, out
    assert out[at:].startswith("[REDACTED:") or "[REDACTED:" in out[at - 2 : at + 12], out


def test_a_token_in_a_urls_userinfo_leaves_the_host_and_path() -> None:
    text = "git clone https://x-access-token:ghs_8Qm2LdR7vT4zPw8Nc6Hb3Xk9Jf5Ys1Tu0Ab@github.com/acme/app.git"
    out, _types = redaction.redact(text)
    assert out.endswith("@github.com/acme/app.git"), out
    assert "ghs_" not in out
