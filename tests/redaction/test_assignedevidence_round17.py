"""A token-like run after a name naming nothing needs evidence, as a bare run does (issue 32, round 17).

Rules.py's ``name: value`` reading (``assigned-token``) reads the name only to find the value; what it knows more
of carries its own type (tests/redaction/test_assignedtypes_round17.py). So a span only it and the bare-run rule
found gets :func:`engine.redaction.evidence.has_evidence`'s test. Secrets whose own name says nothing stay redacted
by general evidence: a short head and a dot (``pk.<run>``), a capital head before hex mixing case, a block's key
naming a secret over its children, a secret another rule found on the line beside (a credential block).
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

WEBEX = "ajlksdjasda9090sadsa9dsad0saasdkl0asd90asdcasc90asdajij2n2njkjn3_asdf_qwer4567-qwer-vbnm-asdf-xcvbnmasdfgh"


@pytest.mark.parametrize(
    "text",
    [
        '"TERM": "rxvt-unicode-256color"',
        "prefix: 123456789.dkr.ecr.eu-west-1.amazonaws.com",
        "_SetConsoleTitle = windll.kernel32.SetConsoleTitleW",
        '"machine": "darrenburns-2022-mbp"',
        "// Output: 0000XSNJG0MQJHBF4QX1EFD6Y3",
        "version_scheme: semver-pep440-release-branch",
    ],
)
def test_a_run_after_a_name_naming_nothing_stays_verbatim(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("For Locationiq, remember: pk.a1b2c3d4e5f60718293a4b5c6d7e8f90", "a1b2c3d4e5f60718293a4b5c6d7e8f90"),
        ("token:\n  value: PMAT-01HQX2ABCDEF3GHJK4MNPQ5RS6TV # rotated", "01HQX2ABCDEF3GHJK4MNPQ5RS6TV"),
        ('"token": {\n  "value": "Xq9aZ3kLm2Pq7Rt5Vw8Yb1Nc",', "Xq9aZ3kLm2Pq7Rt5Vw8Yb1Nc"),
        ("here it is: SKa7CF7acdcaf92Be4CCC52F4a2923BBB3", "a7CF7acdcaf92Be4CCC52F4a2923BBB3"),
        (f"webex_bot_token = '{WEBEX}x'\nwebexbot = \"{WEBEX}\"", WEBEX),
    ],
)
def test_a_secret_after_a_name_naming_nothing_is_redacted_by_evidence(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]


def test_a_block_key_naming_nothing_is_no_evidence() -> None:
    text = '"build": {\n  "value": "Xq9aZ3kLm2Pq7Rt5Vw8Yb1Nc",'
    assert redaction.redact(text)[0] == text
