"""A PIN or code ending its sentence or clause is redacted like one ending the line (issue 32, breaker28 B28-9).

"My card PIN is 7731." was kept whole: the rules' look-ahead refused any "." or "," after the digits (there to
keep "1234.5" and "2024.12.01"), so a PIN said with its full stop or a comma after it stayed in memory and in every
context block. A "." or "," ending a clause is not part of a number: only one followed by a letter or digit is.
Values here are fresh (docs/architecture.md §3).
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("My card PIN is 7731.", "7731"),
        ("PIN: 5286.", "5286"),
        ("Remember that my phone unlock PIN is 918273, don't tell anyone.", "918273"),
        ("The code for the office door is 4821.", "4821"),
        ("Der Türcode ist 61842.", "61842"),
        ("SIM PUK: 90412, the PIN is on the card.", "90412"),
        ("NIP: 3917.", "3917"),
        ("暗証番号 4827。", "4827"),
    ],
)
def test_a_pin_before_a_full_stop_or_comma_is_redacted(text: str, secret: str) -> None:
    out = redaction.redact(text)[0]
    assert secret not in out, out
    assert out.endswith(text[text.index(secret) + len(secret) :]), out  # the rest of the sentence stays


@pytest.mark.parametrize(
    "text",
    [
        "The PIN is 1234.5678 long in the spec",
        "pin: 2024.12.01",
        "PIN 1234,5",
        "Error code: 1234.",
        "the pin is 2024-05",
    ],
)
def test_a_number_going_on_after_the_dot_stays(text: str) -> None:
    assert redaction.redact(text)[0] == text
