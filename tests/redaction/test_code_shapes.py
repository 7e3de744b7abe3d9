"""Passwords and keys assigned to or compared with a secret name in code (issue 32, round 6).

The shapes are those of the languages detect-secrets' keyword plugin reads
(C, C++, Objective-C, Go, Java/Kotlin, JavaScript, PHP, Perl, Python, YAML, env
files); the values are our own. Each secret below leaked before
:mod:`memrepo.engine.redaction.assignments` (``test_each_secret_leaked_without_the_rule``
turns its spans off and checks that), and each look-alike pins what the rule
must keep: references, templates, calls, paths, words about a password, sentences.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import assignments

PW = "sunshine7"
"""A weak password: a word and a digit."""
SYMBOLS = "Q;.:-¨@*¿?!"
"""A value of symbols with one letter."""
BRACES = "k{{r}z)q${w]ab(cd[ef>-_$#zz}}"
"""A value whose brackets do not pair, as no code expression's would."""

SECRETS = [
    # a quoted value compared with a secret name, either side, in C-like languages
    (f'if (api_key == "{BRACES}") {{', BRACES),
    (f'if (db_pass !== "{BRACES}") {{', BRACES),
    (f'if ("{BRACES}" === private_key) {{', BRACES),
    (f'if ("{PW}" != my_password_sec) {{', PW),
    # a quoted value in a declaration: C arrays, Objective-C, C++ constructors and assign
    (f'char db_secret[32] = "{BRACES}";', BRACES),
    (f'secrete[] = "{BRACES}";', BRACES),
    (f'password = @"{BRACES}";', BRACES),
    (f'std::string secret("{BRACES}");', BRACES),
    (f'secret.assign("{BRACES}", 29);', BRACES),
    # commas and colons inside quotes belong to the value
    (f'secret = "{SYMBOLS}"', SYMBOLS),
    (f"db_pass: '{SYMBOLS}'", SYMBOLS),
    # typed declarations: Go, Kotlin
    (f'var password string = "{SYMBOLS}"', SYMBOLS),
    ('val apiKey: String = "k{{r}z)q${w]ab"', "k{{r}z)q${w]ab"),
    # an unquoted value that no code expression could be, after =, : or :=
    (f"apikey = {BRACES}", BRACES),
    (f'private_key: {BRACES}"', BRACES),
    (f"db_pass_secure := {BRACES}", BRACES),
    (f"secrete := {SYMBOLS}", SYMBOLS),
]

LOOK_ALIKES = [
    'api_key = os.environ["API_KEY"]',
    "secret_key = settings.SECRET_KEY",
    'const apiKey = process.env.API_KEY || "";',
    "$variable_password8 = aFunctionCall();",
    'db_pass = "${DB_PASS}"',
    'password: "{{ vault_db_password }}"',
    'api_key: "YOUR_API_KEY"',
    'if (typeof password === "string") {',
    'if password_hash == "abc":',
    'private_key = "~/.ssh/id_rsa"',
    "private_key: ~/.ssh/id_ed25519",
    "secret: [a, b]",
    'if (secret == "not set yet") {',
    'if token == "else":',
    "password = ,.:-¨@*¿?!",
    "secret: ------------",
    'if (secret != "<<<>>>!!") {',
    'api_key = "@@API_KEY@@"',
    "password: \"#{ENV['PW']}\"",
]


LEFT_TO_OLDER_RULES = [
    'password = "__PASSWORD__"',
    'variable_password8 = "obj.aFunctionCall()";',
    "  Symfony_DB_Key: '%env(DB_SECRET_VALUE)%'",
]
"""Look-alikes from whispers' compliant cases this rule keeps; an older rule still redacts them."""


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_secret_in_a_code_shape_is_redacted(text: str, secret: str) -> None:
    out = redaction.redact(text)[0]
    assert secret not in out
    assert out != text


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_a_reference_or_expression_is_kept(text: str) -> None:
    assert list(assignments.spans(text)) == []
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize("text", LEFT_TO_OLDER_RULES)
def test_this_rule_takes_no_call_or_template(text: str) -> None:
    assert list(assignments.spans(text)) == []


def test_each_secret_leaked_without_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(assignments, "spans", lambda text: iter(()))
    leaked = [text for text, secret in SECRETS if secret in redaction.redact(text)[0]]
    assert leaked == [text for text, _ in SECRETS]


def test_the_span_is_the_value_without_its_quotes() -> None:
    text = f'if (api_key == "{BRACES}") {{'
    start = text.index(BRACES)
    assert [(s, e) for s, e, _ in assignments.spans(text)] == [(start, start + len(BRACES))]


def test_spans_in_a_file_are_offsets_in_the_whole_text() -> None:
    text = f'int main() {{\r\n  if ("{BRACES}" != secret) {{\r\n  db_pass := {SYMBOLS}\r\n'
    found = [text[s:e] for s, e, _ in assignments.spans(text)]
    assert found == [BRACES, SYMBOLS]
