"""A CloudFormation dynamic reference names where a secret is stored, never the value (issue 32, round 17)."""

from __future__ import annotations

import pytest

from memrepo.engine import redaction


@pytest.mark.parametrize(
    "text",
    [
        '        RefreshToken: "{{resolve:secretsmanager:Atzr|IQEBLzAtAhRPpMJxdwVz2Nn6f2y-tpJX2DeX}}"',
        '          "RefreshToken": "{{resolve:ssm-secure:Atzr|IQEBLzAtAhRPpMJxdwVz2Nn6f2y-tpJX2DeX}}"',
        "      AuthToken: '{{resolve:ssm-secure:/prod/db/Tr0ub4dorXq9aZ3kLm2Pq7Rt5Vw8:3}}'",
    ],
)
def test_a_dynamic_reference_stays_verbatim(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ('        RefreshToken: "Atzr|IQEBLzAtAhRPpMJxdwVz2Nn6f2y-tpJX2DeX"', "IQEBLzAtAhRPpMJxdwVz2Nn6f2y"),
        ('      Token: "{{resolve:secretsmanager:db}} Atzr|IQEBLzAtAhRPpMJxdwVz2Nn6f2y-tpJX2DeX"', "IQEBLzAtAhRPpMJx"),
    ],
)
def test_a_value_not_in_a_reference_is_still_redacted(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]
