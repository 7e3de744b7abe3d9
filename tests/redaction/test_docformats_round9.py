"""Vendors' own documented formats (issue 32, round 9): :mod:`.docformats` and :mod:`.publishable`.

Each secret test names a key the detectors missed before this round on the
``vendordocs2`` tuning set (each vendor's page is named in
``benchmarks/secrets_corpus/build_vendordocs2.py``); each look-alike test names a
key its vendor documents as public that was redacted before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memrepo.engine.read import redactionepoch
from memrepo.engine.redaction import DETECTORS, docformats, publishable, redact

UUID = "864cdb7d-4009-4be6-ae58-fa18d677b167"
AV_KEY = "D94SR8MOUWYRMFTG"
AGORA_ID = "236aa93c335d0f2f1737f9d624cffb17"
AGORA_CERT = "98e5359d3165f0d8f6bd10f55c721087"
RZP_ID = "rzp_live_i9Ixg9NZ5CsSD0"
RZP_SECRET = "f2CjKK1wd75a6bD2dIXNAuIf"
HEX32 = "ca516b187b88fb8f07a15726cd1b246c"
DT_ID = "dt0c01.MPWT9KSYD6U5QLRGUIQ3TFTM"
DT_SECRET = "G3DFPBEJYMODIDAEX454M7YWBUVEFOWKPRVMWFASS64NFH52PX6BNDVFFM572RZMA"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (f"alpha vantage: {AV_KEY}", AV_KEY),  # 16 upper-case letters and digits after the vendor's name
        (f"ALPHAVANTAGE_KEY {AV_KEY}", AV_KEY),
        (f"agora: app id {AGORA_ID}, app certificate {AGORA_CERT}", AGORA_CERT),  # the App ID is public
        (f"Priya pasted {RZP_ID} {RZP_SECRET} into the deploy settings", RZP_SECRET),  # the secret after its key id
        (f"curl -u {RZP_ID}:{RZP_SECRET} https://api.razorpay.com/v1/payments", RZP_SECRET),
        (f"rollbar: post_server_item {HEX32}", HEX32),  # a documented vendor's name before a key-shaped value
        (f'client = Client("AC{AGORA_ID}", "{HEX32}")', HEX32),  # Twilio's Auth Token after its Account SID
        (f"gladia: {UUID}", UUID),  # Gladia's keys are UUIDs: a UUID after its name is its key
        (f"Paperspace: {HEX32}", HEX32),
        (f"{DT_ID}.{DT_SECRET}", DT_SECRET),  # a whole Dynatrace token: the identifier is not kept apart
    ],
)
def test_a_documented_key_is_redacted(text: str, value: str) -> None:
    assert value not in redact(text)[0]


def test_a_whole_dynatrace_token_is_redacted_whole() -> None:
    out = redact(f"Api-Token {DT_ID}.{DT_SECRET}")[0]
    assert DT_ID not in out and DT_SECRET not in out


@pytest.mark.parametrize(
    "text",
    [
        "NEXT_PUBLIC_POSTHOG_KEY=phc_4XZtktaeeNritCpBPUieC5EhlFn44taOVBFJvKupx4M",
        "Supabase publishable key: sb_publishable_CME9mTCQhzqpqRBQsl8Yd_EzRxbsMEg",
        f"Langfuse public key: pk-lf-{UUID}",
        "Statsig client SDK key: client-4XZtktaeeNritCpBPUieC5EhlFn44taOVBFJvKupx4M",
        "Paddle client-side token: live_11635d80910042a15b07ea2f3b2",
        f"Dynatrace token identifier: {DT_ID}",  # documented as safe to display and log
        "NEXT_PUBLIC_MOLLIE_KEY=pfl_aqRWtlllsA",
        "Flutterwave public key: FLWPUBK-a446d81b913427b9e768de51907672a2-X",
        "Checkout.com public key: pk_sbox_qzuhn46kqr7qyzewk3pvamovkq",
        f"NEXT_PUBLIC_RAZORPAY_KEY={RZP_ID}",
        "mixpanel.init('0acc81674c128bbe6082337f9ed7e47f') (project token, public)",  # Mixpanel is no DOC_VENDOR
        "alpha vantage docs: keys look like ABCDEFGHIJKLMNOP",  # no digit: not a key
        f"weaviate collection {UUID}",  # a public label between the vendor's name and the value
        f"koyeb service {UUID}",
        f"Twilio account AC{AGORA_ID} sends from +15005550006",  # the Account SID alone is an id  # Koyeb's object ids are UUIDs: its name is not taken
        f"imgix url https://acme.imgix.net/a.png?w=400&s={HEX32}",  # a URL signature, not a key
    ],
)
def test_a_key_documented_as_public_stays(text: str) -> None:
    assert redact(text)[0] == text


@pytest.mark.parametrize(
    "value",
    [
        "phx_4XZtktaeeNritCpBPUieC5EhlFn44taOVBFJvKupx4M",  # PostHog's personal key
        "sb_secret_CME9mTCQhzqpqRBQsl8Yd_EzRxbsMEg",
        f"sk-lf-{UUID}",
        "secret-4XZtktaeeNritCpBPUieC5EhlFn44taOVBFJvKupx4M",  # Statsig's server key
        "FLWSECK-a446d81b913427b9e768de51907672a2-X",
        "sk_sbox_qzuhn46kqr7qyzewk3pvamovkq",
    ],
)
def test_the_secret_beside_a_public_key_is_still_redacted(value: str) -> None:
    assert value not in redact(f"the key is {value}")[0]


def test_publishable_spans_are_the_documented_shapes_only() -> None:
    text = f"{DT_ID} and {DT_ID}.{DT_SECRET} and live_11635d80910042a15b07ea2f3b2x"
    assert [text[s:e] for s, e in publishable.spans(text)] == [DT_ID]


def test_doc_vendors_are_new_names_only() -> None:
    from memrepo.engine.redaction.vendorwords import VENDORS

    assert docformats.DOC_VENDORS and not docformats.DOC_VENDORS & VENDORS


def test_the_detector_runs_and_its_sources_start_a_new_epoch() -> None:
    assert "docformats" in DETECTORS
    names = {path.name for path in redactionepoch._DETECTOR_SOURCES}
    assert {"docformats.py", "publishable.py"} <= names


def test_the_tuning_set_names_a_page_for_every_sample() -> None:
    data = json.loads(
        (Path(__file__).parents[2] / "benchmarks" / "secrets_corpus" / "vendordocs2.json").read_text(encoding="utf-8")
    )
    assert len(data["vendors"]) >= 60
    samples = data["vendordocs2"] + data["vendordocs2-benign"]
    assert all(s["url"].startswith("https://") for s in samples)
