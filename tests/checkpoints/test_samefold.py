"""The agent's same-day paraphrase of what the user said folds into the user's line (breaker30 B30-3)."""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.samefold import paraphrase_of

DAY = "2026-12-07"


def _agent(text: str, path: str = "workspaces/lantern.md", **meta: str) -> ExistingEntry:
    return ExistingEntry("E1", path, 5, text, "agent", {"added": DAY, **meta})


@pytest.mark.parametrize(
    ("said", "agent"),
    [
        ("The MSRV is Rust 1.74, so no newer syntax", "lantern's MSRV is Rust 1.74"),
        ("Webhooks go to /api/stripe/webhook", "Stripe webhooks go to /api/stripe/webhook"),
        (
            "I'm on vacation from tomorrow until Friday 11 December, so don't schedule any deploys before then",
            "User is on vacation until Friday 11 December 2026; no deploys before then",
        ),
    ],
)
def test_a_paraphrase_that_says_nothing_more_is_folded(said: str, agent: str) -> None:
    line = _agent(agent)
    assert paraphrase_of(said, [line], DAY) is line


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("The MSRV is Rust 1.80", _agent("lantern's MSRV is Rust 1.74")),  # another value
        ("Migrations live in db/migrations", _agent("The staging host is db1; migrations live in db/migrations")),
        ("The MSRV is Rust 1.74", _agent("lantern's MSRV is Rust 1.74", added="2026-12-01")),  # another day
        ("The MSRV is Rust 1.74", _agent("lantern's MSRV is Rust 1.74", via="inbox")),  # the user accepted it
        ("We deploy on Fridays", _agent("We never deploy on Fridays")),  # a negation only the agent's says
        (
            "The MSRV is Rust 1.74",
            ExistingEntry("E2", "workspaces/lantern.md", 5, "MSRV is Rust 1.74", "user", {"added": DAY}),
        ),
    ],
)
def test_a_line_that_says_more_or_else_is_left(said: str, line: ExistingEntry) -> None:
    assert paraphrase_of(said, [line], DAY) is None
