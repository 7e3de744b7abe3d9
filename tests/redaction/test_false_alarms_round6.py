"""Public identifiers people keep in notes stay verbatim; secrets beside them do not (issue 32, round 6).

Each look-alike below was redacted before :mod:`memrepo.engine.redaction.identifiers`
(the tests fail with its spans turned off: ``test_each_look_alike_was_a_false_alarm``).
The format is known by its checksum where it has one, so the same value with
one character wrong is still redacted, and a secret in the same line is still found.
"""

from __future__ import annotations

import re

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import (
    checksums,
    codenames,
    evidence,
    iacvalues,
    identifiers,
    notevalues,
    publicids,
    rules,
)

AWS_ID = "AKIAZ7XQ4JH2LBNV6T3R"
AWS_SECRET = "kR8vN2qT5wX7zB4mP9sD3fG6hJ1lQ0aE8cY5uI2o"

LOOK_ALIKES = [
    # YouTube playlist (PL + 32 base64url) on a line about a playlist
    "video id 3df9X-WDjLE is the keynote; playlist PL-QoT7bFaFQ6zP2mOOowQb9sZN0i0pRRw",
    # Bitcoin: base58check P2PKH (the Bitcoin wiki's example) and P2SH, bech32 P2WPKH, bech32m P2TR (BIP-173/350 test vectors)
    "BTC tip jar 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
    "bitcoin-cli getreceivedbyaddress 3LA6C6vJYQ69UsLyPzX8nRnK1mWarwadLw",
    "donations: bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
    "donations: bitcoin:bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
    # IPFS CIDs v0 and v1
    "site build QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG pinned",
    "the dataset CID is bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
    # GPG: a long key id, a key listing, a fingerprint after the word
    "release signing key 0x3AA5C34371567BD2",
    "pub   rsa4096/3AA5C34371567BD2 2016-03-10 [SC] [expires: 2027-03-10]",
    "the maintainer's key fingerprint is 65A538488168949E471AFF3548A9117B5BD88293",
    # OpenSSH host key fingerprints
    "billing.example.org ED25519 key fingerprint is SHA256:5vjgkUMV3XMwYBP7qy6hkZg3U7pdLz44BpB5dqBg/hk.",
    "old RSA host key MD5:c7:8b:4a:04:51:12:85:76:21:c7:94:3a:b6:23:7c:12",
    # a model name beside "token limit"
    "llama-3.1-70b-instruct has a 32k token limit",
    "claude-3-5-sonnet-20241022: context window 32768 tokens, output up to 8192 tokens",
    # site keys, public by design
    'reCAPTCHA site key: data-sitekey="6LOjhbn8AAAAAk7lDiU-md4RuS_rHRKcyEqBqYzo"',
    "Turnstile sitekey 0x4AAAAAAAEzGtusfo0wBSwn",
    'hCaptcha: <div class="h-captcha" data-sitekey="8661d424-5fc5-481d-9a28-3b2793be4291"></div>',
    # W3C trace context
    "traceparent: 00-e6c765687298602ac644585f8b3c7589-43767d592984aa85-01",
    # a JWT header alone, base64 of plain text
    "the HS256 tokens all start with eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
    "echo cmVsZWFzZSBub3RlcyBmb3IgdmVyc2lvbiB0d28= | base64 -d prints 'release notes for version two'",
    # an S3 ARN, a magnet link's name, a yarn.lock tarball with its sha1 (Kingfisher's negative example)
    "the deploy role is arn:aws:s3:::gateway-125197755502-artifacts",
    "magnet:?xt=urn:btih:574067156598973ff167b042f6c3bd5e443cd7c0&dn=ubuntu-24.04-desktop-amd64.iso",
    "For sonarqube, remember: sonarqube-reporter-1.2.4.tgz#3b335d612137949d2f21fcc6c8c8164db7603227",
    # a variable reference and the path built on it (Kingfisher's negative example)
    "REACT_APP_FRONTEND_LOGIN_FORGOT_PASSWORD=$REACT_APP_MATRIX_BASE_URL/classroom/#/forgot_password",
    # keyboard shortcuts after a word holding "key" or "password"
    "keybinding: Ctrl+Shift+P -> command palette; Ctrl+P -> quick open",
    "the 1Password quick access shortcut is Cmd+Shift+Space",
    # Spotify ids
    "focus music: spotify:playlist:zfOHD0qn7TtpHbiZt8SIRD",
    "the album id on Spotify is WQni0U0cwyQc7xBamodT2C",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_a_public_identifier_stays_verbatim(text: str) -> None:
    assert redaction.redact(text) == (text, [])


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_each_look_alike_was_a_false_alarm(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the identifiers' spans (the code before this round) each line is altered: the test above is not idle."""
    monkeypatch.setattr(evidence, "keep_bare", lambda _text, spans, _found: spans)  # round 15 keeps bare runs too
    monkeypatch.setattr(identifiers, "spans", lambda _text: iter(()))
    monkeypatch.setattr(notevalues, "spans", lambda _text: iter(()))  # round 11 keeps file names of these shapes too
    monkeypatch.setattr(codenames, "spans", lambda _text: iter(()))  # round 14 keeps names like model ids too
    monkeypatch.setattr(iacvalues, "spans", lambda _text: iter(()))  # round 17 keeps ARNs
    monkeypatch.setattr(rules, "_WORDS_NAME_RE", re.compile(r"(?!x)x"))  # and names of words after a label
    monkeypatch.setattr(rules, "_names_public", lambda _m, _label: False)  # round 24 keeps a key's id and public half
    monkeypatch.setattr(publicids, "spans", lambda _text: iter(()))  # round 25 keeps ARNs too
    assert redaction.redact(text)[0] != text


@pytest.mark.parametrize(
    ("text", "secrets", "kept"),
    [
        (
            f"BTC tip jar 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2, aws_access_key_id={AWS_ID} "
            f"aws_secret_access_key={AWS_SECRET}",
            [AWS_ID, AWS_SECRET],
            "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
        ),
        (
            f"ipfs QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG and AWS key {AWS_ID}",
            [AWS_ID],
            "QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG",
        ),
        (
            "gpt-4o-mini has a 128k token limit; OPENAI_API_KEY=sk-proj-Xq9vB3nT7kL2mR8wZ4yC6hJ1dF5gA0sE",
            ["sk-proj-Xq9vB3nT7kL2mR8wZ4yC6hJ1dF5gA0sE"],
            "gpt-4o-mini has a 128k token limit",
        ),
        (
            "1Password opens with Cmd+Shift+Space; vault password: Xq9vB3nT7kL2mR8w",
            ["Xq9vB3nT7kL2mR8w"],
            "Cmd+Shift+Space",
        ),
        (
            "traceparent: 00-e6c765687298602ac644585f8b3c7589-43767d592984aa85-01 "
            "Authorization: Bearer ghp_R7kX2mQ9vT4wB8nL3zC6yH1dF5gJ0sA2pE7u",
            ["ghp_R7kX2mQ9vT4wB8nL3zC6yH1dF5gJ0sA2pE7u"],
            "00-e6c765687298602ac644585f8b3c7589-43767d592984aa85-01",
        ),
    ],
)
def test_a_secret_beside_an_identifier_is_still_redacted(text: str, secrets: list[str], kept: str) -> None:
    out, _types = redaction.redact(text)
    assert not any(s in out for s in secrets)
    assert kept in out


@pytest.mark.parametrize(
    "text",
    [
        # one character changed: the checksum fails, the value is a random token again
        "BTC tip jar 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3",
        "donations: bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5",
        # a whole JWT (header, claims, signature) is a credential, not a header
        "token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk",
        # base64 whose label names a secret, whatever it decodes to
        "instabot SECRET_KEY=Ym9va21hcmsgZXhhbXBsZSBpbnN0YWJvdCBrZXkgMDE=",
        # a passphrase of words after a user: not a model name
        "smbclient //fs01/share -U svc_backup%falcon-velvet-ember68",
        # an AWS key glued into an ARN's resource
        f"arn:aws:s3:::backups/{AWS_ID}",
        # a password glued to a variable's path
        "DB_PASSWORD=$PREFIX/Xq9vB3nT7kL2mR8wZ4yC6hJ1",
        # an API key written like a GPG key id
        "the vendor api key is 0x9F86D081884C7D65",
        # a secret key of the same shape as a site key
        "reCAPTCHA secret key 6LOjhbn8AAAAAk7lDiU-md4RuS_rHRKcyEqBqYzo",
    ],
)
def test_a_look_alike_that_fails_its_format_is_still_redacted(text: str) -> None:
    assert redaction.redact(text)[0] != text


def test_the_checksums_follow_their_specifications() -> None:
    """Known-good values from each specification, and each with one character wrong."""
    assert checksums.base58check_version("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2") == 0
    assert checksums.base58check_version("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3") is None
    assert checksums.segwit_ok("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4")
    assert not checksums.segwit_ok("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5")
    # BIP-350: a version-1 programme under bech32 (not bech32m) is invalid
    assert not checksums.segwit_ok("bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx")
    assert checksums.iban_ok("GB82 WEST 1234 5698 7654 32")
    assert not checksums.iban_ok("GB82 WEST 1234 5698 7654 33")
    assert checksums.ean13_ok("9780306406157") and not checksums.ean13_ok("9780306406158")
    assert checksums.isbn10_ok("0306406152") and not checksums.isbn10_ok("0306406153")
    assert checksums.orcid_ok("0000-0002-1694-233X") and not checksums.orcid_ok("0000-0002-1694-2330")
    assert checksums.vin_ok("1M8GDM9AXKP042788") and not checksums.vin_ok("1M8GDM9A1KP042788")
    assert checksums.cid_ok("QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG")
    assert checksums.cid_ok("bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi")
    assert not checksums.cid_ok("bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzd")
