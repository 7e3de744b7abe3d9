"""Public ids of tracing, cloud, key and package tools stay verbatim; secrets beside them do not (issue 32, round 8).

Each look-alike below was redacted before :mod:`memrepo.engine.redaction.idshapes`
(``test_each_look_alike_was_a_false_alarm`` turns its spans off). Values are the
specifications' and vendors' own examples where they print one (B3's README,
Google's X-Cloud-Trace-Context and LogEntry docs, W3C Trace Context, BIP 32's
test vector 1, minisign's own key, RFC 7517 A.1, segmentio/ksuid's README,
git-describe(1), RFC 7469, GitHub's published host key fingerprint, the ERC-20
``Transfer`` topic), else a value of ``families.json`` (the spec's own example of Google's trace
header, git describe, an OAuth client id and a WKD path was never redacted); a value that fails its structure, or that holds a private
member or sits under a secret word, gets no span.
"""

from __future__ import annotations

import base64

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import configvalues, evidence, identifiers, idshapes, valueparts

JWK_PUBLIC = (
    '{"kty":"EC","crv":"P-256","x":"MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",'
    '"y":"4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM","use":"enc","kid":"1"}'
)
JWK_PRIVATE = JWK_PUBLIC.replace('"use"', '"d":"870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAE","use"')
XPUB = "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8"
XPRV = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"

LOOK_ALIKES = [
    # trace contexts
    "b3: 80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1-05e3ac9a4f6e3b90",
    "sentry-trace: 771a43a4192642f0b136d5159a501700-b2c1a6f5e3d8c9e1-1",
    "X-Cloud-Trace-Context: 5a619457d7a50afb6ae1fa391c2dc624/9310872267089897578;o=1",
    "trace: projects/my-projectid/traces/06796866738c859f2f19b7cfb3214824",
    "tracestate: acme=VSPb6wXZFFvST5VB,rojo=00f067aa0ba902b7",
    # decoded structure
    f"watch-only wallet from {XPUB}",
    "minisign -Vm release.tar.gz -P RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3",
    f"jwks: {JWK_PUBLIC}",
    "segment ksuid 0ujtsYcgvSTl8PAuAdqWYSMnLOv",
    "ULID 01H3P0BR507JBN0K6XAY23WMF1",
    # documented shapes
    "git describe says v8.1.0-35-gae683d151b63",
    "fine-tune finished: ft:gpt-4o-mini-2024-07-18:openai:custom_suffix:9ABel2dg",
    "OAuth client id for the desktop app: 886428236312-68iuvooulolhb7tw8tqcrg9z2bhj2wav.apps.googleusercontent.com",
    "WKD lookup: .well-known/openpgpkey/hu/quqmn8grx54csggkozzh55g7h59rtnwg",
    'Public-Key-Pins: pin-sha256="d6qzRu9zOECb90Uez27xWltNsj0e1Md7GkYYkVoZWmM="; max-age=3000',
    "debug1: Server host key: ssh-ed25519 SHA256:+DiY3wvvV6TuJJhbpZisF/zLDA0zPMSvHdkr4UvCOqU",
    # by label
    "InstrumentationKey=5f2c8e4a-7b1d-4c3e-9a6f-2d8b0e1c4a7f;IngestionEndpoint=https://westeurope-5.in.applicationinsights.azure.com/",
    "instrumentation key 7188a903-f979-4015-8bd3-ba4774b2184d",
    "log topic0 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
]

REGION_JSON = base64.b64encode(b'{"region": "eu-west-1", "env": "staging"}').decode()
IDENTIFIER_LOOK_ALIKES = [
    # a CronJob's pod (schedule in minutes since 1970), a llama.cpp quantisation tag, base64 JSON naming a region
    "cronjob pod nightly-export-29087634-tvmz8 completed",
    "ollama pull llama3.2:3b-instruct-q4_K_M",
    f"configmap binaryData settings.json: {REGION_JSON}",
]


