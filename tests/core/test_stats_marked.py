"""``memrepo stats`` counts a fact the checkpoint marked as the user's once, as the user's (loss8).

The model stored the user's typed "Remember that X" with memory_remember (``by: agent``); the session-end
checkpoint then found the same line and made it the user's in a "Mark as the user's" commit (breaker7
B7-15). stats kept counting it among the agent's facts; it now moves to the user's, and the total stays one.
"""

from __future__ import annotations

from pathlib import Path

from helpers.repo_helpers import plain_settings

from memrepo.engine import compute_stats
from memrepo.engine.checkpoints.distill import _mark_users
from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore

TEXT = "The release branch is cut every second Monday"


def test_a_marked_fact_counts_once_as_the_users(repo_path: Path) -> None:
    store = MemoryStore.open(repo_path, plain_settings())
    assert store.remember(Candidate(text=TEXT, by="agent", origin="mcp")).action is Action.ADDED
    assert store.remember(Candidate(text="Deploys happen on Tuesdays", by="agent", origin="mcp")).commit
    typed = Candidate(text=TEXT, by="user", origin="agent_tool", task="session-1")
    found = store.remember(typed)
    assert found.action is Action.REINFORCED
    marked = _mark_users(store, typed, found)  # what the checkpoint does with the user's typed words
    assert marked.commit is not None
    facts = compute_stats(repo_path, repo_path / ".git").facts
    assert (facts["user"], facts["agent"]) == (1, 1)
