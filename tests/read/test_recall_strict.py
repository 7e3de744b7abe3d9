"""A question asking when something is, how many there are or how much it costs is answered by hybrid recall only when
one of the answer's first three hits holds a time, a count or an amount of money (rec18, issue 30).

"how many robots will run in the Sueca pilot" was answered by "Firmware freeze for the Sueca pilot: 15 May 2026": a
date's digits are no count. The rule reads the first three hits, not the best alone: the answer's line is often
second.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from memrepo.engine.read.recallstrict import answers_strict, holds_strict, strict_asked
from memrepo.engine.read.recalltype import typed


@pytest.mark.parametrize(
    ("query", "lines", "answers"),
    [
        ("how many robots will run in the Sueca pilot", ["Firmware freeze for the Sueca pilot: 15 May 2026."], False),
        ("how many robots will run in the Sueca pilot", ["The Sueca pilot runs 12 robots from May 2026."], True),
        ("how many GPUs does the box have", ["The training box has an RTX A6000 since 2024-03-01."], False),
        ("how many GPUs does the box have", ["The training box has 2x A100."], True),
        ("how many replicas does the api run", ["The api runs three replicas behind the load balancer."], True),
        ("how much does one NS-64 lidar cost", ["Upgraded to the NS-64 (64 channels, 20 Hz)."], False),
        ("how much does one NS-64 lidar cost", ["An NS-64 costs 4,200 EUR with the mount."], True),
        ("how much does the license cost", ["The license costs 400 a year."], True),
        ("what is the budget for the GopherCon trip", ["Speaking at GopherCon EU in Berlin in June."], False),
        ("what is the budget for the GopherCon trip", ["GopherCon trip budget: $1,800 including the hotel."], True),
        ("when is the next route-planner release", ["route-planner is a FastAPI service on Python 3.11."], False),
        ("when is the next route-planner release", ["The next route-planner release is on 3 March."], True),
        ("when is the daily standup", ["Team standup moved to 10:15, Tuesdays and Thursdays only."], True),
        ("when is the daily standup", ["Team standup moved to Slack huddles, a quarter past ten."], True),
        ("when is the daily standup", ["Team standup moved to Slack huddles."], False),
        ("when is it OK to force push", ["Never force push to main; rebase before merging."], True),
    ],
)
def test_a_strict_type_is_answered_only_by_a_line_holding_it(query: str, lines: list[str], answers: bool) -> None:
    assert answers_strict(query, lines) is answers


@pytest.mark.parametrize(
    "query",
    [
        "what time zone is Maya in",
        "when do I use rebase instead of merge",
        "how much memory does the worker need",
        "which database does billing use",
        "how should commit messages be written",
    ],
)
def test_other_questions_ask_for_no_strict_type(query: str) -> None:
    assert strict_asked(query) == ""
    assert answers_strict(query, ["Prefers pnpm over npm."])


def test_the_first_three_hits_are_read_not_the_fourth() -> None:
    query = "how many robots will run in the Sueca pilot"
    lines = ["Firmware freeze for the Sueca pilot: 15 May 2026.", "Sueca is near Valencia.", "The pilot uses LTE-M."]
    assert answers_strict(query, [*lines[:2], "The Sueca pilot runs 12 robots.", lines[2]])
    assert not answers_strict(query, [*lines, "The Sueca pilot runs 12 robots."])
    assert not holds_strict("count", "Upgraded to v2.4 and the TC52 handhelds on 2025-05-01")


@dataclass
class _Info:
    answered: bool = True


class _Index:
    """The two calls :func:`typed` makes of a recall index: ``row(iid)`` -> (path, line, ws, text, meta, context)."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts

    def row(self, iid: int) -> tuple:
        return ("projects/robots.md", iid + 1, None, self.texts[iid], "{}", "")


def test_hybrid_recall_gives_no_answer_when_no_first_hit_holds_the_type() -> None:
    index = _Index(["Firmware freeze for the Sueca pilot: 15 May 2026.", "Sueca is near Valencia.", "Uses LTE-M."])
    out = [(0, (0, 0.0)), (1, (0, 0.0)), (2, (0, 0.0))]
    info = _Info()
    assert typed(index, "how many robots will run in the Sueca pilot", out, info, related=False) == []
    assert info.answered is False
    related = _Info()
    assert typed(index, "how many robots will run in the Sueca pilot", out, related, related=True) == out
    assert related.answered is False
    kept = _Info()
    assert typed(index, "when does the Sueca pilot freeze the firmware", out, kept, related=False) == out
    assert kept.answered is True
