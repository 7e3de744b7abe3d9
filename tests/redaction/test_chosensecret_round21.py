"""A word under a label is a secret when a person picks what that label holds, by the label's class (round 21).

A password and a shared secret (an app's own ``secret``, ``JWT_SECRET``, ``session_secret``) are typed by a
person and are often words; a client's or an app's secret, a token, an API key are issued by a vendor as random
strings, so a plain word there is a placeholder or a name. Both ways are tested, in config and code syntax.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

CHOSEN = [
    "password: {v}",
    "secret: {v}",
    "SECRET={v}",
    "jwt_secret: {v}",
    "JWT_SECRET={v}",
    'sessionSecret: "{v}"',
    'var secret = "{v}";',
    "<secret>{v}</secret>",
    "shared_secret = '{v}'",
]
ISSUED = [
    "client_secret: {v}",
    "CLIENT_SECRET={v}",
    'app_secret = "{v}"',
    "api_key: {v}",
    "token: {v}",
    "<client_secret>{v}</client_secret>",
    "from_secret: {v}",
]


@pytest.mark.parametrize("form", CHOSEN)
@pytest.mark.parametrize("word", ["hunter", "sunflower", "thisisalsonottobetold"])
def test_a_word_under_a_label_a_person_fills_is_redacted(form: str, word: str) -> None:
    assert word not in redaction.redact(form.format(v=word))[0]


@pytest.mark.parametrize("form", ISSUED)
def test_a_word_under_a_label_a_vendor_fills_is_kept(form: str) -> None:
    text = form.format(v="sunflower")
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    "value", ["mysecret", "your-secret-here", "hardcodedsecret", "db-credentials", "required", "true", "${JWT_SECRET}"]
)
def test_a_stand_in_or_a_stored_secrets_name_under_secret_is_kept(value: str) -> None:
    """A value naming the slot, the name of a stored secret (words joined by ``-``), a word about it, a variable."""
    for form in ("secret: {v}", 'const secret = "{v}";'):
        text = form.format(v=value)
        assert redaction.redact(text)[0] == text
