"""A move to a tool is no new home, and two times of the week are two facts (breaker19 B19-3's residue, B19-15;
engine/read/changeframe.py, docs/architecture.md §4).

"I've moved to Neovim" hid "I live in Lyon": a capitalised word after "moved to" read as a place. "I now live in
Annecy on weekends" hid "I live in Lyon during the week", "I now work from the office on Mondays" hid "I work from
home on Fridays": both true at once. Each case is a file as ``memrepo remember`` writes it (one ``added:`` day, the
older line first, a line between them); every "keeps" case but the first of the times was hidden on integration
494af6a (that one only through a pin, kept here as a guard).
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
    "new",
    [
        "I've moved to Neovim",
        "I've moved to Zsh",
        "I've moved to Mac",
        "I've moved to Team Platform",
        "I've moved to Firefox",
    ],
)
def test_a_move_to_a_tool_or_a_team_keeps_where_i_live(new: str) -> None:
    assert not hidden("I live in Lyon", new)


@pytest.mark.parametrize(
    "new", ["I've moved to Nice", "I've moved to Bath", "I've moved to New York", "I moved to Reading last month"]
)
def test_a_move_to_a_place_named_like_a_word_still_replaces_it(new: str) -> None:
    """Controls: a town named like a word is a place on GeoNames' list (engine/read/places.txt), so it still moves
    the user."""
    assert hidden("I live in Lyon", new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I live in Lyon during the week", "I now live in Annecy on weekends"),
        ("I work from home on Fridays", "I now work from the office on Mondays"),
        ("I live in Lyon", "I now live in Annecy on weekends"),  # a weekend place is no new home
    ],
)
def test_two_times_of_the_week_keep_both(old: str, new: str) -> None:
    assert not hidden(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I work from home on Fridays", "I now work from the office on Fridays"),  # the same day's place changed
        ("We deploy on Thursdays", "We now deploy on Fridays"),  # the day is the value
        ("Standup is on Mondays", "Standup moved to Tuesdays"),
        ("I live in Lyon", "I now live in Annecy"),
    ],
)
def test_a_change_at_one_time_or_of_the_time_still_replaces(old: str, new: str) -> None:
    assert hidden(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("DB: Postgres 14", "We upgraded to Postgres 16"),
        ("Database: MySQL 5.7", "We upgraded to MySQL 8.0"),
    ],
)
def test_a_line_labelled_by_its_kind_is_replaced_by_a_bump_of_its_value(old: str, new: str) -> None:
    """breaker15 B15-36: "DB:" names what Postgres is, not a part of the project; the bump replaces the line."""
    assert hidden(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("worker: Python 3.11", "We moved to Python 3.13"),  # a part of the project the newer line never names
        ("Staging DB: Postgres 14", "We upgraded to Postgres 16"),  # a label with a part in it
        ("DB: Postgres 14", "The analytics service upgraded to Postgres 16"),  # another subject's bump
        ("DB: Postgres 14", "We upgraded to Postgres 16 in staging"),  # one environment's bump (breaker22 B22-10)
        ("DB: Postgres 14", "We upgraded to Postgres 16 on the reporting replica"),  # one part's bump (B22-10)
    ],
)
def test_a_line_labelled_by_a_part_or_bumped_elsewhere_stays(old: str, new: str) -> None:
    assert not hidden(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [("Alice manages the budget", "Bob manages the budget now"), ("Sarah owns billing", "Tom owns billing now")],
)
def test_a_role_passed_with_now_at_the_end_replaces_the_holder(old: str, new: str) -> None:
    """breaker19 B19-9: "now" after the role passes it as "now" before the verb does ("Bob now manages ...")."""
    assert hidden(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [("Alice owns a Tesla", "Bob owns a Tesla now"), ("Alice manages the budget", "Bob manages the roadmap now")],
)
def test_a_thing_many_hold_or_another_role_with_now_at_the_end_stays(old: str, new: str) -> None:
    assert not hidden(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The staging database is Postgres 14", "The database is now Postgres 16"),
        ("The dev cluster runs Kubernetes 1.27", "The cluster now runs Kubernetes 1.29"),
    ],
)
def test_a_line_about_one_environment_stays_under_a_broader_line(old: str, new: str) -> None:
    """breaker19 B19-10: the newer line names no environment, so it is about the main system, not staging or dev."""
    assert not hidden(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The staging database is Postgres 14", "The staging database is now Postgres 16"),
        ("The web deploy window is Tuesday", "The deploy window is now Thursday"),  # a part, no environment
    ],
)
def test_the_same_environment_or_a_part_still_replaces(old: str, new: str) -> None:
    assert hidden(old, new)
