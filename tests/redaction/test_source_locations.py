"""A source location beside a secret word is code, not a credential (issue 32; breaker11 B11-1).

Coding agents remember where code lives: "the auth bug is fixed in src/login.py:14". The password and
labelled-secret rules took ``login.py:14`` for the value of an "auth" or "token" label, and the line lost its
reference at write time. :mod:`memrepo.engine.redaction.notevalues` keeps ``path/name.ext:<line>[:<col>]``
verbatim unless a credential's label stands right before it.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

KEPT = [
    ("see auth-4092 (notes/x.md:14)", "notes/x.md:14"),
    ("The auth bug is fixed in src/login.py:14", "src/login.py:14"),
    ("auth middleware lives in src/auth/session.py:88", "src/auth/session.py:88"),
    ("The auth flow calls oauth/callback.ts:42 first", "oauth/callback.ts:42"),
    ("The token refresh is in api/token.py:120", "api/token.py:120"),
    ("Session tokens are validated in middleware/session.go:210", "middleware/session.go:210"),
    ("Password reset email is sent from app/mailers/reset.rb:31:7", "app/mailers/reset.rb:31:7"),
]


@pytest.mark.parametrize(("text", "location"), KEPT)
def test_a_source_location_beside_a_secret_word_is_kept(text: str, location: str) -> None:
    out, found = redaction.redact(text)
    assert out == text, found
    assert location in out


UNDER_A_LABEL = [
    ("password: Dragon1.py:12", "Dragon1"),
    ("export PGPASSWORD=Autumn2024.sql:3", "Autumn2024"),
    ("Authorization: Bearer hunter2.md:1", "hunter2"),
    ("the wifi password is PurpleMonkey.txt:9", "PurpleMonkey"),
]


@pytest.mark.parametrize(("text", "value"), UNDER_A_LABEL)
def test_a_location_shape_right_after_a_label_is_still_redacted(text: str, value: str) -> None:
    out, _ = redaction.redact(text)
    assert value not in out
