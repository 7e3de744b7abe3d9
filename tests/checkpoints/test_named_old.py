"""A correction found by the old value it names, among many listed lines (issue 30, corr17; :mod:`.namedold`):
"the preview box isn't in Oslo, it's in Madrid" for "The kiwi preview server runs in Oslo", said beside lines of
other subjects and other projects holding other values (and one holding the same value for another subject).

Before (heldout8, spent): none of these was kept, so the old line stayed current in the next session's block. The
wordings here are this file's own (none of a benchmark set). Pure functions of text and entries.
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.corrections import correction_statements, proposed_corrections, where
from memrepo.engine.checkpoints.namedold import disowned, named_line

NOISE = [
    ("workspaces/otter.md", "The otter office party was in Oslo"),
    ("workspaces/otter.md", "otter's nightly export runs at 3:00"),
    ("workspaces/otter.md", "otter deploys go out on Thursday"),
    ("workspaces/kiwi.md", "The kiwi docs are built with Sphinx"),
    ("workspaces/kiwi.md", "kiwi's cache is Redis 7"),
    ("me.md", "My editor is Helix"),
    ("me.md", "I live in Porto"),
]


def listed(*own: str) -> list[ExistingEntry]:
    lines = [("workspaces/kiwi.md", text) for text in own] + NOISE
    return [
        ExistingEntry(f"E{i}", path, i + 3, text, "user", {"added": "2026-11-01"})
        for i, (path, text) in enumerate(lines, 1)
    ]


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The kiwi preview server runs in Oslo", "The preview box isn't in Oslo, it's in Madrid."),
        ("kiwi's error tracking goes to Sentry", "We've dropped Sentry, the error tracking goes to Rollbar now."),
        ("Die Kiwi-Retro ist am dienstag", "Die Retro ist nicht am dienstag, wir machen sie am freitag."),
        ("A réplica do kiwi fica em Braga", "A réplica não fica em Braga, fica em Coimbra."),
        ("La replica di kiwi gira a Verona", "La replica non gira più a Verona, abbiamo spostato tutto a Torino."),
        ("De kiwi nightly build draait om 2:00", "De nightly build draait niet om 2:00, het is 4:30."),
    ],
)  # fmt: skip
def test_the_old_value_named_and_left_finds_its_line_among_many(old: str, said: str) -> None:
    """Each of these named the old value, disowned it and gave a new one of its type: the line holding that value is
    the one corrected, and the correction is kept (it hid nothing on the old code: kept nothing)."""
    lines = listed(old, "The kiwi API is written in Go")
    kept = correction_statements([said], lines)
    assert kept, said
    assert where(kept[0], "kiwi", lines)[1].text == old  # type: ignore[union-attr]
    assert named_line(kept[0], lines, lambda e: e.text, "kiwi otter") is not None


@pytest.mark.parametrize(
    "said",
    [
        "I was not in Oslo last week, I was in Madrid.",  # another subject holds the same value
        "We are not leaving Sentry, Rollbar is only for the mobile app.",  # not left
        "If the preview box isn't in Oslo, it might be in Madrid.",  # a supposition
        "Anna says the preview box isn't in Oslo, it's in Madrid.",  # hearsay
        "The preview box isn't in Oslo.",  # no new value
        "The preview box is in Oslo, not in a container.",  # the old value said as true
    ],
)
def test_a_look_alike_names_no_line(said: str) -> None:
    """A value named for another subject, not left, supposed, reported, or given no new value: nothing is kept."""
    lines = listed("The kiwi preview server runs in Oslo", "kiwi's error tracking goes to Sentry")
    assert correction_statements([said], lines) == []
    assert proposed_corrections([said], lines) == []


def test_a_value_two_lines_of_the_subject_hold_names_neither() -> None:
    """Two preview lines both in Oslo: the value names no single line, so nothing is replaced."""
    lines = listed("The kiwi preview server runs in Oslo", "The kiwi preview database runs in Oslo")
    said = "The preview box isn't in Oslo, it's in Madrid."
    assert named_line(said, lines, lambda e: e.text) is None


def test_a_chain_names_its_newest_link() -> None:
    """The older link a listed line supersedes is left out: the value named is the newest's."""
    older = ExistingEntry("E1", "workspaces/kiwi.md", 4, "The kiwi preview server runs in Oslo", "user", {})
    newer = ExistingEntry(
        "E2",
        "workspaces/kiwi.md",
        5,
        "The preview box isn't in Oslo, it's in Madrid",
        "user",
        {"supersedes": "The kiwi preview server runs in Oslo"},
    )
    said = "The preview box isn't in Madrid any more, it's in Lisbon."
    assert named_line(said, [older, newer], lambda e: e.text, "kiwi", frozenset({older.text})) is newer


@pytest.mark.parametrize(
    ("text", "value", "left"),
    [
        ("We left Render, we run on Fly.io", "render", True),
        ("the box isn't in Oslo, it's in Madrid", "oslo", True),
        ("we are not leaving Render, Fly.io is extra", "render", False),
        ("the box is in Oslo, the DB isn't", "oslo", False),
    ],
)
def test_disowned_reads_the_clause_naming_the_value(text: str, value: str, left: bool) -> None:
    assert disowned(text, value) is left


def test_a_failure_said_of_the_old_value_is_no_change_that_did_not_happen() -> None:
    """ "X didn't hold up, we're on Y": the "didn't" is the old value's, so the change is kept (the old code read it
    as a change that did not happen, "We almost switched", and kept nothing); "almost" or "didn't leave" still
    keep nothing."""
    lines = listed("kiwi's frontend is hosted on Vercel")
    said = "Vercel didn't hold up under load, so the kiwi frontend lives on Netlify from today."
    kept = correction_statements([said], lines)
    assert kept
    assert where(kept[0], "kiwi", lines)[1] is lines[0]
    for other in (
        "We almost left Vercel, the kiwi frontend nearly moved to Netlify.",
        "We didn't leave Vercel, the kiwi frontend also runs on Netlify.",
    ):
        assert correction_statements([other], lines) == [], other


def test_the_same_value_of_another_subject_of_the_same_kind_is_no_correction() -> None:
    """ "The docs CDN is Fastly, not Bunny" says nothing of "The app CDN is Bunny": another word before the shared
    one (hostile_words2's case, in this file's words)."""
    lines = listed("The kiwi app CDN is Bunny")
    assert correction_statements(["The docs CDN is Fastly, not Bunny."], lines) == []
    assert named_line("The docs CDN is Fastly, not Bunny", lines, lambda e: e.text, "kiwi") is None
