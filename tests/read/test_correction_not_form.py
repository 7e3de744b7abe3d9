"""A user's "X, not Y" correction keeps hiding the line it corrects, whatever comes later (breaker7 B7-1).

"Actually, the deploy window is Thursday, not Tuesday" replaced "Deploy window is Tuesday" only as a
restatement (most of the same words), by luck: an agent's later "The deploy window moved to Friday"
made "deploy" one of the file's common words (in 4 of 10 lines), the two user lines then shared too
few words, and the twice-outdated Tuesday line came back into the block and to the top of recall.
"not Tuesday" names the value the line corrects, as "instead of" and "from" do with a change word.
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.entries import Entry
from memrepo.engine.models import Candidate
from memrepo.engine.read.contextselect import candidates, replaced
from memrepo.engine.repo.store import MemoryStore

USER_LINES = [
    "The shop deploys with make ship",
    "Always answer in metric units",
    "The office wifi network is called Orchard",
    "The office wifi network is now called Birch",
    "Our CI runs on Jenkins",
    "We moved CI from Jenkins to GitHub Actions",
    "Deploy window is Tuesday",
    "Actually, the deploy window is Thursday, not Tuesday",
]
AGENT_LINES = ["The user now lives in Lisbon", "The deploy window moved to Friday"]
TUESDAY, THURSDAY = USER_LINES[6], USER_LINES[7]


def rule(texts: list[str], by: list[str]) -> dict[int, int]:
    rows = [
        (n, Entry("", "-", t, {"by": b, "added": "2026-12-05"}))
        for n, (t, b) in enumerate(zip(texts, by, strict=True), 1)
    ]
    return replaced(candidates(rows))


def test_the_not_form_replaces_the_line_it_names_before_and_after_the_agent_lines() -> None:
    for agents in (0, 1, 2):
        texts = USER_LINES + AGENT_LINES[:agents]
        got = rule(texts, ["user"] * len(USER_LINES) + ["agent"] * agents)
        assert got.get(7) == 8, (agents, got)
    # the same when the Friday line is the user's own: Tuesday stays replaced (Thursday's fate is the words' rule)
    assert rule([*USER_LINES, *AGENT_LINES], ["user"] * 10).get(7) in (8, 10)


def test_a_users_replaced_line_stays_replaced_whatever_agent_lines_come_later() -> None:
    users = [*USER_LINES[:7], "The deploy window is now Thursday"]
    for agents in (0, 1, 2):
        got = rule(users + AGENT_LINES[:agents], ["user"] * len(users) + ["agent"] * agents)
        assert got.get(7) == 8, (agents, got)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Deploy window is Tuesday", "The deploy window is Thursday, not Tuesday"),
        ("My preferred language for scripts is Bash", "My preferred language for scripts is Python, not Bash"),
        ("The staging database is called olive", "The staging database is called maple not olive."),
    ],
)
def test_x_not_y_corrects_the_line_holding_y(old: str, new: str) -> None:
    assert rule([old, new], ["user", "user"]) == {1: 2}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("CI runs unit tests on every push", "CI does not run the e2e suite on forks"),
        ("Indent Python files with spaces", "Indent Go files with tabs, not spaces, in the shop repo"),
    ],
)
def test_a_not_that_names_no_older_value_replaces_nothing(old: str, new: str) -> None:
    assert rule([old, new], ["user", "user"]) == {}


def test_the_block_and_recall_keep_the_twice_outdated_line_out(store: MemoryStore) -> None:
    for text in USER_LINES:
        store.remember(Candidate(text=text, by="user"))
    for text in AGENT_LINES:
        store.remember(Candidate(text=text, by="agent"))
    block = store.context().text
    assert TUESDAY not in block.replace(THURSDAY, ""), block
    assert THURSDAY in block
    got = [h.text for h in store.recall("when is the deploy window", min_confidence=0.0)]
    assert THURSDAY in got
    assert TUESDAY not in got[: got.index(THURSDAY)], got