@pytest.mark.parametrize("text", LOOK_ALIKES + IDENTIFIER_LOOK_ALIKES)
def test_a_public_format_stays_verbatim(text: str) -> None:
    assert redaction.redact(text) == (text, [])


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_each_look_alike_was_a_false_alarm(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without this module's spans (the code before this round) each line is altered: the test above is not idle."""
    monkeypatch.setattr(evidence, "keep_bare", lambda _text, spans, _found: spans)  # round 15 keeps bare runs too
    monkeypatch.setattr(idshapes, "spans", lambda _text: iter(()))
    monkeypatch.setattr(configvalues, "spans", lambda _text: iter(()))  # round 15 keeps target triples, GCP names
    monkeypatch.setattr(valueparts, "not_a_secret_value", lambda _value: False)  # round 26 keeps paths too
    assert redaction.redact(text)[0] != text


def test_the_identifier_shapes_widened_this_round() -> None:
    """The parts this round added to :mod:`.identifiers`: each value matches now, and its old neighbour still not."""
    assert identifiers._POD_RE.fullmatch("nightly-export-29087634-tvmz8")
    assert not identifiers._POD_RE.fullmatch("nightly-export-2908763-tvmz8")  # 7 digits: no CronJob's schedule
    assert identifiers._MODEL_PART_RE.fullmatch("q4_K_M") and identifiers._MODEL_PART_RE.fullmatch("IQ3_XXS")
    assert not identifiers._MODEL_PART_RE.fullmatch("q4_Zx9")
    assert identifiers._plain_text_ok(REGION_JSON)
    assert not identifiers._plain_text_ok(base64.b64encode(b'{"region": "eu-west-1", "pw": "Tr0ub4dor&3x"}').decode())


GH_TOKEN = "ghp_R7kX2mQ9vT4wB8nL3zC6yH1dF5gJ0sA2pE7u"


@pytest.mark.parametrize(
    ("text", "secret", "kept"),
    [
        (
            f"b3: 80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1 Authorization: Bearer {GH_TOKEN}",
            GH_TOKEN,
            "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1",
        ),
        (f"git describe v1.0.4-14-g2414721 GITHUB_TOKEN={GH_TOKEN}", GH_TOKEN, "v1.0.4-14-g2414721"),
        (f"{XPUB} and {XPRV}", XPRV, XPUB),
        (f"tracestate: rojo=00f067aa0ba902b7,acme={GH_TOKEN}", GH_TOKEN, "rojo=00f067aa0ba902b7"),
    ],
)
def test_a_secret_beside_a_public_format_is_still_redacted(text: str, secret: str, kept: str) -> None:
    out, _types = redaction.redact(text)
    assert secret not in out
    assert kept in out


@pytest.mark.parametrize(
    "text",
    [
        # an extended private key (BIP 32 ``xprv``); the xpub with one character changed (checksum fails)
        XPRV,
        XPUB[:-1] + "9",
        # a JWK holding its private member ``d``; a symmetric JWK (``k``)
        JWK_PRIVATE,
        '{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg","kid":"hmac-1"}',
        # minisign's secret key starts the same way but is no 42-byte public key
        "RWRTY0IyYWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXowMTIzNDU2Nzg5QUJDREVGR0hJSktMTU5PUFFSU1RVVg==",
        # a B3-looking pair with no sampling flag and no trace word
        "deploy key 80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1",
        # a 0x + 64 hex said to be a private key, not a topic; a non-GUID instrumentation key
        "topic0 wallet private key 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
        "InstrumentationKey=Xq9vB3nT7kL2mR8wXq9vB3nT7kL2mR8w",
        # a KSUID-looking run too large for 20 bytes; a tracestate member under a secret word or too long to be one
        "ksuid zzzzzzzzzzzzzzzzzzzzzzzzzzz",
        "ULID 81H3P0BR507JBN0K6XAY23WMF1",
        "ULID 01H3P0BR507JBN0K6XAY23WMFU",
        "tracestate: token=VSPb6wXZFFvST5VB",
        f"tracestate: acme={GH_TOKEN}",
        # a fine-tuned name whose base is no OpenAI model
        "ft:Xq9vB3nT7kL2mR8w:acme::v5JGnVRb",
    ],
)
def test_a_value_that_fails_its_format_gets_no_span(text: str) -> None:
    assert list(idshapes.spans(text)) == []
