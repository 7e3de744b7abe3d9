"""The replacement rule relates two lines only when they state the same fact of the same owner and subject
(engine/read/samefact.py; docs/architecture.md §4).

breaker13 (round 9) found true, current lines hidden from every session by a newer line about someone or something
else that shares most of their words: "My daughter is now allergic to penicillin" hid "I am allergic to
penicillin", "Api now uses Python 3.12" hid "Web uses Python 3.11", "Web team retro moved to 16:00" hid "Web team
standup is at 9:30". Each case is a file as ``memrepo remember`` writes it (one ``added:`` day, the older line
first, a line between them); each false hide below was a hide on the code before the rule.
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.entries import Entry
from memrepo.engine.read.contextselect import _norm, candidates, replaced
from memrepo.engine.read.samefact import subject_differs
from memrepo.engine.read.samevalue import parallel

DAY = {"by": "user", "added": "2026-12-05"}
FILLER = "Prefers tea over coffee"


def gone(*texts: str, meta: dict[str, str] | None = None) -> dict[int, int]:
    """The rule's answer for a file holding ``texts`` in order (line numbers from 1); ``meta`` on the last line."""
    rows = []
    for n, text in enumerate(texts, start=1):
        extra = meta if meta and n == len(texts) else {}
        rows.append((n, Entry("", "-", text, {**DAY, **extra})))
    return replaced(candidates(rows))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I am allergic to penicillin", "My daughter is now allergic to penicillin"),  # B13-12
        ("I eat fish", "My partner no longer eats fish"),  # B13-22c
        ("Bob is on the payments team", "Alice is not on the payments team anymore"),  # B13-13
    ],
)
def test_a_change_of_another_owner_hides_nothing(old: str, new: str) -> None:
    assert gone(old, FILLER, new) == {}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Web uses Python 3.11", "Api now uses Python 3.12"),  # B13-5: the version rule
        ("Staging database is Postgres 14", "Production database is now Postgres 16"),
        ("The web service uses Postgres for storage", "The api service now uses Postgres for storage"),  # B13-3
        ("Web team standup is at 9:30", "Web team retro moved to 16:00"),  # B13-6: the subject phrase
        ("The web team uses Jira", "The api team no longer uses Jira"),  # B13-22
        ("The dashboard uses React 18", "The marketing site now uses React 19"),  # B13-13
        ("Backend PRs need review from Alice", "Alice no longer reviews payments PRs"),  # two kinds of PR
    ],
)
def test_a_change_of_another_subject_hides_nothing(old: str, new: str) -> None:
    assert gone(old, FILLER, new) == {}


def test_a_leading_label_is_the_subject_of_a_list_line() -> None:
    assert gone("web: Node 18", FILLER, "api: Node 20 now") == {}  # B13-20
    assert gone("web: Node 18", FILLER, "web: Node 20 now") == {1: 3}
    assert gone("worker: Python 3.11", FILLER, "We moved to Python 3.13") == {}  # says nothing of the worker
    assert gone("Best checkpoint so far: ckpt-41", FILLER, "New best checkpoint is ckpt-57, replacing ckpt-41") == {
        1: 3
    }


def test_a_note_label_names_no_subject() -> None:
    assert gone("Reminder: rotate the API keys monthly", FILLER, "Reminder: the office is now closed on Fridays") == {}
    assert (
        gone("Important: I am allergic to penicillin", FILLER, "Important: prod deploys now need two approvals") == {}
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Always run ruff before committing", "Always run mypy before committing"),  # B13-22
        ("Frontend PRs need review from Alice", "Backend PRs need review from Alice"),  # B13-19
        ("提交前总是运行 ruff", "提交前总是运行 mypy"),  # B13-23
    ],
)
def test_two_parallel_rules_are_not_one_said_again(old: str, new: str) -> None:
    assert gone(old, FILLER, new) == {}


