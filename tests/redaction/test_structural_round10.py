"""Keys found by shape and randomness with no vendor named (issue 32 round 10, :mod:`.structural`).

Every value below is random (made for this file); the texts are the shapes the
module documents. Each "is taken" case leaked before the module; each "stays"
case is a public value of the same shape that must come out unchanged.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import structural


def _gone(text: str, value: str) -> None:
    out = redaction.redact(text)[0]
    assert value not in out, out
    assert "[REDACTED:" in out


def _stays(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("copied 9fA3c81D0e7B4a62Fd1c0E9b8A7d6C5e into the vault", "9fA3c81D0e7B4a62Fd1c0E9b8A7d6C5e"),
        ("streak A4bb3Af3AdafcAf29A06A5b23ee0a0c8", "A4bb3Af3AdafcAf29A06A5b23ee0a0c8"),
    ],
)
def test_a_hex_key_that_mixes_case_is_taken(text: str, value: str) -> None:
    assert [text[s:e] for s, e, _ in structural.mixed_hex(text)] == [value]
    _gone(text, value)


@pytest.mark.parametrize(
    "text",
    [
        "sha256 of the tarball: 9fa3c81d0e7b4a62fd1c0e9b8a7d6c5e9fa3c81d0e7b4a62fd1c0e9b8a7d6c5e",
        "MD5: 9FA3C81D0E7B4A62FD1C0E9B8A7D6C5E",
        "send it to 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed on mainnet",
        "fixed in 4f91a6529ac3aa63c2d961b50816ed57c0ffee12",
    ],
)
def test_single_case_hex_and_checksummed_addresses_stay(text: str) -> None:
    assert list(structural.mixed_hex(text)) == []
    _stays(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("unify hP8qr9F0nvVkzDjHafKE2wXTEhc8K9QpPqvyunKW=0fy", "hP8qr9F0nvVkzDjHafKE2wXTEhc8K9QpPqvyunKW=0fy"),
        (
            "getgist Cc1DbRmyfwn94M9MWjFQz=5OKhlnMLv4vIRDgMjnfkfU=bcmL1szI",
            "Cc1DbRmyfwn94M9MWjFQz=5OKhlnMLv4vIRDgMjnfkfU=bcmL1szI",
        ),
    ],
)
def test_a_random_value_after_one_word_ending_its_line_is_taken(text: str, value: str) -> None:
    assert [text[s:e] for s, e, _ in structural.named_value(text)] == [value]
    # since round 21 the finding is weak (``named-token``): redacted where evidence says it is a secret; a vendor
    # name, or (for ``unify``, no vendor a rule set names) a block's key naming a secret above it
    _gone(text if text.startswith("getgist") else f"keys:\n  {text}", value)


@pytest.mark.parametrize(
    "text",
    [
        "commit 4f91a6529ac3aa63c2d961b50816ed57c0ffee12",
        "  zod: c653c905e1f9dbc4b447f60db78041c8cfa6e266",
        "project 2c5ea4c0-4067-11e9-8bad-9b1deb4d3b7d",
        "md5 4f91a6529ac3aa63c2d961b50816ed57",
        "nitrobox 4f91a6529ac3aa63c2d961b50816ed57",
        "mongo 5f3a9c2b1e4d6a7b8c9d0e1f",
        "see IMPLEMENTATION_NOTES_FINAL_VERSION",
        "docs contributing/getting-started-guide",
        "renamed dashboardWidgetContainer",
        "tracking 1Z999AA10123456784",
        "video dQw4w9WgXcQ",
        "customer HbX9nXq68l90KXRwvejO",
        "    notpath2: th1s/c0uldb3/ap4assw0rd",  # whispers' compliant sample: a path, not base64
    ],
)
def test_a_public_value_or_a_name_after_one_word_stays(text: str) -> None:
    assert list(structural.named_value(text)) == []
    _stays(text)


@pytest.mark.parametrize(
    "text",
    [
        "spreadsheet 1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms",
        "base appF3kq9Xz2LmN7pQrT",
        "firestore 8OTDkfo4e3GXMgnpTEL8",
    ],
)
def test_a_documents_or_a_records_id_after_its_word_is_not_this_rules(text: str) -> None:
    # other detectors take these today (a known false alarm of the older rules, left to the identifiers work)
    assert list(structural.named_value(text)) == []


def test_the_same_word_and_value_inside_a_sentence_are_not_this_rules() -> None:
    text = "nitrobox 4f91a6529ac3aa63c2d961b50816ed57 was the build we shipped"
    assert list(structural.named_value(text)) == []


def test_a_random_value_a_line_opens_and_calls_a_key_is_taken() -> None:
    value = "314062ec2d3e95602a0446088df5eef2bdba792a5f5281fe04b0bd8e34460c33d0f36028"
    text = f"{value} is the ActiveCampaign one for prod"
    assert [text[s:e] for s, e, _ in structural.value_first(text)] == [value]
    _gone(text, value)
    _gone("q8Rk2Lw9Zx4TbN7mYc3V is our Wetherly one", "q8Rk2Lw9Zx4TbN7mYc3V")


@pytest.mark.parametrize(
    "text",
    [
        "4f91a6529ac3aa63c2d961b50816ed57 is the md5 of the tarball",
        "c653c905e1f9dbc4b447f60db78041c8cfa6e266 is the commit that broke it",
        "Zq7Lm2Xc9Vb4Nr8Tw3Ks is the build we shipped",
    ],
)
def test_a_value_a_line_opens_and_calls_something_public_stays(text: str) -> None:
    assert list(structural.value_first(text)) == []
    _stays(text)


@pytest.mark.parametrize(
    "value",
    ["qp-api-u-EK4ouILCGb0VUjI-35igTjsh_HChRcRJznmTLjp7F", "vk-lt9u2_O8-9QAWWanWS3eKiBUZf51pytB_7U-62-EwEf"],
)
def test_a_prefixed_key_with_a_base64url_body_is_taken(value: str) -> None:
    text = f"use `{value}` in staging"
    assert [text[s:e] for s, e, _ in structural.prefixed_urlsafe(text)] == [value]
    _gone(text, value)


@pytest.mark.parametrize(
    "text",
    [
        "branch feature-add-user-profile-page-with-avatar-upload",
        "renovate-9fa3c81d-0e7b-4a62-fd1c-0e9b8a7d6c5e_lockfile",
        "module my_service_name_for_payments_and_billing_v2",
    ],
)
def test_kebab_and_snake_names_stay(text: str) -> None:
    assert list(structural.prefixed_urlsafe(text)) == []
    _stays(text)


@pytest.mark.parametrize("value", ["cFxpqUoWNibzVT7mKYxJvlnDo9zAZ5oA", "0123456789abcdef0123456789abcdef01234567"])
def test_a_token_as_a_urls_user_is_taken(value: str) -> None:
    text = f"git clone https://{value}@github.com/team/repo.git"
    assert [text[s:e] for s, e, _ in structural.token_userinfo(text)] == [value]
    _gone(text, value)


@pytest.mark.parametrize(
    "text",
    [
        "git clone https://alice@example.com/team/repo.git",
        "push to https://deploybot-production@gitlab.com/team/repo.git",
        "ssh://git@github.com/team/repo.git",
    ],
)
def test_a_user_name_in_a_url_stays(text: str) -> None:
    assert list(structural.token_userinfo(text)) == []
    _stays(text)


@pytest.mark.parametrize(("length", "alphabet"), [(16, 62), (40, 62), (100, 64), (32, 16)])
def test_expected_entropy_is_under_the_most_the_alphabet_allows(length: int, alphabet: int) -> None:
    import math

    got = structural.expected_entropy(length, alphabet)
    assert 0 < got < math.log2(alphabet)
    assert got <= math.log2(length)


def test_every_sample_of_the_shapes_tuning_set_is_redacted() -> None:
    import json
    from pathlib import Path

    corpus = Path(__file__).parents[2] / "benchmarks" / "secrets_corpus" / "shapes.json"
    samples = json.loads(corpus.read_text(encoding="utf-8"))["samples"]
    left = [s["family"] for s in samples if any(v in redaction.redact(s["text"])[0] for v in s["secrets"])]
    assert len(samples) == 970
    # one base64 value opens with "/" after "API:" and reads as a path: left; round 15 (evidence.py) kept a second
    # bare run after an unknown name (``zorbly: /bz…``) until round 21 read a one-word clause naming a product as
    # evidence
    assert left == ["bare/b64-40"]
