"""The block must not hide a true line (breaker19 on ctx11's rules; engine/read/samefact.py, samevalue.py,
changeframe.py; docs/architecture.md §4).

ctx11 widened three rules that read two different facts as one changed: one leading verb read as one rule
("Use ruff for formatting from now on" hid "Use ruff for linting"), the role rule read a possession or a count as a
role ("Bob now owns a Tesla" hid "Alice owns a Tesla"), and "I've moved to X" read any capitalised X as a new home
("I've moved to Neovim" hid "I live in Lyon"). And two stale lines came back: a "switched from" read as a passing
one ("... once the bill got too high"), and a rule's person read as a part of its subject ("Check with Bob before
merging"). Each case is a file as ``memrepo remember`` writes it (one ``added:`` day, the older line first, a line
between them); every "keeps" case below was hidden on integration 4a43826, every "hides" case kept.
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
        ("Use ruff for linting", "Use ruff for formatting from now on"),  # B19-1: one tool, two jobs
        ("Ask before deleting files", "Ask before running migrations going forward"),  # B19-1
        ("Ask before deleting files", "Ask before pushing now"),
        ("Confirm before deleting branches", "Confirm before force-pushing from now on"),
        ("Always write tests first", "Write docs first from now on"),  # B19-12: two objects
    ],
)
def test_one_verb_two_purposes_keeps_both(old: str, new: str) -> None:
    """Two rules that share a verb but name two purposes, conditions or objects are two rules."""
    assert not hidden(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Use black for formatting", "Use ruff for formatting from now on"),
        ("Always use spaces for indentation", "Use tabs for indentation from now on"),
        ("Run tests with pytest", "Run tests with vitest going forward"),
        ("Reply in French", "Reply in English from now on"),
        ("Run `make lint` before pushing", "Always run make lint before you push changes"),
    ],
)
def test_one_rule_with_its_value_swapped_still_hides(old: str, new: str) -> None:
    """The same purpose said again with another tool or value is the same rule changed (controls)."""
    assert hidden(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Alice owns a Tesla", "Bob now owns a Tesla"),  # B19-2
        ("Alice manages two engineers", "Bob now manages two engineers"),
        ("Alice owns two cats", "Bob now owns two cats"),
        ("Alice owns 10% of the company", "Bob now owns 10% of the company"),
        ("Alice manages well under pressure", "Bob now manages well under pressure"),
    ],
)
def test_role_rule_skips_what_many_hold(old: str, new: str) -> None:
    """A thing many people hold (an indefinite, a count, a share) or no object at all passes to nobody."""
    assert not hidden(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Alice owns billing", "Bob now owns billing"),
        ("Alice heads the design team", "Bob now heads the design team"),
        ("Sarah manages our AWS account", "Tom now manages our AWS account"),
    ],
)
def test_single_holder_role_still_passes(old: str, new: str) -> None:
    """A role one person holds at a time still passes to the newer holder (controls)."""
    assert hidden(old, new)


@pytest.mark.parametrize(
    "new",
    [
        "I've moved to Python 3.13",  # B19-3: a version
        "I've moved to GitHub",  # a product name
        "I've moved to Linear for tickets",  # a scope
        "I've moved to Paris for the summer",  # a stay
        "I've moved to Paris temporarily",
        "I've moved to Spotify from Apple Music",
    ],
)
def test_move_that_is_no_new_home_keeps_where_i_live(new: str) -> None:
    """A move to a tool, a version, or for a while is no new home: "I live in Lyon" stays."""
    assert not hidden("I live in Lyon", new)


@pytest.mark.parametrize(
    "new", ["I've moved to Paris", "I've relocated to Munich", "I moved to Paris last month", "I've moved to Berlin"]
)
def test_move_of_home_still_replaces_it(new: str) -> None:
    """A move to a place, alone or with when it happened, still replaces where the user lives (controls)."""
    assert hidden("I live in Lyon", new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("We use Heroku", "We moved from Heroku to Fly once the bill got too high"),  # B19-8
        ("I use Vim", "I've never looked back since switching from Vim to Helix"),
        ("Check with Alice before merging", "Check with Bob before merging from now on"),  # B19-13
    ],
)
def test_standing_change_hides_the_old_line(old: str, new: str) -> None:
    """ "once" as a conjunction and "never looked back" say a switch for good; the person a rule checks with is its
    value, not a part of its subject."""
    assert hidden(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [("I use Vim", "I nearly switched from Vim to Emacs"), ("I use Vim", "I once switched from Vim to Emacs")],
)
def test_passing_switch_still_keeps_the_old_line(old: str, new: str) -> None:
    """A switch that did not happen, or happened once, still replaces nothing (controls)."""
    assert not hidden(old, new)
