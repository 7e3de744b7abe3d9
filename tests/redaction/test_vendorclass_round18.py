"""Vendor keys by their documented shape, and a GCS HMAC secret beside its access id (issue 32 round 18).

Found on Veles' detector tests (Google's OSV-SCALIBR, Apache-2.0), the round's new tuning source; the values are
made for this file in each vendor's documented shape, as test values are written (``sbp_`` + 40 ``a``): the rules
before :mod:`.vendorclass` asked entropy of a key, and each "is taken" value leaked in at least one of its places.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction


def _gone(text: str, value: str) -> None:
    out = redaction.redact(text)[0]
    assert value not in out, out
    assert "[REDACTED:" in out


@pytest.mark.parametrize(
    "value",
    [
        "packagist_ack_" + "a" * 28,
        "packagist_acs_" + "c" * 64,
        "sbp_" + "a" * 40,
        "A3-XXXXXX-YYYYYY-ZZZZZ-AAAAA-BBBBB-CCCCC",
        "ops_eyJ" + "x" * 260,
        "1PRK" + "-ABCD" * 13,
        "sk-pyx-" + "test" * 16,
        "sk-pyx-2" + "testes" * 7 + "tes",
        "essu_" + "QkJC" * 23,
        "00D123456789!AB_CDEF.ABC123456789ABC123456789ABC12ABC1234",
        "hf_" + "abc" * 11 + "a",
        "shippo_live_" + "a" * 40,
        "shippo_test_" + "1" * 40,
    ],
)
def test_a_key_in_its_vendors_documented_shape_is_taken_wherever_it_stands(value: str) -> None:
    for text in (value, f"KEY={value}", f'token: "{value}"', f"use {value} for the deploy"):
        _gone(text, value)


def test_a_key_pasted_twice_with_no_space_is_taken_both_times() -> None:
    key = "hf_" + "QwErTyUiOpAsDfGhJkLzXcVbNmQwErTyUi"
    out = redaction.redact(key + key)[0]
    assert "QwErTy" not in out, out


def test_a_longer_run_than_the_shape_is_no_key() -> None:
    fake = "hf_" + "Fake" * 8 + "Fak"  # 35 letters: a placeholder, not Hugging Face's 34
    assert redaction.redact(fake)[0] == fake


_GCS_ID = "GOOG1" + "AB12CD34" * 7
_GCS_SECRET = "ab12cd34EF" * 4


@pytest.mark.parametrize(
    "text",
    [
        f"{_GCS_ID}:{_GCS_SECRET}",
        f'{{\n  "access_id": "{_GCS_ID}",\n  "value": "{_GCS_SECRET}"\n}}',
        f"{_GCS_ID}\n{_GCS_SECRET}",
    ],
)
def test_a_gcs_hmac_access_id_is_taken_with_the_secret_after_it(text: str) -> None:
    out = redaction.redact(text)[0]
    assert _GCS_SECRET not in out, out
    assert _GCS_ID not in out, out


def test_prose_naming_the_prefixes_is_left() -> None:
    text = "Packagist tokens start packagist_ack_, Supabase's sbp_, 1Password's A3- and ops_eyJ: see the docs!"
    assert redaction.redact(text)[0] == text
