"""A forget naming a verbatim piece of exactly one line, a reason said after it, is carried out without the model
(engine/checkpoints/forgetpiece.py; breaker31 B31-3).

"Forget what I said about emoji in commit messages, I don't mind them anymore." only proposed "I really can't stand
emoji in commit messages" in the inbox in a repo of more than five lines: the reason was read as part of the topic,
and the meaning match that could name the line needs the local model the default install lacks.
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.forgetting import forgets

EMOJI = "I really can't stand emoji in commit messages"


def _line(text: str, n: int, by: str = "user", path: str = "me.md") -> ExistingEntry:
    return ExistingEntry(f"{path}#L{n}", path, n, text, by, {})


_BASE = [
    _line(text, n)
    for n, text in enumerate(
        [
            "I prefer tabs over spaces",
            "My name is Ana",
            "I use Vim as my editor",
            "I work in Berlin",
            EMOJI,
            "Commit messages follow Conventional Commits",
            "I like dark themes",
        ],
        start=3,
    )
]


def _said(said: str, *more: ExistingEntry) -> tuple[list[str], list[str]]:
    now, proposed = forgets([said], [*_BASE, *more])
    return [e.text for e in now], [e.text for e in proposed]


@pytest.mark.parametrize(
    "said",
    [
        "Forget what I said about emoji in commit messages, I don't mind them anymore.",
        "Forget what I said about emoji in commit messages because I don't mind them anymore.",
        "Please forget the note about emoji in commit messages; I changed my mind.",
    ],
)
def test_a_verbatim_piece_of_one_line_with_a_reason_forgets_it(said: str) -> None:
    assert _said(said) == ([EMOJI], [])


@pytest.mark.parametrize(
    ("said", "more"),
    [
        # two lines mention emoji: the user picks in the inbox
        ("Forget what I said about emoji, I don't mind them anymore.", [_line("Emoji are fine in chat", 10)]),
        # two lines hold the whole piece
        (
            "Forget what I said about emoji in commit messages, I don't mind them anymore.",
            [_line("No emoji in commit messages of the release branch", 10)],
        ),
        # a partial match, or the words out of order: no piece of the line
        ("Forget what I said about emoji in commit titles, I don't mind them anymore.", []),
        ("Forget what I said about commit messages emoji, I don't mind them anymore.", []),
    ],
)
def test_two_lines_or_a_partial_piece_only_propose(said: str, more: list[ExistingEntry]) -> None:
    now, proposed = _said(said, *more)
    assert now == [] and EMOJI in proposed


def test_an_agents_line_holding_the_piece_is_only_proposed() -> None:
    agents = [_line(EMOJI, 7, by="agent") if e.text == EMOJI else e for e in _BASE]
    now, proposed = forgets(["Forget what I said about emoji in commit messages, I don't mind them anymore."], agents)
    assert now == [] and [e.text for e in proposed] == [EMOJI]
