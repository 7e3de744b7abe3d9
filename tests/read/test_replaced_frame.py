"""The replacement rule on changes that share few words, and restatements in short forms (docs/architecture.md §4).

benchmarks/docs round 7 "For the lead": the word rule found 13 of 44 superseded pairs of the recall tuning repos;
the context benchmark's tune repo showed "Deploys of infra go through Heroku" beside "Deploys of infra now go
through Fly.io" (one topic word shared), both lines of "PRs need two approvals" / "Two approvals are required on
every pull request", and an outdated Chinese preference. Each case is a file as ``memrepo remember`` writes it (one
``added:`` day, the older line first, a line between them).
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.entries import Entry
from memrepo.engine.read.changeframe import swapped_frame
from memrepo.engine.read.context import ContextFile, build_context
from memrepo.engine.read.contextselect import candidates, replaced

DAY = {"by": "user", "added": "2026-12-05"}


def gone(*texts: str) -> dict[int, int]:
    """The rule's answer for a file holding ``texts`` in order (line numbers from 1)."""
    return replaced(candidates([(n, Entry("", "-", text, dict(DAY))) for n, text in enumerate(texts, start=1)]))


INFRA = ("infra staging lives at staging.internal", "infra logs ship to Datadog", "infra secrets are in 1Password")
"""Lines of a workspace file: its name is in most of them, so it is no topic word there."""


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Deploys of infra go through Heroku", "Deploys of infra now go through Fly.io"),
        ("The infra build runs on Jenkins", "The infra build now runs on Buildkite"),
        ("部署使用 Jenkins 流水线", "部署现在改用 GitHub Actions 流水线"),
    ],
)
def test_a_value_swapped_in_the_same_sentence_with_a_change_word_is_replaced(old: str, new: str) -> None:
    assert gone(old, *INFRA, new) == {1: 5}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I live in Lyon", "I moved to Montreal"),
        ("Lives in Lyon with my partner", "Moved to Montreal in March"),
        ("Based in Leipzig", "Relocated to Lisbon last spring"),
    ],
)
def test_a_move_replaces_where_the_user_lived_with_no_word_shared(old: str, new: str) -> None:
    assert gone(old, "Prefers tea over coffee", new) == {1: 3}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # no change word: two values of one frame may both be true
        ("Deploys of infra go through Heroku", "Deploys of infra go through Fly.io"),
        ("I live in Lyon", "I live in Montreal"),
        # someone else's home
        ("My sister lives in Berlin", "I moved to Montreal"),
        # two projects' deploys: the swapped stretch is most of the line
        ("Deploys of billing go through Heroku", "Deploys of infra now go through Fly.io"),
        ("The infra build runs on Jenkins", "The infra docs now run on Buildkite"),
        # the frame holds function words only
        ("It is on the shelf", "It is now on the desk"),
        ("Alice owns the billing module", "Bob now owns the search module"),
        ("Payments go through Stripe", "Payouts to sellers now go through Stripe Connect"),
    ],
)
def test_look_alike_frames_are_both_kept(old: str, new: str) -> None:
    assert gone(old, *INFRA, new) == {}


def test_the_frame_is_what_is_left_around_the_swapped_value() -> None:
    assert swapped_frame("Standup is at 9:30", "Standup is now at 10:00") == ("standup", "is", "at")
    assert swapped_frame("Standup is at 9:30", "Standup is now at 9:30") is None  # nothing swapped


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("billing-api PRs need two approvals", "Two approvals are required on every billing-api pull request"),
        ("Prefers British spelling in docs", "Use British English spelling in documentation"),
    ],
)
def test_a_restatement_in_the_long_form_of_a_short_word_is_one_line(old: str, new: str) -> None:
    assert gone(old, "Prefers tea over coffee", new) == {1: 3}


def test_the_block_shows_a_restated_preference_once_and_the_newer_line() -> None:
    lines = [
        "- Prefers British spelling in docs [by: user; added: 2026-02-22; kind: preference]",
        "- Prefers tea over coffee [by: user; added: 2026-03-01; kind: preference]",
        "- Use British English spelling in documentation [by: user; added: 2026-04-02; kind: preference]",
    ]
    data = ("# About me\n\n" + "\n".join(lines) + "\n").encode()
    text = build_context("abc1234", [ContextFile("me.md", data, 300, user_first=True)]).text
    assert "L5 Use British English spelling in documentation" in text
    assert "British spelling in docs" not in text
    assert "1 replaced by newer lines" in text


def test_the_workspace_file_gets_what_the_users_files_leave_of_their_budgets() -> None:
    ws = "# W\n\n- Workspace w [workspace: ws-00000000; by: user]\n" + "".join(
        f"- Workspace fact {i} about the build [by: user]\n" for i in range(200)
    )
    memory = "# Memory\n\n- Pinned: answer in English [by: user]\n"
    files = [
        ContextFile("MEMORY.md", memory.encode(), 500, user_first=True),
        ContextFile("me.md", None, 300, user_first=True),
        ContextFile("workspaces/w.md", ws.encode(), 300, "workspace ws-00000000"),
    ]
    block = build_context("abc1234", files, "ws-00000000")
    mem, me, wsec = block.sections
    assert wsec.budget == 300 + (500 - mem.tokens) + (300 - me.tokens)
    assert 300 < wsec.tokens <= wsec.budget and wsec.omitted > 0
    alone = build_context("abc1234", files[2:], "ws-00000000").sections[0]
    assert alone.budget == 300 and alone.shown < wsec.shown


def test_a_fact_changed_four_times_shows_only_its_newest_value() -> None:
    """breaker11 B11-11: four values of one fact made its words common, so no line replaced any other."""
    chain = ("Deploy window is Tuesday", "Deploy window is Thursday", "Deploy window is Friday")
    out = gone(*chain, "Prefers tea over coffee", "Deploy window is now Monday")
    assert set(out) == {1, 2, 3}
    assert out[3] == 5


def test_a_word_in_many_different_sentences_stays_common() -> None:
    """The file's own name in most lines is no topic: lines that are not one changed fact keep the filter."""
    lines = (
        "The shop runs on Postgres 15",
        "The shop deploys on Fridays",
        "The shop logs ship to Datadog",
        "The shop secrets are in 1Password",
        "The shop staging is now on Fly.io",
    )
    assert gone(*lines) == {}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I live in Lyon", "We moved to Linear for issue tracking"),
        ("I live in Lyon", "I moved to the platform team"),
        ("I live in Lyon", "We moved to Python 3.13"),
        ("I live in Paris", "I moved to Berlin in 2015 for my first job"),
        ("Staging uses Redis", "Prod no longer uses Redis"),
        ("测试环境使用 Redis", "生产环境不再使用 Redis"),
        ("I speak French", "I now speak Spanish as well"),
    ],
)
def test_a_move_or_swap_that_is_not_the_same_fact_hides_nothing(old: str, new: str) -> None:
    """breaker13 B13-1, B13-3, B13-7, B13-18, B13-27: both lines are true; hiding the older loses it from every block."""
    assert gone(old, "Prefers tea over coffee", new) == {}


def test_a_swap_at_the_start_of_the_line_is_no_value_swapped() -> None:
    """The swapped stretch leads the line: it may be the subject (B13-3, B13-7), so both lines stay shown. The cost:
    a CJK preference whose verb leads the line ("喜欢用中文写注释" -> "现在改为用英文写注释") is no longer related."""
    assert gone("喜欢用中文写注释", *INFRA, "现在改为用英文写注释") == {}
