"""A pasted secret never takes the next line's first word with it (breaker20 B20-1, :mod:`.wrapjoin`).

The wrapped-token view joined any 8+ letter word at the start of the next line
to a token ending the line before, so "Remember" in "Remember that X." was
redacted with the key and the line was lost. The look-alikes (prose after a
secret) come first: each must keep every word; the wrapped tokens after them
must still be found whole.
"""

from __future__ import annotations

import pytest

from memrepo.engine.redaction import redact

# Fake values in realistic shapes, built from pieces so no real key is pasted here.
OPENAI = "sk-proj-" + "Xq93LmN0pVb27RtYz8Kf" + "W4sHjD1cUe6AgQiP5oBx"
GH = "ghp_" + "Vx9qLm2Tz8RpKa7Wc3Yh" + "5NbQwErTyUiOpAs1"
AWS = "AKIA" + "QX7RZ2LMVB5TN4KW"
PW = "Plum!Orbit" + "_2291"

PROSE_AFTER = [
    (f"export OPENAI_API_KEY={OPENAI}", "Remember that the payments webhook lives at /hooks/stripe."),
    (f"export GITHUB_TOKEN={GH}", "Actually the deploy is on Friday."),
    (f"export DB_PASSWORD={PW}", "Remember that X."),
    (f"Token rotated: {GH}", "Everything else stays the same."),
    (AWS, "Migrations run nightly."),
    (f"OPENAI_API_KEY={OPENAI}", "Important: rotate it monthly."),
    (f"GITHUB_TOKEN={GH}", "actually we deploy from main"),
    (f"> token {GH}", "> Postgres upgrades happen on Sundays."),
]


@pytest.mark.parametrize(("secret_line", "prose"), PROSE_AFTER)
def test_the_next_line_of_prose_keeps_every_word(secret_line: str, prose: str) -> None:
    out, types = redact(f"Here is what I meant to send:\n{secret_line}\n{prose}")
    lines = out.split("\n")
    assert types and lines[2] == prose, out
    assert "[REDACTED:" in lines[1]


def test_prose_after_a_secret_is_kept_whatever_its_first_word() -> None:
    for word in ("Remember", "Actually", "Postgres", "Important", "Migrations", "Everything", "Deployment"):
        out, _ = redact(f"the key is {GH}\n{word} goes here.")
        assert out.endswith(f"\n{word} goes here."), (word, out)


@pytest.mark.parametrize("cut", [12, 22, 30])
def test_a_wrapped_token_is_still_found_whole(cut: int) -> None:
    out, types = redact(f"token {GH[:cut]}\n{GH[cut:]} for the bot")
    assert GH[:cut] not in out and GH[cut:] not in out and types
    assert out.endswith(" for the bot")


def test_a_wrapped_key_whose_tail_ends_its_line_is_found_whole() -> None:
    tail = "abcdefghij"  # letters only, lower case, nothing after it on its line: a tail, not prose
    token = "ghp_" + "Vx9qLm2Tz8RpKa7Wc3Yh" + "5N" + tail
    out, types = redact(f"token {token[:26]}\n{tail}")
    assert token[:26] not in out and tail not in out and types
