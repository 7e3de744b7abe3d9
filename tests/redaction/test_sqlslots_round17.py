"""Passwords in SQL's ``PASSWORD`` clause of a statement creating or altering a login (:mod:`.sqlslots`, round 17).

Found on a tuning source (GitHub's secret-scanning custom patterns): ``CREATE USER phony WITH PASSWORD =
'mynewcreds';`` was left, while MySQL's ``IDENTIFIED BY`` was read. The look-alikes come first: the same
statements holding no written-out password (``NULL``, a bind parameter, a placeholder word, prose) must come out
unchanged.
"""

from __future__ import annotations

import pytest

from memrepo.engine.redaction import redact

PW = "mynewcreds"
"""Lower-case letters only, as the source's sample: a plain ``password = 'mynewcreds'`` label alone is not read."""

LOOK_ALIKES = [
    "ALTER ROLE app WITH PASSWORD NULL;",
    "CREATE USER app WITH PASSWORD :pw;",
    "ALTER USER app WITH PASSWORD $1;",
    'cursor.execute("ALTER ROLE %s WITH PASSWORD %s", (role, pw))',
    "ALTER USER app WITH PASSWORD 'new_password';",
    "CREATE LOGIN app WITH PASSWORD = '<password>';",
    "Create the user first, then set a password 'later' in the console.",
    "SET PASSWORD FOR 'app'@'%' = :pw;",
    "ALTER USER app VALID UNTIL 'infinity';",
]

SECRETS = [
    f"CREATE USER phony WITH PASSWORD = '{PW}';",
    f"CREATE ROLE app LOGIN PASSWORD '{PW}';",
    f"ALTER USER bob WITH ENCRYPTED PASSWORD '{PW}' VALID UNTIL '2027-01-01';",
    f"CREATE LOGIN bob WITH PASSWORD = N'{PW}', CHECK_POLICY = OFF;",
    f"alter login sa with password = '{PW}';",
    f"SET PASSWORD FOR 'bob'@'localhost' = PASSWORD('{PW}');",
    f"SET PASSWORD = '{PW}';",
    f"psql -c \"CREATE ROLE app WITH LOGIN PASSWORD '{PW}'\"",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_statement_without_a_written_password_is_left(text: str) -> None:
    assert redact(text)[0] == text


@pytest.mark.parametrize("text", SECRETS)
def test_password_clause_literal_is_redacted(text: str) -> None:
    out = redact(text)[0]
    assert PW not in out
    assert "[REDACTED:password]" in out
    assert out.replace("[REDACTED:password]", PW) == text  # only the literal went
