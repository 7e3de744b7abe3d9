"""A credential's place written as a slot is no credential, by the slot's syntax class (issue 32, round 21).

Each class of ``engine/redaction/slotsyntax.py`` in a URL's password, where printf's ``%s`` and a brace field
``{}`` were redacted as ``url-password``; and the written-out passwords that look a little like a slot, which still go.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

SLOTS_BY_CLASS = {
    "printf": ["%s", "%v", "%d", "%+v", "%-12s", "%1$s", "%[2]s", "%q"],
    "python %": ["%(password)s", "%(db.pass)r"],
    "brace field": ["{}", "{0}", "{1}", "{password}", "{cfg.password}", "{Password}", "{0,-8}", "{pw!r}", "{0:>8}"],
    "shell": ["$PASS", "${PASS}", "$(cat /run/pw)", "%PASSWORD%", "$env:DB_PASS", "$1"],
    "template": ["{{ db_pass }}", "{{.Password}}", "<%= pw %>", "#{password}", "#{DB_PASS}#", "((db_pass))"],
    "substitution": ["@DB_PASS@", "__DB_PASS__", "[% pw %]", "%env(DB_PASS)%"],
    "bind": [":password", ":new_pw"],
    "stand-in": ["<password>", "[YOUR-PASSWORD]", "[password]", "***"],
}
WRITTEN_OUT = ["hunter2", "Tr0ub4dor3x", "%sdf8Kq", "s3cr3tpw{", "%21%40%23", "%2F%2F", "{Tr0ub4dor3x}", "password123"]


@pytest.mark.parametrize("slot", [s for group in SLOTS_BY_CLASS.values() for s in group])
def test_a_slot_in_a_urls_password_place_is_kept(slot: str) -> None:
    text = f'dsn = "postgres://app:{slot}@db.internal:5432/app"'
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize("value", WRITTEN_OUT)
def test_a_written_out_password_in_a_url_still_goes(value: str) -> None:
    text = f"postgres://app:{value}@db.internal:5432/app"
    assert value not in redaction.redact(text)[0]


def test_format_calls_of_each_language_keep_their_url() -> None:
    """The calls the fields come in: Go, Python, .NET, Java, shell (each had its password field redacted)."""
    texts = [
        'dsn := fmt.Sprintf("postgres://%s:%s@%s/%s", user, pass, host, db)',
        'url = "https://{}:{}@host".format(u, p)',
        'url = "amqp://{0}:{1}@mq:5672/".format(u, p)',
        'var url = string.Format("ftp://{0}:{1}@files", user, pw);',
        'var url = $"ftp://{user}:{password}@files";',
        'String url = String.format("jdbc:postgresql://%s:%s@%s/db", u, p, h);',
        'printf \'https://%s:%s@host/\' "$u" "$p"',
        'url = "redis://:%v@%s:%d/0"',
    ]
    for text in texts:
        assert redaction.redact(text)[0] == text, text


def test_a_word_in_the_password_slot_is_still_a_password() -> None:
    """``postgres://app:secret@db`` is how a development database's real password is often written: a word in a URL's
    password slot is redacted; a slot's syntax (``%s``, ``{}``, ``${PASS}``) and a manual's ``YOUR_PASSWORD`` are kept."""
    for word in ("password", "secret", "pass", "password123"):
        out = redaction.redact(f"postgres://user:{word}@localhost/db")[0]
        assert f":{word}@" not in out, word


def test_a_template_the_label_rules_value_cut_at_its_bracket_is_kept() -> None:
    """``{{hunter2}}`` after a label was read to its first ``}`` and redacted, leaving ``}}`` behind."""
    for text in ("password: {{db_password}}", "token: {api_token}", "token: %(tok)s"):
        assert redaction.redact(text)[0] == text, text


def test_slots_only_needs_the_whole_value() -> None:
    from memrepo.engine.redaction import slotsyntax

    assert slotsyntax.slots_only("%s") and slotsyntax.slots_only("{0}{1}")
    assert not slotsyntax.slots_only("x%s") and not slotsyntax.slots_only("%2F%2F")


def test_a_slot_in_a_csv_password_column_is_kept() -> None:
    """A password column takes any value but a placeholder: a format field is one; a written-out password is not."""
    text = "user,password\nbob,%s\nalice,{0}\njoe,Xk9#mQ2v"
    out = redaction.redact(text)[0]
    assert "bob,%s" in out and "alice,{0}" in out and "Xk9#mQ2v" not in out
