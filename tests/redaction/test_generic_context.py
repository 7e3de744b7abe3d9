"""Keys of vendors no rule set names, found by the words around them (issue 32, round 5).

The vendors here are invented, so only a generic rule can find their keys: a
secret word before the value with no public label between, a secret word
just after it, a product's name right before a random token, an id printed
beside its secret. Each has a look-alike that must stay.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # a secret word before the value, words between
        ("quillmark api key (prod) -> 3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b", "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b"),
        ("the ternfield token for the EU tenant => 9c41e0d27ab34f1d", "9c41e0d27ab34f1d"),
        # a secret word just after the value
        (
            "4bca320e7cb83c1914a6b4d71a8540de0c590c1be5f9fe0a1a6eb315ac5b5368 is the Hexaline api key",
            "4bca320e7cb83c1914a6b4d71a8540de0c590c1be5f9fe0a1a6eb315ac5b5368",
        ),
        ("7f3e9a0b1c2d4e5f6a7b8c9d0e1f2a3b (borelight token, staging)", "7f3e9a0b1c2d4e5f6a7b8c9d0e1f2a3b"),
        # a product's name right before a random token
        ("nitro wHDos6x7Q1UbJDVBjgerfK", "wHDos6x7Q1UbJDVBjgerfK"),
        ("Mossgate: nNEvYwdpbi0RtYmDRFSFhWrkNgTn", "nNEvYwdpbi0RtYmDRFSFhWrkNgTn"),
        ('{"sablecast": "Tk82mQzLw0pX4vBn7RcY", "retries": 3}', "Tk82mQzLw0pX4vBn7RcY"),
        # an id printed beside its secret is half of the credential
        (
            "CINDRAL_APP_ID=dS6H3ZEZN8ikX5nxSLzC\nCINDRAL_APP_SECRET=f4aadbaf272f8477bf45c3fb7392c052",
            "dS6H3ZEZN8ikX5nxSLzC",
        ),
        (
            "client = PloveraClient(key_id='Qw8rT2yU4iO6pA1sD3fG', secret='Zx9cV7bN5mL3kJ1hG2fD')",
            "Qw8rT2yU4iO6pA1sD3fG",
        ),
    ],
)
def test_a_key_of_an_unnamed_vendor_is_found_by_its_words(text: str, secret: str) -> None:
    out, _ = redaction.redact(text)
    assert secret not in out, out


@pytest.mark.parametrize(
    "text",
    [
        "3f2a1b4c5d6e4f708a9b0c1d2e3f4a5b6c7d8e9f is the commit that rotated the api key",
        "api key rotation: see commit 3f2a1b4c5d6e4f708a9b0c1d2e3f4a5b6c7d8e9f",
        "merged 3f2a1b4c5d6e4f708a9b0c1d2e3f4a5b6c7d8e9f into main",
        "nitro 4f91a6529ac3aa63c2d961b50816ed57",  # hex after a name: a digest as often as a key
        "returned V1StGXR8_Z5jdHi6B-myT7 for the new row",
        "user V1StGXR8_Z5jdHi6B-myT7 signed up",
        '{"id": "V1StGXR8_Z5jdHi6B-myT7", "name": "row"}',
        "deploy ran on runner ubuntu-22.04-x86_64-large",
        "return pygit2.LIBGIT2_VERSION",
        "PasswordAuthentication no\\nKbdInteractiveAuthentication no",
        "QUILL_CLIENT_ID=dS6H3ZEZN8ikX5nxSLzC",  # an id alone, no secret beside it
        "nmcli con modify home 802-11-wireless-security.key-mgmt wpa-psk",
        r"(~/\.|\$HOME/\.|/etc/(?:passwd|shadow)|\.aws\b|\.ssh\b|id_rsa|\.env\b|\.netrc|",
        "# thread changes (the last pass's fingerprints are replaced whole, never edited):",
    ],
)
def test_ids_names_and_code_beside_such_words_stay(text: str) -> None:
    assert redaction.redact(text)[0] == text