def test_a_value_added_replaces_nothing() -> None:
    assert gone("CI runs on Linux", FILLER, "CI now also runs on macOS") == {}  # B13-27b
    assert gone("我对青霉素过敏", FILLER, "我女儿现在也对青霉素过敏") == {}  # B13-23


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("测试环境使用 Redis", "生产环境不再使用 Redis"),  # B13-7
        ("東京チームの会議は 9:30", "大阪チームの会議は 10:00 に変更"),
        ("我住在里昂", "我父母现在住在里昂"),  # B13-23
    ],
)
def test_cjk_lines_with_another_head_are_another_subject(old: str, new: str) -> None:
    assert gone(old, FILLER, new) == {}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Standup is at 9:30", "Standup is now at 10:00"),
        ("My manager is Dana", "My manager is now Luis"),
        ("I am allergic to penicillin", "I am no longer allergic to penicillin"),
        ("Backend PRs need one approval", "Backend PRs now need two approvals"),
        ("The api runs Python 3.11", "The api now runs Python 3.12"),
        ("Code freeze for web is on Thursdays", "Code freeze for web is on Wednesdays"),
        ("部署使用 Jenkins 流水线", "部署现在改用 GitHub Actions 流水线"),
        ("The on-call contact for web is Bob Okafor", "Farid Haddad took over on-call for web from Bob Okafor"),
    ],
)
def test_the_same_fact_of_the_same_subject_is_still_replaced(old: str, new: str) -> None:
    assert gone(old, FILLER, new) == {1: 3}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Standup is at 9:30", "Standup moved to 10:00"),
        ("Standup is at 9:30", "Standup got moved to 10:00"),
        ("Retro is on Tuesdays", "Retro moved to Thursdays"),
    ],
)
def test_a_one_word_subject_moved_to_a_value_of_the_same_kind_is_replaced(old: str, new: str) -> None:
    assert gone(old, FILLER, new) == {1: 3}  # B13-25: one topic word shared, no frame of half the line


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Standup is at 9:30", "Standup moved to Zoom"),
        ("Standup is at 9:30 on Meet", "Standup moved to Thursdays"),
        ("Web standup is at 9:30", "Retro moved to 10:00"),
    ],
)
def test_a_move_of_another_attribute_or_subject_hides_nothing(old: str, new: str) -> None:
    assert gone(old, FILLER, new) == {}


def test_a_chain_of_three_keeps_only_the_newest() -> None:
    chain = ("Deploy window is Tuesday", "Deploy window is now Thursday", "Deploy window is now Monday")
    got = gone(*chain)
    assert set(got) == {1, 2} and 3 not in got


def test_longer_alone_says_no_change() -> None:
    # "longer" is a change word only in "no longer": the swapped qualifier would otherwise read as a change
    assert gone("Use 30s timeouts for web tests", FILLER, "Use longer timeouts for api tests") == {}
    assert gone("Staging uses Redis for sessions", FILLER, "Staging no longer uses Redis for sessions") == {1: 3}


def test_supersedes_names_whole_words_of_the_same_subject() -> None:
    # B13-16: "Postgres 14" is not in "Postgres 14.2"; "deploy window" of web is not the api's
    lines = ("Staging runs Postgres 14.2", "Prod runs Postgres 14")
    assert gone(*lines, "Prod runs Postgres 16", meta={"supersedes": "Postgres 14"}) == {2: 3}
    lines = ("Deploy window for web is Tuesday", "Deploy window for api is Monday")
    got = gone(*lines, "Deploy window for web is now Thursday", meta={"supersedes": "deploy window"})
    assert got == {1: 3}


def test_the_helpers_read_structure() -> None:
    assert subject_differs("Staging uses Redis", "Prod no longer uses Redis", _norm)
    assert not subject_differs("Standup is at 9:30", "Standup moved to 10:00", _norm)
    assert parallel("Always run ruff before committing", "Always run mypy before committing")
    assert not parallel("Code freeze is on Thursdays", "Code freeze is on Wednesdays")


@pytest.mark.parametrize(
    "lines",
    [
        ("My editor is Vim", "My editor is now Helix", "My editor is Vim again"),
        (
            "Team standup is at 9:30 on Meet",
            "Team standup moved to 10:00 on Meet",
            "Team standup is back at 9:30 on Meet",
        ),
        ("Prod db is Postgres 15", "Prod db is now Postgres 16", "Prod db rolled back to Postgres 15"),
    ],
)
def test_a_same_day_revert_is_never_hidden_by_the_change_it_undoes(lines: tuple[str, str, str]) -> None:
    # B13-14: on one day the line with a change word counted as newer wherever it stood; a revert is as new
    assert 3 not in gone(*lines)
