"""A literal compared first with a secret-named variable (:mod:`.comparisons`, round 17).

Found on a tuning source (Bearer's hardcoded-secret tests): ``if ("xFb8…".equals(password))`` was left, while
``password == "…"`` (the name first) was read. The look-alikes come first: comparisons with a name that is not a
secret's, with a placeholder or a word about passwords, must come out unchanged.
"""

from __future__ import annotations

import pytest

from memrepo.engine.redaction import redact

VALUE = "Zk29fjQ0" + "aPx81mNq"

LOOK_ALIKES = [
    f'if ("{VALUE}" == userId) {{',
    f'assertEquals("{VALUE}", user.getPasswordHash());',
    'if ("password".equals(password)) {',
    'if ("" == password) {',
    'if ("Bearer" == authScheme) {',
    'if ("bearer" == token_type) {',
    'if ("refresh_token" == grant_type) {',
    'assertEquals("<password>", password);',
    'if ("${DB_PASS}" == password) {',
    'if ("hardcodedsecret".equals(secret)) {',
]

SECRETS = [
    f'if ("{VALUE}".equals(password)) {{',
    f'if ("{VALUE}" == password) {{',
    f'"{VALUE}".equalsIgnoreCase(user.getPassword())',
    f'assertEquals("{VALUE}", password);',
    f'hmac.compare_digest("{VALUE}", token)',
    f'Objects.equals("{VALUE}", apiKey)',
    f'String.Equals("{VALUE}", secret)',
    f'if "{VALUE}" == os.environ["API_TOKEN"]:',
    f'"{VALUE}" === req.headers.token',
    f'expect("{VALUE}").toEqual(session.token)',
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_comparison_without_a_secret_is_left(text: str) -> None:
    assert redact(text)[0] == text


@pytest.mark.parametrize("text", SECRETS)
def test_literal_compared_with_a_secret_name_is_redacted(text: str) -> None:
    out = redact(text)[0]
    assert VALUE not in out
    assert out.startswith(text[: text.index(VALUE)])  # only the literal went
    assert out.endswith(text[text.index(VALUE) + len(VALUE) :])
