"""More public formats people keep in notes stay verbatim; secrets beside them do not (issue 32, round 7).

Each look-alike below was redacted before :mod:`memrepo.engine.redaction.formats`
(``test_each_look_alike_was_a_false_alarm`` turns its spans off). Values come
from each format's specification where it prints one (Tor's, GLEIF's, UPS's,
NIP-19's, the W3C did:key and Matrix examples); a value that fails its checksum
or structure, or that a secret word labels, gets no span.
"""

from __future__ import annotations

import base64

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import checksums, evidence, formats, notevalues, publicids, rules, valueparts


def _b58(raw: bytes) -> str:
    n = int.from_bytes(raw, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = checksums.B58[r] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


EWS_ID = base64.b64encode(
    b"\x00\x03\x24\x00" + b"5ff26c2b-bff1-49da-b388-5a084628d6a6" + b"\x00\x46\x00\x00\x00\x00\x00" + bytes(range(64))
).decode()

LOOK_ALIKES = [
    # checksummed: Tor v3 onion (DuckDuckGo's), UPS's test number, GLEIF's own LEI, a Salesforce id, NIP-19's npub
    "the mirror's onion address is duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion",
    "UPS tracking 1ZJH8IG10258791842",
    "LEI of the counterparty: CAU600IQ7T32ZY3FVP78",
    "the 15-char id 00QG6MqdNoOj9bs matches opportunity 005oGw7w10Lw7idQAB",
    "nostr: npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg",
    # decoded structure: GitHub legacy node id, Exchange item id, DIDs
    "legacy global id MDEwOlJlcG9zaXRvcnkxMzA1NDY1NzM=",
    "gh api graphql -f id=PR_kwDOALxhTs463mix",
    f"Outlook item id {EWS_ID}",
    "issuer did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK",
    "my Bluesky DID is did:plc:inqywu3xcrnn43pxzjlx5vti",
    # documented shapes: Twilio SIDs, a Nix hash, bundler file names
    "SMS SM9773b3f3c0e159fc564e8b7bb922fe43 bounced; messaging service MGfe58dadeb030eab0bc974522961ebb03",
    "fixed-output hash: sha256:6rd222ir89jgybk6fd8dwcvx273p3dx2r6lrvdjm370plcp2l7j3",
    "cargo audit: RUSTSEC-2019-0043",
    "the old preprint astro-ph/9612101",
    "test iPhone UDID 00008110-00962FB4C5D3FE93",
    "link the retro to notion.so/1c01de420c64464913e7c846fad650da?pvs=4",
    "vite output: dist/assets/index-Pf9mBk7D.js",
    "webpack chunk vendors.e27931f388b3a9c4f6dc.js is 1.2 MB",
    # by label or header
    "X509v3 Authority Key Identifier: keyid:80:D4:32:82:39:34:66:05:58:2F:98:FF:CA:DD:D3:86:32:59:D4:E7",
    "keyid:23:98:13:CA:A7:F4:EB:2E:D8:E8:C2:99:41:A1:86:6B:91:03:54:5D",
    "TXT google-site-verification=XGVC-owkiP9IhhDxvY4u1xmnJ-g1lcZVtYUCgZP6dpI",
    "facebook-domain-verification=hk5lp2stgvh7ttos1hznk6jf1334ds",
    "Message-ID: <CAKB=+TT2HeERJ9U_GIf7ylksmGoCSdlVVSSQqZW0GYGbUP+L@mail.gmail.com>",
    "cf-ray: 0681ed2c3e40f94e-FRA",
    "x-amz-request-id: 3D64852F8E28A985\nx-amz-id-2: LriYPLdmOdAiIfgSm/F1YsViT1LW94/xUQxMsF7xiEb1a0wiIOIxl+zbwZ163pt7",
    "firebase auth uid AXnRM4NP3gxj1ISfcS3rdraRIleI is the test user",
    "Figma file key u7TIyjxjDJmu8S6tWDNzaU",
    "Matrix room !lYTAMLaEubLTNUGeqE:matrix.org, event $Rqnc-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5lr5Zg",
    "treasury wallet on Solana: EZqyPv1tQk4L46dXzQsaxwqmGpLzrvuUUpJDnoKFc5pt",
    "SOL address FM71JGBwsiAvv2EVipUUG31WfwFLt4xtkaR3NqKnhDzF",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_a_public_format_stays_verbatim(text: str) -> None:
    assert redaction.redact(text) == (text, [])


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_each_look_alike_was_a_false_alarm(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without this module's spans (the code before this round) each line is altered: the test above is not idle."""
    monkeypatch.setattr(evidence, "keep_bare", lambda _text, spans, _found: spans)  # round 15 keeps bare runs too
    monkeypatch.setattr(formats, "spans", lambda _text: iter(()))
    monkeypatch.setattr(notevalues, "spans", lambda _text: iter(()))  # round 11 keeps file names of these shapes too
    monkeypatch.setattr(rules, "_names_public", lambda _m, _label: False)  # round 24 keeps a key's id and public half
    monkeypatch.setattr(publicids, "spans", lambda _text: iter(()))  # round 25 keeps Solana addresses and key ids
    monkeypatch.setattr(valueparts, "not_a_secret_value", lambda _value: False)  # round 26 keeps paths and dated names
    assert redaction.redact(text)[0] != text


GH_TOKEN = "ghp_R7kX2mQ9vT4wB8nL3zC6yH1dF5gJ0sA2pE7u"
AWS_ID = "AKIAZ7XQ4JH2LBNV6T3R"


@pytest.mark.parametrize(
    ("text", "secrets", "kept"),
    [
        (
            "Twilio account AC94a06890ea3a88d0d33c25cae0bed564, auth token 7c1f9e2b4d6a8c0e3f5b7d9a1c3e5f70",
            ["7c1f9e2b4d6a8c0e3f5b7d9a1c3e5f70"],
            "AC94a06890ea3a88d0d33c25cae0bed564",
        ),
        (
            f"cf-ray: 0681ed2c3e40f94e-FRA Authorization: Bearer {GH_TOKEN}",
            [GH_TOKEN],
            "0681ed2c3e40f94e-FRA",
        ),
        (
            f"dist/assets/index-Pf9mBk7D.js and AWS key {AWS_ID}",
            [AWS_ID],
            "dist/assets/index-Pf9mBk7D.js",
        ),
        (
            f"nostr: npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg GITHUB_TOKEN={GH_TOKEN}",
            [GH_TOKEN],
            "npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg",
        ),
    ],
)
def test_a_secret_beside_a_public_format_is_still_redacted(text: str, secrets: list[str], kept: str) -> None:
    out, _types = redaction.redact(text)
    assert not any(s in out for s in secrets)
    assert kept in out


@pytest.mark.parametrize(
    "text",
    [
        # one character changed: the checksum fails
        "onion duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczae.onion",
        "UPS tracking 1Z999AA10123456785",
        "LEI 506700GE1G29325QX364",
        "opportunity 005oGw7w10Lw7idQAC",
        "nostr: npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjpth",
        # an API key's SID (SK), which scanners treat as a credential; a Nostr secret key
        "Twilio SK94a06890ea3a88d0d33c25cae0bed564",
        "nostr: nsec10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg",
        # a did:key whose multicodec is a private key (ed25519-priv, 0x1300)
        "did:key:z" + _b58(b"\x80\x26" + bytes(range(7, 39))),
        # a 64-byte Solana secret key, and an address under a secret word
        "Solana: " + _b58(bytes(range(9, 73))),
        "Solana wallet private key EZqyPv1tQk4L46dXzQsaxwqmGpLzrvuUUpJDnoKFc5pt",
        # a uid and a Matrix-looking value said to be secrets
        "password uid AXnRM4NP3gxj1ISfcS3rdraRIleI",
        "Matrix room signing secret $Rqnc-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5lr5Zg",
        # an Exchange-looking value that does not decode to the mailbox GUID
        "Outlook item id AAMkADZGylRgxrCY6mcFpcl4HEwFpPzFidKwsBhhlvqxfx6tY0VoIrZ9OiN53Ba8lk=",
        # a file name whose hash part is glued to a secret word
        "dist/api-token-Pf9mBk7D.js",
        # an arXiv-looking path of an unknown archive, a month 13
        "the old preprint secrets/9612101",
        "astro-ph/9613101",
        # a GitHub-looking node id whose body is not a MessagePack array of ids
        "gh api graphql -f id=PR_kwDOtpzPzOen4w",
        # a vendor token after ``uid``; a URL's credentials in a Message-ID header
        "uid ghp_R7kX2mQ9vT4wB8nL3zC6yH1dF5gJ0sA2pE7u",
        "References: <https://admin:Xq9vB3nT7kL2mR8w@git.example.com>",
    ],
)
def test_a_value_that_fails_its_format_gets_no_span(text: str) -> None:
    assert list(formats.spans(text)) == []


def test_the_checksums_follow_their_specifications() -> None:
    """Each specification's own example, and the same value with one character wrong."""
    assert checksums.onion_v3_ok("2gzyxa5ihm7nsggfxnu52rck2vv4rvmdlkiu3zzui5du4xyclen53wid")
    assert not checksums.onion_v3_ok("2gzyxa5ihm7nsggfxnu52rck2vv4rvmdlkiu3zzui5du4xyclen53wie")
    assert checksums.lei_ok("506700GE1G29325QX363") and not checksums.lei_ok("506700GE1G29325QX336")
    assert checksums.ups_ok("1Z999AA10123456784") and not checksums.ups_ok("1Z999AA10123456785")
    assert checksums.salesforce_ok("001A0000006Vm9rIAC") and not checksums.salesforce_ok("001A0000006vm9rIAC")
    raw = checksums.bech32_data("npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg", "npub")
    assert raw is not None and raw.hex() == "7e7e9c42a91bfef19fa929e5fda1b72e0ebc1a4c1141673e2794234d86addf4e"
    assert checksums.bech32_data("npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg", "nsec") is None
