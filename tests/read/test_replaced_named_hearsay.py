"""A user's line replaces only what it names, and never by someone else's words (breaker9 item 1).

A correction kept by the checkpoint names its line (``supersedes:``); the block's words rule then also hid
"The prod DB host is pg-prod-1" behind "The staging DB host is pg-stage-12 now" (they share "DB host",
and "now" is a change word). "Remember that Alice said the shop DB is on Postgres 12 now." is kept as
asked, and hid "The shop DB runs on Postgres 15" by the same rule: Alice's word is not the user's fact.
"""

from __future__ import annotations

from memrepo.engine.format.entries import Entry
from memrepo.engine.read.contextselect import candidates, replaced


def rule(lines: list[tuple[str, dict[str, str]]]) -> dict[int, int]:
    rows = [
        (n, Entry("", "-", t, {"by": "user", "added": f"2026-12-0{n}", **meta})) for n, (t, meta) in enumerate(lines, 1)
    ]
    return replaced(candidates(rows))


def test_a_line_that_names_its_line_replaces_no_other() -> None:
    lines = [
        ("The staging DB host is pg-stage-9", {}),
        ("The prod DB host is pg-prod-1", {}),
        ("The staging DB host is pg-stage-12 now", {"supersedes": "The staging DB host is pg-stage-9"}),
    ]
    assert rule(lines) == {1: 3}


def test_a_line_whose_named_line_is_gone_still_replaces_by_its_words() -> None:
    lines = [
        ("The deploy window is Tuesday", {}),
        ("The deploy window is Friday now", {"supersedes": "The deploy window was Monday"}),
    ]
    assert rule(lines) == {1: 2}


def test_someone_elses_words_replace_no_line_of_the_users() -> None:
    lines = [
        ("The shop DB runs on Postgres 15", {}),
        ("Alice said the shop DB is on Postgres 12 now", {}),
    ]
    assert rule(lines) == {}
    lines[1] = ("The shop DB is on Postgres 16 now", {})
    assert rule(lines) == {1: 2}
