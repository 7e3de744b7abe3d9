"""A second duty and a stand-in leave a person's role in the block (breaker22 B22-7; engine/read/samerule.py
other_duty, engine/read/samevalue.py adds; docs/architecture.md §4).

"Alice manages the hiring now" hid "Alice manages the budget" (one person holds two duties), and "Bob manages the
budget now while Alice is on leave" hid it too (a cover for a while: Alice's line is what holds after). Each case is
a file as ``memrepo remember`` writes it (one ``added:`` day, the older line first, a line between them); every
"keeps" case was hidden on integration 495d344 but two covers with no change word ("until Alice is back",
"temporarily"), kept as guards.
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.entries import Entry
from memrepo.engine.read.contextselect import candidates, replaced

DAY = {"by": "user", "added": "2026-12-05"}
FILLER = "Prefers tea over coffee"


def hidden(old: str, new: str) -> bool:
    """Whether ``new`` hides ``old`` in a file holding old, a filler line and new, in that order."""
    rows = [(n, Entry("", "-", text, dict(DAY))) for n, text in enumerate((old, FILLER, new), start=1)]
    return 1 in replaced(candidates(rows))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Alice manages the budget", "Alice manages the hiring now"),
        ("Alice manages the budget", "Alice now manages the hiring"),
        ("Alice leads the mobile team", "Alice now leads the web team"),
        ("Alice manages Bob", "Alice now manages Carol"),
    ],
)
def test_the_same_person_over_another_thing_is_a_second_duty(old: str, new: str) -> None:
    assert not hidden(old, new)


@pytest.mark.parametrize(
    "new",
    [
        "Bob manages the budget now while Alice is on leave",
        "Bob now manages the budget while Alice is on parental leave",
        "Bob manages the budget until Alice is back",
        "Bob now manages the budget, covering for Alice",
        "Bob manages the budget in Alice's absence",
        "Bob manages the budget temporarily",
    ],
)
def test_a_stand_in_for_a_while_keeps_the_holder(new: str) -> None:
    assert not hidden("Alice manages the budget", new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Alice manages the budget", "Bob manages the budget now"),  # the role passed on (B19-9)
        ("Alice owns billing", "Bob now owns billing"),
        ("Alice owns billing", "Alice now owns billing and invoicing"),  # the same duty, widened
    ],
)
def test_a_role_passed_on_or_widened_still_replaces(old: str, new: str) -> None:
    assert hidden(old, new)
