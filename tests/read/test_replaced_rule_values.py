"""A newer line replaces an older one by what its value is, not by the words it shares (engine/read/samefact.py,
samevalue.py, changeframe.py; docs/architecture.md §4).

breaker14 B14-6: a newer pinned "Use tabs for indentation from now on" left "Always use spaces for indentation"
current (the words after the rule's verb were read as two subjects; "from now on" stayed in the sentence; "I write
tests with Vitest now" was taken for hearsay by "write"). ctx10's note: "Deploys to prod now need two approvals"
hid a general line about deploys. breaker15: a past or scoped "switched from" hid the current line (B15-17,
B15-42), "I've moved to Paris" and "The site ..." replaced nothing (B15-30), "Log errors to Sentry now" hid "Log
errors in JSON" (B15-43). ctx10's cost: "Bob now owns billing" no longer hid "Alice owns billing".
Each case is a file as ``memrepo remember`` writes it (one ``added:`` day, the older line first, a line between).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.format.entries import Entry
from memrepo.engine.format.hearsay import hearsay
from memrepo.engine.models import Candidate
from memrepo.engine.read.contextselect import candidates, replaced
from memrepo.engine.repo.store import MemoryStore

DAY = {"by": "user", "added": "2026-12-05"}
FILLER = "Prefers tea over coffee"


def hides(old: str, new: str) -> bool:
    """Whether ``new`` hides ``old`` in a file of the two with an unrelated line between."""
    rows = [(n, Entry("", "-", text, dict(DAY))) for n, text in enumerate((old, FILLER, new), start=1)]
    return replaced(candidates(rows)).get(1) == 3


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Always use spaces for indentation", "Use tabs for indentation from now on"),
        ("I use spaces for indentation", "From now on I use tabs for indentation"),
        ("I write tests with Jest", "I write tests with Vitest now"),
        ("Format Python code with Black", "Format Python code with Ruff from now on"),
        ("Always write commit messages in English", "Write commit messages in German going forward"),
    ],
)
def test_a_rule_said_again_with_another_value_from_now_on_replaces_it(old: str, new: str) -> None:
    assert hides(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Always use spaces for indentation", "Use tabs for Makefiles from now on"),  # another scope
        ("Use spaces for indentation in Python", "Use tabs for indentation in Go from now on"),
        ("I write tests with Jest", "My team writes tests with Vitest now"),  # another owner
        ("Log errors in JSON", "Log errors to Sentry now"),  # B15-43: another attribute (in / to)
    ],
)
def test_a_rule_of_another_scope_owner_or_attribute_replaces_nothing(old: str, new: str) -> None:
    assert not hides(old, new)


def test_write_is_hearsay_only_when_it_reports_words() -> None:
    assert not hearsay("I write tests with Vitest now")
    assert not hearsay("Write commit messages in German")
    assert hearsay("Claude wrote: the deploy window is Friday")
    assert hearsay("The docs write that the window is Friday")


@pytest.mark.parametrize(
    ("old", "new", "hidden"),
    [
        ("Deploys need one approval", "Deploys to prod now need two approvals", False),
        ("PRs need one review", "PRs to main now need two reviews", False),
        ("Deploys to staging need one approval", "Deploys to prod now need two approvals", False),
        ("Deploys to prod need one approval", "Deploys to prod now need two approvals", True),
    ],
)
def test_a_narrower_subject_keeps_the_general_line(old: str, new: str, hidden: bool) -> None:
    assert hides(old, new) is hidden


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I use Vim", "I switched from Vim to Emacs for a week in 2019"),  # B15-17
        ("I live in Lyon", "I moved from Lyon to Paris in 2015"),
        ("We use Stripe for payments", "We switched from Stripe to Adyen for refunds"),  # a scope of its own
        ("I use Vim", "I nearly switched from Vim to Emacs"),  # B15-42: it did not happen
    ],
)
def test_a_past_scoped_or_missed_switch_keeps_the_current_line(old: str, new: str) -> None:
    assert not hides(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I use Vim", "I switched from Vim to Helix"),
        ("We use Stripe for payments", "We switched from Stripe to Adyen"),
        ("I live in Lyon", "I've moved to Paris"),  # B15-30
        ("I live in Lyon", "I have moved to Paris"),
        ("The website runs on Next.js 13", "The site now runs on Next.js 14"),  # one noun, named short
        ("Alice owns billing", "Bob now owns billing"),  # one role, another holder
        ("Priya leads the mobile team", "Marcus now leads the mobile team"),
    ],
)
def test_a_switch_a_move_and_a_role_passed_on_replace(old: str, new: str) -> None:
    assert hides(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I live in Lyon", "We've moved to Linear"),  # not where the user lives
        ("Bob is on the payments team", "Alice is now on the payments team"),  # a team holds many
        ("Bob is on the payments team", "Alice is not on the payments team anymore"),
    ],
)
def test_a_move_of_another_thing_or_a_shared_membership_replaces_nothing(old: str, new: str) -> None:
    assert not hides(old, new)


def test_a_newer_pin_from_now_on_hides_the_older_pin_in_the_block(tmp_path: Path) -> None:
    """B14-6 end to end: two pins in MEMORY.md, the block shows the newer one only."""
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for text in ("Always use spaces for indentation", "Use tabs for indentation from now on"):
        assert store.remember(Candidate(text=text, pin=True, by="user")).commit
    block = store.context().text
    assert "Use tabs for indentation from now on" in block
    assert "Always use spaces for indentation" not in block
