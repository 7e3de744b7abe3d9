"""Postman's collection access key ``PMAT-`` + 26 Crockford base32 (:mod:`.vendorprefix`, round 17).

Found on a tuning source (Veles' detector tests): a bare ``PMAT-01K4…`` was left, while Postman's API key ``PMAK-``
was read. A ticket or a code name starting ``PMAT-`` is not the key's shape and stays.
"""

from __future__ import annotations

import pytest

from memrepo.engine.redaction import redact

KEY = "PMAT-01K4A58P2HS2" + "Q43TXHSXFRDBZX"

LOOK_ALIKES = [
    "Extracted from gguf_monolith.rs (PMAT-802)",
    "Added by PMAT-125 (expand-cookbooks followup).",
    "see ticket PMAT-1234 and PMAT-1235",
    f"{KEY[:-1]} is one letter short of a key",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_pmat_look_alike_is_left(text: str) -> None:
    assert redact(text)[0] == text


@pytest.mark.parametrize(
    "text", [KEY, f"{KEY} {KEY}", f"the collection's key is {KEY}.", f"postman: {KEY}", f"- `{KEY}` (read-only)"]
)
def test_postman_collection_access_key_is_redacted(text: str) -> None:
    out = redact(text)[0]
    assert KEY not in out
    assert "[REDACTED:" in out
