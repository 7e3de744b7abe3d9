"""A kept statement's relative time is written as the dates it meant (breaker14 B14-8).

Before: "I'm on call this week" was kept as said, and every later block told the agent so, undated, for good.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from memrepo.engine.format.relativedates import dated

SUNDAY = date(2026, 12, 6)  # a Sunday: the week of Monday 2026-11-30


@pytest.mark.parametrize(
    ("said", "text", "until"),
    [
        ("I'm on call this week", "I'm on call the week of 2026-11-30", "2026-12-06"),
        ("I'm on vacation next week", "I'm on vacation the week of 2026-12-07", "2026-12-13"),
        ("The release is frozen until Monday", "The release is frozen until Monday 2026-12-07", "2026-12-07"),
        ("I'm out of office till Friday", "I'm out of office till Friday 2026-12-11", "2026-12-11"),
        ("Today I'm working on the billing bug", "On 2026-12-06 I'm working on the billing bug", "2026-12-06"),
        ("Tomorrow the office is closed", "On 2026-12-07 the office is closed", "2026-12-07"),
        ("I'm in Berlin this month", "I'm in Berlin in December 2026", "2026-12-31"),
        ("I'm in Lisbon next month", "I'm in Lisbon in January 2027", "2027-01-31"),
        ("This weekend I'm offline", "The weekend of 2026-12-05 I'm offline", "2026-12-06"),
        ("Our sprint ends this Friday", "Our sprint ends on Friday 2026-12-11", "2026-12-11"),
        ("We're in a code freeze until Friday", "We're in a code freeze until Friday 2026-12-11", "2026-12-11"),
    ],
)
def test_a_time_that_ends_is_written_with_its_dates(said: str, text: str, until: str) -> None:
    assert dated(said, SUNDAY) == (text, until)


@pytest.mark.parametrize(
    ("said", "text"),
    [
        ("As of today we use pnpm", "As of 2026-12-06 we use pnpm"),
        ("From next week, deploys are on Thursdays", "From the week of 2026-12-07, deploys are on Thursdays"),
        ("Starting tomorrow, the standup is at 10:00", "Starting 2026-12-07, the standup is at 10:00"),
    ],
)
def test_a_time_that_starts_something_is_dated_and_lasts(said: str, text: str) -> None:
    assert dated(said, SUNDAY) == (text, None)


@pytest.mark.parametrize(
    "said",
    [
        "This week's release is 2.3",
        "Today I learned that pnpm is faster than npm",
        "We deploy every week",
        "We moved to Postgres 16 last week",
        "Run `make today` before a release",
        'The banner says "closed until Monday"',
        "We deploy on Tuesdays",
        "Weekly reports go out on Mondays",
    ],
)
def test_a_look_alike_is_kept_as_said(said: str) -> None:
    assert dated(said, SUNDAY) == (said, None)


def test_until_a_weekday_said_on_that_day_means_the_next_one() -> None:
    monday = SUNDAY + timedelta(days=1)
    assert dated("Frozen until Monday", monday) == ("Frozen until Monday 2026-12-14", "2026-12-14")


@pytest.mark.parametrize(
    ("said", "text"),
    [
        ("I switched to Neovim as my editor today", "I switched to Neovim as my editor on 2026-12-06"),
        ("We moved our deploys to Thursdays this week", "We moved our deploys to Thursdays the week of 2026-11-30"),
        ("I moved to Berlin this month", "I moved to Berlin in December 2026"),
        ("I started at Acme this week", "I started at Acme the week of 2026-11-30"),
        ("My new phone number is 555-0199, changed today", "My new phone number is 555-0199, changed on 2026-12-06"),
        ("We upgraded the DB to Postgres 16 tonight", "We upgraded the DB to Postgres 16 on the night of 2026-12-06"),
        ("Bob took over the budget from Alice this week", "Bob took over the budget from Alice the week of 2026-11-30"),
        ("Our team decided today: no deploys on Fridays", "Our team decided on 2026-12-06: no deploys on Fridays"),
        ("I'm starting at Acme tomorrow", "I'm starting at Acme on 2026-12-07"),
        ("We use pnpm today", "We use pnpm on 2026-12-06"),
    ],
)
def test_a_change_said_with_its_day_is_dated_and_lasts(said: str, text: str) -> None:
    """breaker22 B22-3: with an until: the block dropped the change the next day and showed the old line."""
    assert dated(said, SUNDAY) == (text, None)


@pytest.mark.parametrize(
    ("said", "until"),
    [
        ("I'm out today", "2026-12-06"),
        ("The office is closed today", "2026-12-06"),
        ("I work from home today", "2026-12-06"),
        ("Deploys are blocked tonight", "2026-12-06"),
        ("I switched to the backup laptop until Friday", "2026-12-11"),
        ("The office is closed until Monday", "2026-12-07"),
    ],
)
def test_a_state_for_that_time_still_ends(said: str, until: str) -> None:
    assert dated(said, SUNDAY).until == until


@pytest.mark.parametrize(
    ("said", "text", "until"),
    [
        (
            "I'm on vacation from tomorrow until Friday 11 December, so don't schedule any deploys before then.",
            "I'm on vacation from 2026-12-07 until Friday 11 December 2026, so don't schedule any deploys before then.",
            "2026-12-11",
        ),
        (
            "The office is closed until Friday, 11 December",
            "The office is closed until Friday, 11 December 2026",
            "2026-12-11",
        ),
        (
            "Bis Freitag, 11. Dezember bin ich im Urlaub",
            "Bis Freitag, 11. Dezember 2026 bin ich im Urlaub",
            "2026-12-11",
        ),
    ],
)
def test_an_end_said_with_its_weekday_and_date_is_written_once(said: str, text: str, until: str) -> None:
    """breaker30 B30-5: "until Friday 11 December" was kept as "until Friday 2026-12-11 11 December"; the weekday
    was dated alone and the date said after it left as it was."""
    assert dated(said, SUNDAY) == (text, until)
