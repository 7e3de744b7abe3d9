"""Recall lists an agent's correction of a user's line right after that line (breaker7 B7-18).

The block keeps the user's line, marks it "(an agent line since says: L<n>)" and ranks the agent line right
after it; recall ranked "My editor is vim" first and the agent's "The user switched from vim to Helix" 7th.
Both stay (an agent's line never hides the user's); when both are listed the correction comes next.
"""

from __future__ import annotations

from memrepo.engine.models import Candidate
from memrepo.engine.read.recallorder import disputed_after
from memrepo.engine.repo.store import MemoryStore

OTHER = [
    "The user prefers dark editor themes in every tool",
    "The user edits Markdown notes daily in the terminal",
    "The user uses a split keyboard at the office",
    "The user reads editor release notes every month",
    "The user likes monospace fonts such as Iosevka",
]


def test_a_disputing_line_moves_right_after_the_line_it_disputes() -> None:
    assert disputed_after([1, 2, 3, 4, 5], {2: 5}) == [1, 2, 5, 3, 4]
    assert disputed_after([5, 1, 2], {2: 5}) == [5, 1, 2]  # already above: stays
    assert disputed_after([1, 2, 3], {2: 9}) == [1, 2, 3]  # not listed: nothing moves


def test_recall_lists_the_agents_correction_right_after_the_users_line(store: MemoryStore) -> None:
    store.remember(Candidate(text="My editor is vim", by="user"))
    for text in OTHER:
        store.remember(Candidate(text=text, by="agent"))
    store.remember(Candidate(text="The user switched from vim to Helix", by="agent"))
    got = [h.text for h in store.recall("which editor does the user use", min_confidence=0.0)]
    assert "The user switched from vim to Helix" in got, got
    if "My editor is vim" in got:
        assert got.index("The user switched from vim to Helix") <= got.index("My editor is vim") + 1, got
