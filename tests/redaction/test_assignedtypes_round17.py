"""Rules.py's ``name: value`` reading types what it reads after no name apart from the run after a name (round 17).

``assigned-token`` says only "a token-like run after whatever name"; the same reading also takes a capability URL's
path token, a capability host, a key after Kubernetes' ``k8s:enc:`` prefix and a code under a pin's name. Those say
what the value is, so they carry their own types: only a bare ``assigned-token`` is a shape guess
(:mod:`engine.redaction.shapelabels`).
"""

from __future__ import annotations

import pytest

from memrepo.engine.redaction import rules

TOKEN = "Zk9xQ2mP7vL4nR8tY3wBq1Xc7Hf2"


def _types(text: str, value: str) -> set[str]:
    start = text.index(value)
    return {slug for s, e, slug in rules.spans(text) if s <= start < e}


@pytest.mark.parametrize(
    ("text", "value", "slug"),
    [
        (f"capability url https://files.example.net:8080/s/{TOKEN}/download", TOKEN, "url-token"),
        (f"curl https://api.acme.io:8443/v1/{TOKEN}/status", TOKEN, "url-token"),
        (f"see https://example.net/a+b/{TOKEN}", TOKEN, "url-token"),
        ("REQUESTBIN_ENDPOINT=en1a2b3c4d5e6f7g8.x.pipedream.net", "en1a2b3c4d5e6f7g8", "capability-host"),
        ("k8s:enc:aescbc:v1:YtDtXbiufMdI8X2Y4rUmer/BH3M1XS0DRdJuPnBIKpi=", "YtDtXbiufMdI8X2Y4rUmer", "encryption-key"),
        ("pin_code: TigerDBAdmin2024Secure", "TigerDBAdmin2024Secure", "password"),
        ("unlockCode = TigerDBAdmin2024Secure", "TigerDBAdmin2024Secure", "password"),
    ],
)
def test_what_the_name_reading_knows_has_its_own_type(text: str, value: str, slug: str) -> None:
    found = _types(text, value)
    assert slug in found and "assigned-token" not in found, found


@pytest.mark.parametrize(
    "text",
    [
        "machine: darrenburns2022mbpXq9",
        "prefix: 123456789.dkr.ecr.eu-west-1.amazonaws.com",
        "error_code: TigerDBAdmin2024Secure",
    ],
)
def test_a_run_after_a_name_naming_nothing_stays_assigned_token(text: str) -> None:
    value = text.split(maxsplit=1)[1].lstrip("= ")
    assert "assigned-token" in _types(text, value)
