"""A password that starts with ``@`` or ``#`` in a slot naming a password (:mod:`.sigilpasswords`, issue 32 round 23).

Our own phrasings, never a source's lines.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction.sigilpasswords import sigil_password


def test_a_cloudformation_default_led_by_a_sigil_is_redacted_with_a_description_between() -> None:
    text = "Parameters:\n  ReplicaPassword:\n    Description: 'replica login'\n    Type: String\n    Default: \"#wq4Zl9!vR\"\n"
    out, types = redaction.redact(text)
    assert "wq4Zl9" not in out
    assert "password" in types


def test_a_json_template_default_led_by_an_at_sign_is_redacted() -> None:
    text = '"ReplicaPassword": {\n  "Description": "login",\n  "Type": "String",\n  "Default": "@wq4Zl9!vR"\n}'
    assert "wq4Zl9" not in redaction.redact(text)[0]


def test_a_password_element_led_by_an_at_sign_is_redacted() -> None:
    assert "wq4Zl9" not in redaction.redact("<smtp.password>@wq4Zl9!vR</smtp.password>")[0]


@pytest.mark.parametrize(
    "text",
    [
        "<password>@build.password@</password>",  # a build's filter token
        "<password>#{mailer_pw}</password>",  # a template
        "<password>@Microsoft.KeyVault(SecretUri=https://v.example/s/x)</password>",  # a reference
        "<password>@mailerpass</password>",  # a variable: no digit
        "Parameters:\n  ReplicaPassword:\n    Type: String\n    Default: '@ssm:/replica/pw2'\n",  # a parameter path
    ],
)
def test_references_led_by_a_sigil_are_kept(text: str) -> None:
    assert redaction.redact(text)[0] == text


def test_the_value_test_alone() -> None:
    assert sigil_password("@wq4Zl9!vR")
    assert not sigil_password("@wq4Zl9!vR@")
    assert not sigil_password("wq4Zl9!vR")  # no sigil: the slot readers' own case
    assert not sigil_password("#a1")
