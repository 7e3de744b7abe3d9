"""The replacement rule on the phrasings people use for a changed fact (docs/architecture.md §4, breaker6 B6-2).

Each case is a workspace or core file as ``memrepo remember`` writes it (one ``added:`` day, the older line
first); the rule must hide the older line of a changed fact and keep both lines of facts that are both true.
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.entries import Entry
from memrepo.engine.read.contextselect import candidates, replaced

DAY = {"by": "user", "added": "2026-12-05"}


def gone(*texts: str, by: tuple[str, ...] = ()) -> dict[int, int]:
    """The rule's answer for a file holding ``texts`` in order (line numbers from 1)."""
    rows = []
    for n, text in enumerate(texts, start=1):
        meta = {**DAY, "by": by[n - 1]} if by else dict(DAY)
        rows.append((n, Entry("", "-", text, meta)))
    return replaced(candidates(rows))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Works from Seoul, timezone KST (UTC+9)", "Moved to Berlin in 2026; timezone is now CET (UTC+1)"),
        ("Shop backend runs on Postgres 14 on RDS", "Shop DB is now Postgres 15"),
        (
            "Best model so far: run 7f3k2q (val AUC 0.91)",
            "New best model is run 9x8c1m (val AUC 0.93); replaces 7f3k2q",
        ),
        ("My laptop is a ThinkPad X1 running Fedora 39", "Switched my laptop to a MacBook Pro M3; no longer on Fedora"),
        (
            "Current focus: shop checkout migration, due 2026-12-18",
            "Current focus: infra Terraform 1.9 upgrade, due 2027-01-15",
        ),
    ],
)
def test_a_changed_fact_in_other_words_is_replaced(old: str, new: str) -> None:
    assert gone(old, new) == {1: 2}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Orders service stores data in Postgres 15", "Reporting service stores data in ClickHouse"),
        ("Uses Poetry for Python packaging", "Uses pnpm for JavaScript packages"),
        ("Main database is Postgres 16", "Analytics replica runs Postgres 13"),
        ("CI runs unit tests on every push", "CI now also runs the e2e suite nightly"),
        ("Payments go through Stripe", "Payouts to sellers now go through Stripe Connect"),
        ("Owner of the billing service: Aiko", "Owner of the search service: Tomás"),
        ("Current focus: reduce cloud spend", "Cloud spend report is due on the 5th of each month"),
    ],
)
def test_look_alike_lines_that_are_both_true_are_both_kept(old: str, new: str) -> None:
    assert gone(old, new) == {}


def test_a_version_bump_needs_a_change_word_and_the_same_name() -> None:
    assert gone("Blog builds with Hugo 0.120", "Blog builds with Hugo 0.125 now") == {1: 2}
    assert gone("Main database is Postgres 14", "Analytics replica is on Postgres 13") == {}  # no change word
    assert gone("Main database is Postgres 14", "Cache is now Redis 7") == {}  # another name


def test_a_label_without_a_single_value_word_needs_a_change_word() -> None:
    assert gone("Note: deploys need the VPN", "Note: the staging DB is read-only on Fridays") == {}
    assert gone("Release owner: Dana", "Release owner: Luis, took over this week") == {1: 2}


def test_an_agents_line_never_replaces_the_users_by_these_rules() -> None:
    old, new = "Shop backend runs on Postgres 14", "Shop DB is now Postgres 16"
    assert gone(old, new, by=("user", "agent")) == {}
    assert gone(old, new, by=("agent", "user")) == {1: 2}


def test_a_version_bump_goes_up_and_holds_for_a_name_common_in_the_file() -> None:
    shop = [
        "Shop backend runs on Postgres 14 on RDS",
        "Decided to keep Redis for sessions, not Postgres",
        "Shop admin reads the Postgres replica",
        "Shop nightly dump covers Postgres and Redis",
        "Shop DB is now Postgres 15",
    ]
    assert gone(*shop).get(1) == 5  # "Postgres" is in most lines: still the name the number belongs to
    assert gone("Backend API service runs Node 18 in the EU cluster", "Frontend now runs Node 16") == {}  # not a bump


def test_a_numbered_item_is_no_version_unless_the_change_word_is_about_its_number() -> None:
    items = [f"Team uses tool {k} for area {k} (item {k})" for k in (1, 4, 6)]
    assert gone(*items, "Team uses rebase instead of merge for ci (item 38)") == {}


def test_two_lines_rejecting_the_same_value_are_two_preferences() -> None:
    assert gone("Billing team uses rebase instead of merge", "Search team prefers rebase instead of merge") == {}
    assert gone("Billing team uses squash merges", "Billing team now uses rebase instead of merges") == {1: 2}
