"""A key written as a list of byte literals under a key's name (:mod:`.bytekeys`, issue 32 round 23). Our phrasings."""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import bytekeys


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        (
            "static const uint8_t mac_key[12] = {0x6e, 0x1f, 0x9a, 0x33, 0xc4, 0x05, 0x7d, 0xe2, 0x18, 0xb9};",
            "0x6e",
            "0xb9",
        ),
        ("#define CIPHER_KEY {0x11, 0x5a, 0xf0, 0x2c, \\\n    0x93, 0x4e, 021, 007, 0x6d}", "0x11", "0x6d"),
        ("byte[] sessionSecret = new byte[] { 12, 250, 3, 77, 190, 45, 8, 161 };", "12", "161"),
        ("wrapKey := []byte{0x0a, 0xbb, 0x3c, 0xd4, 0x5e, 0xf6, 0x17, 0x28}", "0x0a", "0x28"),
        ("DEVICE_PSK = bytes([0x42, 0x99, 0x10, 0xaa, 0x07, 0xe3, 0x5c, 0x61])", "0x42", "0x61"),
    ],
)
def test_a_byte_list_under_a_key_name_is_redacted_from_first_to_last_literal(text: str, first: str, last: str) -> None:
    found = list(bytekeys.spans(text))
    assert len(found) == 1
    start, end, slug = found[0]
    assert slug == "key-bytes"
    assert text[start:end].startswith(first) and text[start:end].endswith(last)
    assert "key-bytes" in redaction.redact(text)[1]


@pytest.mark.parametrize(
    "text",
    [
        "const serverPublicKey = new Uint8Array([4, 91, 22, 180, 7, 66, 231, 19, 5]);",  # a public key
        "donkey = [3, 14, 15, 92, 65, 35, 89, 79]",  # a word ending in "key", not a key
        "hmac_key = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}",  # zeros: a placeholder
        "aes_key = {0x01, 0x02, 0x03}",  # too short for a key
        "key_sizes = [128, 192, 256, 128, 192, 256, 100, 7]",  # sizes, not a key
        "retry_delays = [1, 2, 4, 8, 16, 32, 64, 128]",  # no key's name
    ],
)
def test_lists_that_are_no_key_are_not_this_rule(text: str) -> None:
    assert list(bytekeys.spans(text)) == []
